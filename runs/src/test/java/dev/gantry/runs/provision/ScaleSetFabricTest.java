package dev.gantry.runs.provision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.azure.fakes.ArmFake;
import dev.gantry.model.VmInventoryEntry;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code vm up} of an RDMA plan asked for a zone, against the fake Resource Manager through the real SDK: its VMs are
 * the instances of one Uniform scale set in that zone, limited to a single placement group, with the plan's image and
 * accelerated networking; a higher count raises the capacity, a retry adds nothing, {@code vm down} deletes instances
 * through the set and the set with its last one; a set of the other kind or zone is refused with the fix.
 */
class ScaleSetFabricTest extends ProvisioningFixture {
    static final String RG = VmProvisionerTest.RG;
    static final String SET = "train-fabric";
    static final String SET_TYPE = "Microsoft.Compute/virtualMachineScaleSets";

    static ProvisionRequest zonal(int count) {
        return FabricProvisionTest.fabric(count).withZone("2");
    }

    String setId() {
        return ArmFake.resourcePath(RG, SET_TYPE, SET);
    }

    JsonNode storedSet() {
        return arm.resource(RG, SET_TYPE, SET).orElseThrow();
    }

    List<String> recorded() {
        return inventory.list().stream().map(VmInventoryEntry::name).toList();
    }

    @Test
    void aZonalRdmaPlanIsOneUniformScaleSetInOnePlacementGroupWithItsImageAndAcceleratedNetworking() {
        List<ProvisionedVm> vms = provisioner().up(zonal(2));

        assertEquals(1, arm.requests("PUT", "/virtualMachineScaleSets/" + SET).size());
        JsonNode body = arm.requests("PUT", "/virtualMachineScaleSets/" + SET).get(0).body();
        FabricProvisionTest.GOLDEN.assertMatches("scale-set.json", FabricProvisionTest.canonical(body));
        JsonNode properties = body.path("properties");
        assertEquals("Uniform", properties.path("orchestrationMode").asText());
        assertTrue(properties.path("singlePlacementGroup").asBoolean(), body.toString());
        assertEquals(1, properties.path("platformFaultDomainCount").asInt());
        assertFalse(properties.path("overprovision").asBoolean(true), "no extra instances come and go");
        assertEquals("Manual", properties.path("upgradePolicy").path("mode").asText());
        assertEquals("[\"2\"]", body.path("zones").toString());
        assertEquals("Standard_ND96isr_H100_v5", body.path("sku").path("name").asText());
        assertEquals(2, body.path("sku").path("capacity").asInt());
        assertEquals("true", body.path("tags").path("gantry:managed").asText());
        assertEquals("llm-7b", body.path("tags").path("gantry:plan").asText());
        JsonNode profile = properties.path("virtualMachineProfile");
        JsonNode image = profile.path("storageProfile").path("imageReference");
        assertEquals("microsoft-dsvm/ubuntu-hpc/2204/latest", image.path("publisher").asText() + "/"
                + image.path("offer").asText() + "/" + image.path("sku").asText() + "/" + image.path("version").asText());
        JsonNode os = profile.path("osProfile");
        assertEquals(VmProvisionerTest.CLOUD_INIT, new String(Base64.getDecoder().decode(os.path("customData")
                .asText()), StandardCharsets.UTF_8));
        assertEquals("gantry", os.path("adminUsername").asText());
        assertTrue(os.path("linuxConfiguration").path("disablePasswordAuthentication").asBoolean());
        assertEquals(VmProvisionerTest.KEY, os.path("linuxConfiguration").path("ssh").path("publicKeys").get(0)
                .path("keyData").asText());
        JsonNode nic = profile.path("networkProfile").path("networkInterfaceConfigurations").get(0).path("properties");
        assertTrue(nic.path("enableAcceleratedNetworking").asBoolean(), nic.toString());
        assertTrue(nic.path("ipConfigurations").get(0).path("properties").path("publicIPAddressConfiguration")
                .isMissingNode(), "private unless asked");
        assertTrue(arm.requests("PUT", "/virtualMachines/train-1").isEmpty(), "no VMs of their own");
        assertTrue(arm.requests("PUT", "/availabilitySets/" + SET).isEmpty(), "no availability set");

        assertEquals(List.of(SET + "_0", SET + "_1"), vms.stream().map(ProvisionedVm::name).toList());
        assertEquals(List.of(SET + "_0", SET + "_1"), arm.scaleSetInstances(setId()));
        assertEquals(List.of(SET + "_0", SET + "_1"), recorded());
        for (VmInventoryEntry vm : inventory.list()) {
            assertTrue(vm.scaleSetId().filter(setId()::equalsIgnoreCase).isPresent(), vm.toString());
            assertEquals(Optional.empty(), vm.availabilitySetId());
            assertTrue(vm.hostKeyPinned(), "host keys read through Run Command on the instance");
            assertTrue(vm.privateIp().startsWith("10.210.0."), vm.privateIp());
            assertEquals("Standard_ND96isr_H100_v5", vm.vmSize());
        }
        assertEquals(1, arm.requests("POST", "/virtualMachineScaleSets/" + SET + "/virtualMachines/0/runCommand")
                .size());
        assertEquals(2, readinessProbes.size());
        assertEquals("[\"2\"]", storedSet().path("zones").toString());
        assertFalse(storedSet().path("properties").path("virtualMachineProfile").path("osProfile").has("customData"),
                "custom data is write-only");
    }

    @Test
    void aHigherCountRaisesTheSameSetsCapacityAndARetryAddsNothing() {
        provisioner().up(zonal(2));
        provisioner().up(zonal(3));

        assertEquals(3, storedSet().path("sku").path("capacity").asInt());
        assertEquals(List.of(SET + "_0", SET + "_1", SET + "_2"), arm.scaleSetInstances(setId()));
        assertEquals(List.of(SET + "_0", SET + "_1", SET + "_2"), recorded());
        assertEquals(1, arm.requests("POST", "/virtualMachines/0/runCommand").size(), "known keys are not read again");

        // A retry after a lost reply: the set has its instances, the inventory knows none of them.
        for (String name : recorded()) {
            inventory.remove(name);
        }
        int puts = arm.requests("PUT", "/virtualMachineScaleSets/" + SET).size();
        List<ProvisionedVm> again = provisioner().up(zonal(3));

        assertEquals(puts, arm.requests("PUT", "/virtualMachineScaleSets/" + SET).size(), "a settled set is not PUT");
        assertEquals(3, arm.scaleSetInstances(setId()).size(), "no extra instance");
        assertEquals(3, storedSet().path("sku").path("capacity").asInt());
        assertEquals(List.of(SET + "_0", SET + "_1", SET + "_2"), recorded());
        assertTrue(again.stream().allMatch(ProvisionedVm::created), "new to this inventory");

        provisioner().up(zonal(1));
        assertEquals(3, arm.scaleSetInstances(setId()).size(), "a lower count removes nothing: vm down does");
    }

    @Test
    void vmDownDeletesInstancesThroughTheSetAndTheSetWithItsLast() {
        provisioner().up(zonal(3));

        provisioner().down(List.of(SET + "_1"));

        assertEquals(1, arm.requests("POST", "/virtualMachineScaleSets/" + SET + "/delete").size());
        assertEquals("{\"instanceIds\":[\"1\"]}", arm.requests("POST", "/virtualMachineScaleSets/" + SET + "/delete")
                .get(0).body().toString());
        assertEquals(2, storedSet().path("sku").path("capacity").asInt());
        assertEquals(List.of(SET + "_0", SET + "_2"), arm.scaleSetInstances(setId()));
        assertEquals(List.of(SET + "_0", SET + "_2"), recorded());
        assertTrue(arm.requests("DELETE", "/virtualMachineScaleSets/" + SET).isEmpty());

        provisioner().down(List.of(SET + "_0", SET + "_2"));

        assertFalse(arm.exists(RG, SET_TYPE, SET));
        assertEquals(1, arm.requests("DELETE", "/virtualMachineScaleSets/" + SET).size());
        assertTrue(inventory.list().isEmpty());
        assertTrue(arm.resourceIds().stream().noneMatch(id -> id.toLowerCase().contains("/virtualmachinescalesets/")
                || id.toLowerCase().contains("/disks/" + SET)), "instances, NICs and disks went with the set: "
                + arm.resourceIds());
    }

    @Test
    void anInstanceThatDoesNotRunIsReportedAndStaysRecordedForVmDown() {
        provisioner().up(zonal(2));
        arm.setPowerState(SET + "_1", "deallocated");

        GantryException e = assertThrows(GantryException.class, () -> provisioner().up(zonal(2)));

        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertTrue(e.getMessage().contains("instance train-fabric_1 exists but is deallocated; start it in the Azure "
                + "portal, or delete it with gantry vm down train-fabric_1 and run gantry vm up again"), e.getMessage());
        assertTrue(e.getMessage().contains("Already provisioned and recorded: train-fabric_0"), e.getMessage());
        assertEquals(List.of(SET + "_0", SET + "_1"), recorded());

        provisioner().down(List.of(SET + "_1"));
        assertEquals(List.of(SET + "_0"), arm.scaleSetInstances(setId()));
    }

    @Test
    void eachInstanceHasThePublicIpTheRequestAsks() {
        provisioner().up(zonal(2).withPublicIp("203.0.113.0/24"));

        JsonNode ip = arm.requests("PUT", "/virtualMachineScaleSets/" + SET).get(0).body().path("properties")
                .path("virtualMachineProfile").path("networkProfile").path("networkInterfaceConfigurations").get(0)
                .path("properties").path("ipConfigurations").get(0).path("properties");
        assertEquals("Standard", ip.path("publicIPAddressConfiguration").path("sku").path("name").asText());
        for (VmInventoryEntry vm : inventory.list()) {
            assertTrue(vm.publicIp().filter(a -> a.startsWith("20.51.0.")).isPresent(), vm.toString());
            assertTrue(vm.publicIpId().isPresent());
        }
        assertEquals(2, inventory.list().stream().map(VmInventoryEntry::sshAddress).distinct().count());
        assertTrue(readinessProbes.stream().allMatch(probe -> probe.contains("@20.51.0.")), readinessProbes.toString());
    }

    @Test
    void moreVmsThanOnePlacementGroupHoldsAreRefusedNamingAzuresLimit() {
        GantryException e = assertThrows(GantryException.class, () -> zonal(100).withCount(101));

        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertTrue(e.getMessage().contains("a scale set limited to a single placement group, which Azure caps at 100 "
                + "VMs"), e.getMessage());
        assertTrue(arm.requests().isEmpty(), "refused before any call");
    }

    @Test
    void anExistingFabricOfTheOtherKindOrZoneIsRefusedWithTheFix() {
        provisioner().up(FabricProvisionTest.fabric(1)); // an availability set train-fabric
        GantryException zonalOverSet = assertThrows(GantryException.class, () -> provisioner().up(zonal(2)));
        assertEquals(ErrorCode.CONFIG_INVALID, zonalOverSet.code());
        assertEquals("availability set train-fabric already exists in resource group gantry-rg (from a regional vm "
                + "up), but the request puts its VMs in zone 2, in scale set train-fabric; Azure cannot move VMs into "
                + "a zone. Remove its VMs first with gantry vm down, or choose another name prefix",
                zonalOverSet.getMessage());
        assertTrue(arm.requests("PUT", "/virtualMachineScaleSets/" + SET).isEmpty());
        provisioner().down(List.of("train-1"));

        provisioner().up(zonal(1));
        GantryException otherZone = assertThrows(GantryException.class,
                () -> provisioner().up(FabricProvisionTest.fabric(2).withZone("1")));
        assertEquals("scale set train-fabric already exists in zone(s) 2, but the request puts its VMs in zone 1; "
                + "Azure does not change a scale set's zones. Ask zone 2 (--zone), remove its VMs first with gantry "
                + "vm down, or choose another name prefix", otherZone.getMessage());
        GantryException regional = assertThrows(GantryException.class,
                () -> provisioner().up(FabricProvisionTest.fabric(2)));
        assertEquals("scale set train-fabric already exists in resource group gantry-rg (from a vm up in a zone), but "
                + "the request puts its VMs in no zone, in availability set train-fabric; VMs of one fabric are in "
                + "one of the two. Ask the scale set's zone again (--zone, or spec.zones.eastus), remove its VMs "
                + "first with gantry vm down, or choose another name prefix", regional.getMessage());
        assertFalse(arm.exists(RG, "Microsoft.Compute/availabilitySets", SET));
        assertEquals(1, arm.scaleSetInstances(setId()).size(), "nothing changed");
    }

    @Test
    void aScaleSetOfTheSameNameNotMadeByGantryIsNotUsed() {
        ObjectNode foreign = new ObjectMapper().createObjectNode().put("name", SET).put("location", "eastus")
                .put("type", SET_TYPE);
        foreign.putArray("zones").add("2");
        foreign.putObject("sku").put("name", "Standard_ND96isr_H100_v5").put("capacity", 0);
        arm.seed(setId(), foreign);

        GantryException e = assertThrows(GantryException.class, () -> provisioner().up(zonal(2)));

        assertEquals("scale set train-fabric already exists in resource group gantry-rg and was not created by Gantry "
                + "(no gantry:managed tag); choose another name prefix", e.getMessage());
        assertTrue(arm.requests("PUT", "/virtualMachineScaleSets/" + SET).isEmpty());
    }
}
