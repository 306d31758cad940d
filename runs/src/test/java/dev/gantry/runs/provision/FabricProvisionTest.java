package dev.gantry.runs.provision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.azure.fakes.ArmFake;
import dev.gantry.testing.GoldenFiles;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code vm up} of an RDMA plan against the fake Resource Manager: its VMs go into one availability set, with
 * accelerated networking; a higher count adds VMs to it, {@code vm down} of some keeps it and of the last removes it;
 * what Azure would refuse is refused before or by the fake.
 */
class FabricProvisionTest extends ProvisioningFixture {
    static final String RG = VmProvisionerTest.RG;
    static final String SET = "train-fabric";
    static final GoldenFiles GOLDEN = GoldenFiles.in("provision/fabric");

    static ProvisionRequest fabric(int count) {
        return VmProvisionerTest.request(count, Optional.empty(), false).withSharedFabric(true);
    }

    /** The body with its keys sorted, since tags and other maps are sent in no fixed order. */
    static String canonical(JsonNode body) {
        ObjectMapper sorted = new ObjectMapper().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                .enable(SerializationFeature.INDENT_OUTPUT);
        try {
            return sorted.writeValueAsString(sorted.convertValue(body, Object.class)) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    String setId() {
        return ArmFake.resourcePath(RG, "Microsoft.Compute/availabilitySets", SET);
    }

    int indexOf(String method, String pathSuffix) {
        return arm.requests().indexOf(arm.requests(method, pathSuffix).get(0));
    }

    @Test
    void theVmsOfAnRdmaPlanShareOneAvailabilitySetWithAcceleratedNetworking() {
        List<ProvisionedVm> vms = provisioner().up(fabric(2));

        GOLDEN.assertMatches("availability-set.json", canonical(arm.requests("PUT", "/availabilitySets/" + SET).get(0)
                .body()));
        GOLDEN.assertMatches("vm-in-availability-set.json", canonical(arm.requests("PUT", "/virtualMachines/train-1")
                .get(0).body()));
        for (String name : List.of("train-1", "train-2")) {
            JsonNode body = arm.requests("PUT", "/virtualMachines/" + name).get(0).body();
            assertTrue(setId().equalsIgnoreCase(body.path("properties").path("availabilitySet").path("id").asText()),
                    body.toString());
            assertTrue(body.path("zones").isMissingNode(), "an availability set's VMs have no zone: " + body);
            JsonNode nic = arm.requests("PUT", "/networkInterfaces/" + name + "-nic").get(0).body();
            assertTrue(nic.path("properties").path("enableAcceleratedNetworking").asBoolean(), nic.toString());
        }
        assertEquals(List.of("train-1", "train-2"), arm.availabilitySetMembers(setId()));
        assertTrue(vms.stream().allMatch(v -> v.vm().availabilitySetId().filter(setId()::equalsIgnoreCase)
                .isPresent()));
        assertEquals(vms.get(0).vm().availabilitySetId(), inventory.find("train-1").orElseThrow()
                .availabilitySetId());
        assertTrue(indexOf("PUT", "/availabilitySets/" + SET) < indexOf("PUT", "/virtualMachines/train-1"),
                "the set is made before any VM, so that each VM joins it as it is created");
    }

    @Test
    void aHigherCountJoinsTheSameSetAndVmDownRemovesItWithItsLastVm() {
        provisioner().up(fabric(2));
        provisioner().up(fabric(3));

        assertEquals(1, arm.requests("PUT", "/availabilitySets/" + SET).size(), "created once");
        assertEquals(List.of("train-1", "train-2", "train-3"), arm.availabilitySetMembers(setId()));
        assertEquals(1, arm.requests("PUT", "/virtualMachines/train-1").size(), "train-1 was reused, not re-put");

        provisioner().down(List.of("train-3")); // a lower count: the others keep their fabric
        assertTrue(arm.exists(RG, "Microsoft.Compute/availabilitySets", SET));
        assertTrue(arm.requests("DELETE", "/availabilitySets/" + SET).isEmpty());
        assertEquals(List.of("train-1", "train-2"), arm.availabilitySetMembers(setId()));

        provisioner().down(List.of("train-1", "train-2"));
        assertFalse(arm.exists(RG, "Microsoft.Compute/availabilitySets", SET));
        assertEquals(1, arm.requests("DELETE", "/availabilitySets/" + SET).size());
        assertTrue(indexOf("DELETE", "/virtualMachines/train-2") < indexOf("DELETE", "/availabilitySets/" + SET),
                "the set goes after its VMs");
        assertTrue(inventory.list().isEmpty());
    }

    @Test
    void aVmMadeOutsideTheSetIsNotSilentlyCountedAsOnTheFabric() {
        provisioner().up(VmProvisionerTest.request(1, Optional.empty(), false));

        GantryException e = assertThrows(GantryException.class, () -> provisioner().up(fabric(2)));

        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals("VM train-1 already exists in no availability set, but the request puts its VMs in availability "
                + "set train-fabric so that they share one InfiniBand fabric; Azure adds a VM to an availability set "
                + "only when it creates it. Remove the old VMs first with gantry vm down, or choose another name "
                + "prefix", e.getMessage());
        assertTrue(arm.requests("PUT", "/virtualMachines/train-2").isEmpty(), "nothing more was created");
    }

    @Test
    void azureRefusingAFullSetIsReportedWithTheVmsThatDidComeUp() {
        provisioner().up(fabric(1));
        // 198 VMs Gantry does not know of fill the set to 199; the second VM of this request is the 201st.
        ObjectMapper json = new ObjectMapper();
        for (int i = 1; i <= 198; i++) {
            ObjectNode other = json.createObjectNode().put("name", "other-" + i)
                    .put("type", "Microsoft.Compute/virtualMachines").put("location", "eastus");
            other.putObject("properties").putObject("availabilitySet").put("id", setId());
            arm.seed(ArmFake.resourcePath(RG, "Microsoft.Compute/virtualMachines", "other-" + i), other);
        }

        GantryException e = assertThrows(GantryException.class, () -> provisioner().up(fabric(3)));

        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertTrue(e.getMessage().contains("Azure answered 409 OperationNotAllowed while creating VM train-3: "
                + "Availability set " + setId() + " holds at most 200 VMs and has 200."), e.getMessage());
        assertTrue(e.getMessage().contains("Already provisioned and recorded: train-1, train-2"), e.getMessage());
        assertFalse(arm.exists(RG, "Microsoft.Network/networkInterfaces", "train-3-nic"), "the refused VM's NIC went");
    }

    @Test
    void aSetOfTheSameNameNotMadeByGantryIsNotUsed() {
        ObjectNode foreign = new ObjectMapper().createObjectNode().put("name", SET).put("location", "eastus")
                .put("type", "Microsoft.Compute/availabilitySets");
        foreign.putObject("sku").put("name", "Aligned");
        arm.seed(setId(), foreign);

        GantryException e = assertThrows(GantryException.class, () -> provisioner().up(fabric(2)));

        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals("availability set train-fabric already exists in resource group gantry-rg and was not created by "
                + "Gantry (no gantry:managed tag); choose another name prefix", e.getMessage());
        assertTrue(arm.requests("PUT", "/virtualMachines/train-1").isEmpty());
    }

    @Test
    void aClassicSetOfGantrysCannotHoldManagedDisksAndIsReported() {
        ObjectNode classic = new ObjectMapper().createObjectNode().put("name", SET).put("location", "eastus")
                .put("type", "Microsoft.Compute/availabilitySets");
        classic.putObject("sku").put("name", "Classic");
        classic.putObject("tags").put("gantry:managed", "true");
        arm.seed(setId(), classic);

        GantryException e = assertThrows(GantryException.class, () -> provisioner().up(fabric(1)));

        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertTrue(e.getMessage().startsWith("availability set train-fabric has SKU 'Classic', which holds only VMs "
                + "with unmanaged disks"), e.getMessage());
    }
}
