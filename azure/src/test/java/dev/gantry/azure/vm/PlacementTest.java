package dev.gantry.azure.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipeline;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.management.SubResource;
import com.azure.resourcemanager.compute.fluent.models.VirtualMachineScaleSetInner;
import com.azure.resourcemanager.compute.models.OrchestrationMode;
import com.azure.resourcemanager.compute.models.Sku;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.GantryException;
import dev.gantry.api.ImageRef;
import dev.gantry.azure.fakes.ArmFake;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Availability sets and scale sets through the real SDK against the fake Resource Manager, which refuses what Azure
 * refuses about where VMs go: an availability set across zones or over 200 VMs, a zonal VM in an availability set, a
 * VM in two sets or added to one after its creation, a single placement group over 100 VMs, and the scale set
 * settings the contract forbids.
 */
class PlacementTest extends FabricNetworkFixture {
    static final ObjectMapper JSON = new ObjectMapper();

    FoundVm createVm(String name, Optional<String> availabilitySetId, Optional<String> zone) {
        String nic = arm.createNic(RG, name + "-nic", "eastus", TAGS, subnetId, Optional.empty(), Optional.empty(),
                true, SCOPE);
        return arm.beginCreateVm(new VmBlueprint(RG, "eastus", name, "Standard_ND96isr_H100_v5",
                ImageRef.marketplace("Ubuntu HPC", "microsoft-dsvm:ubuntu-hpc:2204:latest"), "gantry",
                "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me", "",
                Optional.empty(), name + "-osdisk", TAGS, availabilitySetId, zone), nic, SCOPE).await();
    }

    AvailabilitySetFacts availabilitySet(String name) {
        return arm.createAvailabilitySet(new AvailabilitySetBlueprint(RG, "eastus", name, TAGS), SCOPE);
    }

    /** A raw PUT, for bodies the SDK's models cannot carry; answers the status and the body. */
    String[] put(String type, String name, String body) {
        HttpPipeline pipeline = fake.connector().connect(ArmFake.SUBSCRIPTION).serviceClient().getHttpPipeline();
        HttpRequest put = new HttpRequest(HttpMethod.PUT, fake.baseUrl() + ArmFake.resourcePath(RG, type, name)
                + "?api-version=2025-04-01").setHeader(HttpHeaderName.CONTENT_TYPE, "application/json").setBody(body);
        try (HttpResponse answer = pipeline.send(put).block()) {
            return new String[] {Integer.toString(answer.getStatusCode()), answer.getBodyAsString().block()};
        }
    }

    @Test
    void anAvailabilitySetForManagedDisksTakesRegionalVmsWithAcceleratedNetworking() {
        AvailabilitySetFacts set = availabilitySet("train-fabric");

        JsonNode body = fake.requests("PUT", "/availabilitySets/train-fabric").get(0).body();
        assertEquals("Aligned", body.path("sku").path("name").asText());
        assertTrue(body.path("zones").isMissingNode(), body.toString());
        assertEquals("Aligned", set.sku());
        assertEquals(Optional.of(set), arm.findAvailabilitySet(RG, "train-fabric", SCOPE));
        assertEquals(Optional.empty(), arm.findAvailabilitySet(RG, "none", SCOPE));

        FoundVm vm = createVm("train-1", Optional.of(set.id()), Optional.empty());
        assertEquals(Optional.of(set.id()), vm.availabilitySetId());
        assertEquals(List.of("train-1"), fake.availabilitySetMembers(set.id()));
        JsonNode nic = fake.requests("PUT", "/networkInterfaces/train-1-nic").get(0).body();
        assertTrue(nic.path("properties").path("enableAcceleratedNetworking").asBoolean());

        arm.deleteVm(RG, "train-1", SCOPE);
        arm.deleteAvailabilitySet(RG, "train-fabric", SCOPE);
        arm.deleteAvailabilitySet(RG, "train-fabric", SCOPE); // already gone: done
        assertEquals(Optional.empty(), arm.findAvailabilitySet(RG, "train-fabric", SCOPE));
    }

    @Test
    void anAvailabilitySetHasNoZonesAndTakesNoZonalVm() {
        String[] zonal = put("Microsoft.Compute/availabilitySets", "zonal",
                "{\"location\":\"eastus\",\"zones\":[\"1\"],\"properties\":{}}");
        assertEquals("400", zonal[0]);
        assertTrue(zonal[1].contains("cannot have zones"), zonal[1]);

        AvailabilitySetFacts set = availabilitySet("regional");
        GantryException zonalVm = assertThrows(GantryException.class,
                () -> createVm("av-1", Optional.of(set.id()), Optional.of("1")));
        assertTrue(zonalVm.getMessage().contains("availability sets do not support availability zones"),
                zonalVm.getMessage());
    }

    @Test
    void aVmJoinsOneSetOnlyAndOnlyWhenItIsCreated() {
        createVm("late-1", Optional.empty(), Optional.empty());
        AvailabilitySetFacts set = availabilitySet("late");
        GantryException late = assertThrows(GantryException.class,
                () -> createVm("late-1", Optional.of(set.id()), Optional.empty()));
        assertTrue(late.getMessage().contains("409 OperationNotAllowed"), late.getMessage());
        assertTrue(late.getMessage().contains("can only be added to an availability set at creation time"),
                late.getMessage());

        var scaleSets = fake.connector().connect(ArmFake.SUBSCRIPTION).serviceClient().getVirtualMachineScaleSets();
        var flexible = new VirtualMachineScaleSetInner().withOrchestrationMode(OrchestrationMode.FLEXIBLE)
                .withPlatformFaultDomainCount(1);
        flexible.withLocation("eastus");
        String scaleSetId = scaleSets.createOrUpdate(RG, "flex", flexible).id();
        var vms = fake.connector().connect(ArmFake.SUBSCRIPTION).serviceClient().getVirtualMachines();
        var both = ArmTemplates.vm(new VmBlueprint(RG, "eastus", "both-1", "Standard_ND96isr_H100_v5",
                ImageRef.marketplace("Ubuntu HPC", "microsoft-dsvm:ubuntu-hpc:2204:latest"), "gantry",
                "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me", "",
                Optional.empty(), "both-1-osdisk", TAGS, Optional.of(set.id()), Optional.empty()),
                arm.createNic(RG, "both-1-nic", "eastus", TAGS, subnetId, Optional.empty(), Optional.empty(), false,
                        SCOPE)).withVirtualMachineScaleSet(new SubResource().withId(scaleSetId));
        RuntimeException refused = assertThrows(RuntimeException.class, () -> vms.createOrUpdate(RG, "both-1", both));
        assertTrue(refused.getMessage().contains("cannot exist along with a non-null properties.availabilitySet"),
                refused.getMessage());
    }

    @Test
    void anAvailabilitySetHoldsAtMostTwoHundredVms() {
        AvailabilitySetFacts set = availabilitySet("big");
        for (int i = 1; i <= 199; i++) {
            ObjectNode member = JSON.createObjectNode().put("name", "other-" + i)
                    .put("type", "Microsoft.Compute/virtualMachines").put("location", "eastus");
            member.putObject("properties").putObject("availabilitySet").put("id", set.id());
            fake.seed(ArmFake.resourcePath(RG, "Microsoft.Compute/virtualMachines", "other-" + i), member);
        }
        createVm("big-200", Optional.of(set.id()), Optional.empty());

        GantryException full = assertThrows(GantryException.class,
                () -> createVm("big-201", Optional.of(set.id()), Optional.empty()));
        assertTrue(full.getMessage().contains("holds at most 200 VMs and has 200"), full.getMessage());
        assertEquals(200, fake.availabilitySetMembers(set.id()).size());
    }

    @Test
    void aScaleSetsSinglePlacementGroupHoldsAtMostOneHundredVmsAndCannotBeRestoredOnceLeft() {
        var scaleSets = fake.connector().connect(ArmFake.SUBSCRIPTION).serviceClient().getVirtualMachineScaleSets();
        List<String> refusals = new ArrayList<>();
        for (VirtualMachineScaleSetInner set : List.of(
                uniform(101, true, List.of()),
                uniform(101, null, List.of()),
                uniform(2, true, List.of("1")).withPlatformFaultDomainCount(2),
                new VirtualMachineScaleSetInner().withOrchestrationMode(OrchestrationMode.FLEXIBLE)
                        .withPlatformFaultDomainCount(1).withSinglePlacementGroup(true))) {
            set.withLocation("eastus");
            refusals.add(assertThrows(RuntimeException.class, () -> scaleSets.createOrUpdate(RG, "refused", set))
                    .getMessage());
        }
        assertTrue(refusals.get(0).contains("single placement group, of max size 100 virtual machines; sku.capacity "
                + "101 does not fit"), refusals.get(0));
        assertTrue(refusals.get(1).contains("sku.capacity 101 does not fit"), "Uniform defaults to one group: "
                + refusals.get(1));
        assertTrue(refusals.get(2).contains("platformFaultDomainCount 2 is not allowed for a zonal scale set"),
                refusals.get(2));
        assertTrue(refusals.get(3).contains("not supported for a scale set in Flexible orchestration mode"),
                refusals.get(3));

        VirtualMachineScaleSetInner hundred = uniform(100, true, List.of("2"));
        hundred.withLocation("eastus");
        assertTrue(scaleSets.createOrUpdate(RG, "ib", hundred).singlePlacementGroup());
        VirtualMachineScaleSetInner wide = uniform(150, false, List.of("2"));
        wide.withLocation("eastus");
        assertEquals(150, scaleSets.createOrUpdate(RG, "ib", wide).sku().capacity());
        VirtualMachineScaleSetInner back = uniform(100, true, List.of("2"));
        back.withLocation("eastus");
        RuntimeException narrowed = assertThrows(RuntimeException.class, () -> scaleSets.createOrUpdate(RG, "ib",
                back));
        assertTrue(narrowed.getMessage().contains("is false and may not be modified to true"), narrowed.getMessage());
    }

    static VirtualMachineScaleSetInner uniform(long capacity, Boolean singlePlacementGroup, List<String> zones) {
        return new VirtualMachineScaleSetInner().withOrchestrationMode(OrchestrationMode.UNIFORM)
                .withSku(new Sku().withName("Standard_ND96isr_H100_v5").withCapacity(capacity))
                .withSinglePlacementGroup(singlePlacementGroup).withZones(zones.isEmpty() ? null : zones);
    }

    /**
     * The published {@code AvailabilitySets_CreateOrUpdate} example (Compute 2025-04-01, the version the SDK calls)
     * answers 200 only: the fake answers its request synchronously, with the example answer's name, type, location
     * and domain counts.
     */
    @Test
    void theFakeAnswersThePublishedAvailabilitySetCreateAsTheExampleDoes() throws Exception {
        JsonNode example = JSON.readTree(getClass().getResourceAsStream(
                "/azure-rest/compute/compute/2025-04-01/examples/AvailabilitySet_Create.json"));
        JsonNode expected = example.path("responses").path("200").path("body");
        List<String> statuses = new ArrayList<>();
        example.path("responses").fieldNames().forEachRemaining(statuses::add);
        assertEquals(List.of("200"), statuses);

        String[] answer = put("Microsoft.Compute/availabilitySets", "myAvailabilitySet",
                example.path("parameters").path("parameters").toString());

        assertEquals("200", answer[0]);
        JsonNode body = JSON.readTree(answer[1]);
        for (String field : List.of("name", "type", "location")) {
            assertEquals(expected.path(field), body.path(field), field);
        }
        for (String field : List.of("platformFaultDomainCount", "platformUpdateDomainCount")) {
            assertEquals(expected.path("properties").path(field), body.path("properties").path(field), field);
        }
    }
}
