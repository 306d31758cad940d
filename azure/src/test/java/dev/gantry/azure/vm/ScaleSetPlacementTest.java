package dev.gantry.azure.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.management.SubResource;
import com.azure.resourcemanager.compute.fluent.models.AvailabilitySetInner;
import com.azure.resourcemanager.compute.models.AvailabilitySetSkuTypes;
import com.azure.resourcemanager.compute.models.Sku;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.GantryException;
import dev.gantry.api.ImageRef;
import dev.gantry.azure.arm.ArmFailures.Scope;
import dev.gantry.azure.fakes.ArmFake;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Scale sets through the real SDK against the fake Resource Manager, which refuses what Azure refuses about where VMs
 * go: a full placement group, zones that do not match, availability sets across zones, a VM added to a scale set
 * after its creation.
 */
class ScaleSetPlacementTest {
    static final String RG = "fabric-rg";
    static final Scope SCOPE = new Scope("testing placement", "Standard_ND96isr_H100_v5", "eastus");
    static final Map<String, String> TAGS = Map.of("gantry:managed", "true");

    ArmFake fake;
    ArmVms arm;
    String subnetId;

    @BeforeEach
    void start() throws Exception {
        fake = new ArmFake();
        arm = ArmVms.connect(fake.connector(), ArmFake.SUBSCRIPTION);
        arm.createResourceGroup(RG, "eastus", TAGS, SCOPE);
        subnetId = arm.createNetwork(new NetworkBlueprint(RG, "eastus", "vnet", "10.210.0.0/16", "default",
                "10.210.0.0/20", TAGS), SCOPE).orElseThrow();
    }

    @AfterEach
    void stop() {
        fake.close();
    }

    FoundVm createVm(String name, Optional<String> scaleSetId, Optional<String> zone) {
        String nic = arm.createNic(RG, name + "-nic", "eastus", TAGS, subnetId, Optional.empty(), Optional.empty(),
                true, SCOPE);
        return arm.beginCreateVm(new VmBlueprint(RG, "eastus", name, "Standard_ND96isr_H100_v5",
                ImageRef.marketplace("Ubuntu HPC", "microsoft-dsvm:ubuntu-hpc:2204:latest"), "gantry",
                "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me", "",
                Optional.empty(), name + "-osdisk", TAGS, scaleSetId, zone), nic, SCOPE).await();
    }

    @Test
    void aFlexibleScaleSetInOneZoneAndPlacementGroupTakesVmsOfItsZoneOnly() {
        ScaleSetFacts set = arm.createScaleSet(new ScaleSetBlueprint(RG, "eastus", "train-fabric", Optional.of("2"),
                TAGS), SCOPE);

        JsonNode body = fake.requests("PUT", "/virtualMachineScaleSets/train-fabric").get(0).body();
        assertEquals("Flexible", body.path("properties").path("orchestrationMode").asText());
        assertTrue(body.path("properties").path("singlePlacementGroup").asBoolean());
        assertEquals(1, body.path("properties").path("platformFaultDomainCount").asInt());
        assertEquals("[\"2\"]", body.path("zones").toString());
        assertTrue(set.singlePlacementGroup());
        assertEquals(List.of("2"), set.zones());
        assertEquals("Flexible", set.orchestrationMode());
        assertEquals(Optional.of(set), arm.findScaleSet(RG, "train-fabric", SCOPE));

        FoundVm vm = createVm("train-1", Optional.of(set.id()), Optional.of("2"));
        assertEquals(Optional.of(set.id()), vm.scaleSetId());
        assertEquals(List.of("train-1"), fake.scaleSetMembers(set.id()));
        JsonNode nic = fake.requests("PUT", "/networkInterfaces/train-1-nic").get(0).body();
        assertTrue(nic.path("properties").path("enableAcceleratedNetworking").asBoolean());

        GantryException otherZone = assertThrows(GantryException.class,
                () -> createVm("train-2", Optional.of(set.id()), Optional.of("1")));
        assertTrue(otherZone.getMessage().contains("must be among the zones [\"2\"]"), otherZone.getMessage());
        GantryException regional = assertThrows(GantryException.class,
                () -> createVm("train-3", Optional.of(set.id()), Optional.empty()));
        assertTrue(regional.getMessage().contains("InvalidParameter"), regional.getMessage());
    }

    @Test
    void aSinglePlacementGroupHoldsAtMostOneHundredVms() {
        ScaleSetFacts set = arm.createScaleSet(new ScaleSetBlueprint(RG, "eastus", "big-fabric", Optional.empty(),
                TAGS), SCOPE);
        ObjectMapper json = new ObjectMapper();
        for (int i = 1; i <= 99; i++) {
            ObjectNode member = json.createObjectNode().put("name", "other-" + i)
                    .put("type", "Microsoft.Compute/virtualMachines").put("location", "eastus");
            member.putObject("properties").putObject("virtualMachineScaleSet").put("id", set.id());
            fake.seed(ArmFake.resourcePath(RG, "Microsoft.Compute/virtualMachines", "other-" + i), member);
        }
        createVm("big-100", Optional.of(set.id()), Optional.empty());

        GantryException full = assertThrows(GantryException.class,
                () -> createVm("big-101", Optional.of(set.id()), Optional.empty()));
        assertTrue(full.getMessage().contains("409 OperationNotAllowed"), full.getMessage());
        assertTrue(full.getMessage().contains("at most 100 VMs, and has 100"), full.getMessage());
        assertEquals(100, fake.scaleSetMembers(set.id()).size());
    }

    @Test
    void aVmJoinsAScaleSetOnlyWhenItIsCreated() {
        createVm("late-1", Optional.empty(), Optional.empty());
        ScaleSetFacts set = arm.createScaleSet(new ScaleSetBlueprint(RG, "eastus", "late-fabric", Optional.empty(),
                TAGS), SCOPE);
        GantryException late = assertThrows(GantryException.class,
                () -> createVm("late-1", Optional.of(set.id()), Optional.empty()));
        assertTrue(late.getMessage().contains("only be added to a virtual machine scale set at creation time"),
                late.getMessage());
    }

    @Test
    void aScaleSetInOnePlacementGroupCannotBeWidenedBackAndAZonalOneHasOneFaultDomain() {
        var client = fake.connector().connect(ArmFake.SUBSCRIPTION).serviceClient().getVirtualMachineScaleSets();
        var spread = ArmTemplates.scaleSet(new ScaleSetBlueprint(RG, "eastus", "spread", Optional.empty(), TAGS))
                .withSinglePlacementGroup(false);
        client.createOrUpdate(RG, "spread", spread);
        GantryException narrowed = assertThrows(GantryException.class, () -> arm.createScaleSet(
                new ScaleSetBlueprint(RG, "eastus", "spread", Optional.empty(), TAGS), SCOPE));
        assertTrue(narrowed.getMessage().contains("is false and may not be modified to true"),
                narrowed.getMessage());

        var zonal = ArmTemplates.scaleSet(new ScaleSetBlueprint(RG, "eastus", "zonal", Optional.of("1"), TAGS))
                .withPlatformFaultDomainCount(2);
        RuntimeException refused = assertThrows(RuntimeException.class, () -> client.createOrUpdate(RG, "zonal",
                zonal));
        assertTrue(refused.getMessage().contains("not allowed for a zonal scale set"), refused.getMessage());
    }

    @Test
    void anAvailabilitySetHasNoZonesAndTakesNoZonalVmNorOneOfAScaleSet() {
        var sets = fake.connector().connect(ArmFake.SUBSCRIPTION).serviceClient().getAvailabilitySets();
        AvailabilitySetInner zonal = new AvailabilitySetInner()
                .withSku(new Sku().withName(AvailabilitySetSkuTypes.ALIGNED.toString()));
        zonal.withLocation("eastus");
        // The SDK's availability set has no zones, as Azure's has none; a template that sends some is refused.
        var pipeline = fake.connector().connect(ArmFake.SUBSCRIPTION).serviceClient().getHttpPipeline();
        HttpRequest put = new HttpRequest(HttpMethod.PUT, fake.baseUrl() + ArmFake.resourcePath(RG,
                "Microsoft.Compute/availabilitySets", "zonal") + "?api-version=2024-07-01")
                .setHeader(HttpHeaderName.CONTENT_TYPE, "application/json")
                .setBody("{\"location\":\"eastus\",\"zones\":[\"1\"],\"properties\":{}}");
        String acrossZones;
        try (HttpResponse answer = pipeline.send(put).block()) {
            assertEquals(400, answer.getStatusCode());
            acrossZones = answer.getBodyAsString().block();
        }
        assertTrue(acrossZones.contains("cannot have zones"), acrossZones);

        String avsetId = sets.createOrUpdate(RG, "avset", zonal).id();
        var vm = ArmTemplates.vm(new VmBlueprint(RG, "eastus", "av-1", "Standard_ND96isr_H100_v5",
                ImageRef.marketplace("Ubuntu HPC", "microsoft-dsvm:ubuntu-hpc:2204:latest"), "gantry",
                "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me", "",
                Optional.empty(), "av-1-osdisk", TAGS, Optional.empty(), Optional.of("1")),
                arm.createNic(RG, "av-1-nic", "eastus", TAGS, subnetId, Optional.empty(), Optional.empty(), false,
                        SCOPE)).withAvailabilitySet(new SubResource().withId(avsetId));
        var vms = fake.connector().connect(ArmFake.SUBSCRIPTION).serviceClient().getVirtualMachines();
        RuntimeException zonalVm = assertThrows(RuntimeException.class, () -> vms.createOrUpdate(RG, "av-1", vm));
        assertTrue(zonalVm.getMessage().contains("availability sets do not support availability zones"),
                zonalVm.getMessage());

        ScaleSetFacts set = arm.createScaleSet(new ScaleSetBlueprint(RG, "eastus", "both", Optional.empty(), TAGS),
                SCOPE);
        vm.withZones(null).withVirtualMachineScaleSet(new SubResource().withId(set.id()));
        RuntimeException both = assertThrows(RuntimeException.class, () -> vms.createOrUpdate(RG, "av-1", vm));
        assertTrue(both.getMessage().contains("cannot exist along with a non-null properties.availabilitySet"),
                both.getMessage());

        vm.withVirtualMachineScaleSet(null);
        assertEquals(avsetId, vms.createOrUpdate(RG, "av-1", vm).availabilitySet().id());
    }

    /**
     * The published {@code AvailabilitySets_CreateOrUpdate} example (Compute 2025-04-01, the version the SDK calls)
     * answers 200 only: the fake answers its request synchronously, with the example answer's name, type, location
     * and domain counts.
     */
    @Test
    void theFakeAnswersThePublishedAvailabilitySetCreateAsTheExampleDoes() throws Exception {
        JsonNode example = new ObjectMapper().readTree(getClass().getResourceAsStream(
                "/azure-rest/compute/compute/2025-04-01/examples/AvailabilitySet_Create.json"));
        JsonNode expected = example.path("responses").path("200").path("body");
        assertEquals(List.of("200"), List.copyOf(iterable(example.path("responses").fieldNames())));
        var pipeline = fake.connector().connect(ArmFake.SUBSCRIPTION).serviceClient().getHttpPipeline();
        HttpRequest put = new HttpRequest(HttpMethod.PUT, fake.baseUrl() + ArmFake.resourcePath(RG,
                "Microsoft.Compute/availabilitySets", "myAvailabilitySet") + "?api-version="
                + example.path("parameters").path("api-version").asText())
                .setHeader(HttpHeaderName.CONTENT_TYPE, "application/json")
                .setBody(example.path("parameters").path("parameters").toString());
        try (HttpResponse answer = pipeline.send(put).block()) {
            assertEquals(200, answer.getStatusCode());
            JsonNode body = new ObjectMapper().readTree(answer.getBodyAsString().block());
            for (String field : List.of("name", "type", "location")) {
                assertEquals(expected.path(field), body.path(field), field);
            }
            for (String field : List.of("platformFaultDomainCount", "platformUpdateDomainCount")) {
                assertEquals(expected.path("properties").path(field), body.path("properties").path(field), field);
            }
        }
    }

    private static <T> java.util.List<T> iterable(java.util.Iterator<T> items) {
        java.util.List<T> all = new java.util.ArrayList<>();
        items.forEachRemaining(all::add);
        return all;
    }
}
