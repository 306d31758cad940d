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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vm up} of an RDMA plan against the fake Resource Manager: its VMs go into one Flexible scale set limited to
 * a single placement group, in one zone, with accelerated networking; a higher count adds VMs to it, {@code vm down}
 * of some keeps it and of the last removes it; what Azure would refuse is refused before or by the fake.
 */
class FabricProvisionTest {
    static final String RG = VmProvisionerTest.RG;
    static final String SCALE_SET = "train-fabric";
    static final GoldenFiles GOLDEN = GoldenFiles.in("provision/fabric");

    @TempDir
    Path home;
    ArmFake arm;
    VmInventory inventory;
    List<String> probes = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        arm = new ArmFake();
        inventory = new VmInventory(home);
    }

    @AfterEach
    void stop() {
        arm.close();
    }

    VmProvisioner provisioner() {
        return VmProvisionerTest.provisioner(arm.connector(), inventory, probes);
    }

    static ProvisionRequest fabric(int count, String zone) {
        return VmProvisionerTest.request(count, Optional.empty(), false).withSharedFabric(true).withZone(zone);
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

    String scaleSetId() {
        return ArmFake.resourcePath(RG, "Microsoft.Compute/virtualMachineScaleSets", SCALE_SET);
    }

    @Test
    void theVmsOfAnRdmaPlanShareOneFlexibleScaleSetInOnePlacementGroupAndZone() {
        List<ProvisionedVm> vms = provisioner().up(fabric(2, "2"));

        JsonNode set = arm.requests("PUT", "/virtualMachineScaleSets/" + SCALE_SET).get(0).body();
        GOLDEN.assertMatches("scale-set.json", canonical(set));
        JsonNode vm = arm.requests("PUT", "/virtualMachines/train-1").get(0).body();
        GOLDEN.assertMatches("vm-in-scale-set.json", canonical(vm));
        for (String name : List.of("train-1", "train-2")) {
            JsonNode body = arm.requests("PUT", "/virtualMachines/" + name).get(0).body();
            assertTrue(scaleSetId().equalsIgnoreCase(body.path("properties").path("virtualMachineScaleSet")
                    .path("id").asText()), body.toString());
            assertEquals("[\"2\"]", body.path("zones").toString());
            JsonNode nic = arm.requests("PUT", "/networkInterfaces/" + name + "-nic").get(0).body();
            assertTrue(nic.path("properties").path("enableAcceleratedNetworking").asBoolean(), nic.toString());
        }
        assertEquals(List.of("train-1", "train-2"), arm.scaleSetMembers(scaleSetId()));
        assertTrue(vms.stream().allMatch(v -> v.vm().scaleSetId().filter(scaleSetId()::equalsIgnoreCase)
                .isPresent()));
        assertEquals(vms.get(0).vm().scaleSetId(), inventory.find("train-1").orElseThrow().scaleSetId());
        // The scale set is made before any VM, so that each VM joins it as it is created.
        int setPut = arm.requests().indexOf(arm.requests("PUT", "/virtualMachineScaleSets/" + SCALE_SET).get(0));
        int vmPut = arm.requests().indexOf(arm.requests("PUT", "/virtualMachines/train-1").get(0));
        assertTrue(setPut < vmPut);
    }

    @Test
    void aHigherCountJoinsTheSameScaleSetAndVmDownRemovesItWithItsLastVm() {
        provisioner().up(fabric(2, "1"));
        provisioner().up(fabric(3, "1"));

        assertEquals(1, arm.requests("PUT", "/virtualMachineScaleSets/" + SCALE_SET).size(), "created once");
        assertEquals(List.of("train-1", "train-2", "train-3"), arm.scaleSetMembers(scaleSetId()));
        assertEquals(1, arm.requests("PUT", "/virtualMachines/train-3").size());
        assertEquals(1, arm.requests("PUT", "/virtualMachines/train-1").size(), "train-1 was reused, not re-put");

        provisioner().down(List.of("train-3")); // a lower count: the others keep their fabric
        assertTrue(arm.exists(RG, "Microsoft.Compute/virtualMachineScaleSets", SCALE_SET));
        assertTrue(arm.requests("DELETE", "/virtualMachineScaleSets/" + SCALE_SET).isEmpty());
        assertEquals(List.of("train-1", "train-2"), arm.scaleSetMembers(scaleSetId()));

        provisioner().down(List.of("train-1", "train-2"));
        assertFalse(arm.exists(RG, "Microsoft.Compute/virtualMachineScaleSets", SCALE_SET));
        assertEquals(1, arm.requests("DELETE", "/virtualMachineScaleSets/" + SCALE_SET).size());
        int lastVmDelete = arm.requests().indexOf(arm.requests("DELETE", "/virtualMachines/train-2").get(0));
        int setDelete = arm.requests().indexOf(arm.requests("DELETE", "/virtualMachineScaleSets/" + SCALE_SET)
                .get(0));
        assertTrue(lastVmDelete < setDelete, "the scale set goes after its VMs");
        assertTrue(inventory.list().isEmpty());
    }

    @Test
    void aVmMadeOutsideTheScaleSetIsNotSilentlyCountedAsOnTheFabric() {
        provisioner().up(VmProvisionerTest.request(1, Optional.empty(), false));

        GantryException e = assertThrows(GantryException.class, () -> provisioner().up(fabric(2, "1")));

        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertTrue(e.getMessage().startsWith("VM train-1 already exists in no scale set, but the request puts its VMs"
                + " in scale set train-fabric so that they share one InfiniBand fabric; Azure adds a VM to a scale "
                + "set only when it creates it."), e.getMessage());
        assertTrue(arm.requests("PUT", "/virtualMachines/train-2").isEmpty(), "nothing more was created");
    }

    @Test
    void anotherZoneThanTheScaleSetsIsRefusedBeforeAnyVmIsCreated() {
        provisioner().up(fabric(1, "1"));

        GantryException e = assertThrows(GantryException.class, () -> provisioner().up(fabric(2, "3")));

        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals("scale set train-fabric is in zone 1, but the request asks for zone 3; a VM joins a scale set only "
                + "in its zones. Ask for zone 1, or remove its VMs with gantry vm down (which removes the scale set "
                + "with the last of them)", e.getMessage());
        assertTrue(arm.requests("PUT", "/virtualMachines/train-2").isEmpty());
    }

    @Test
    void azureRefusingAFullPlacementGroupIsReportedWithTheVmsThatDidComeUp() {
        provisioner().up(fabric(1, "1"));
        // 98 VMs Gantry does not know of fill the group to 99; the second VM of this request is the 101st.
        ObjectMapper json = new ObjectMapper();
        for (int i = 1; i <= 98; i++) {
            ObjectNode other = json.createObjectNode().put("name", "other-" + i)
                    .put("type", "Microsoft.Compute/virtualMachines").put("location", "eastus");
            other.putArray("zones").add("1");
            other.putObject("properties").putObject("virtualMachineScaleSet").put("id", scaleSetId());
            arm.seed(ArmFake.resourcePath(RG, "Microsoft.Compute/virtualMachines", "other-" + i), other);
        }

        GantryException e = assertThrows(GantryException.class, () -> provisioner().up(fabric(3, "1")));

        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertTrue(e.getMessage().contains("Azure answered 409 OperationNotAllowed while creating VM train-3: Scale set "
                + scaleSetId() + " is limited to a single placement group, which holds at most 100 VMs, and has 100."),
                e.getMessage());
        assertTrue(e.getMessage().contains("Already provisioned and recorded: train-1, train-2"), e.getMessage());
        assertFalse(arm.exists(RG, "Microsoft.Network/networkInterfaces", "train-3-nic"), "the refused VM's NIC went");
    }

    @Test
    void aScaleSetOfTheSameNameNotMadeByGantryIsNotUsed() {
        arm.seed(scaleSetId(), (ObjectNode) new ObjectMapper().createObjectNode().put("name", SCALE_SET)
                .put("location", "eastus").put("type", "Microsoft.Compute/virtualMachineScaleSets")
                .set("properties", new ObjectMapper().createObjectNode().put("orchestrationMode", "Flexible")
                        .put("singlePlacementGroup", true)));

        GantryException e = assertThrows(GantryException.class, () -> provisioner().up(fabric(2, "1")));

        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals("scale set train-fabric already exists in resource group gantry-rg and was not created by Gantry "
                + "(no gantry:managed tag); choose another name prefix", e.getMessage());
        assertTrue(arm.requests("PUT", "/virtualMachines/train-1").isEmpty());
    }
}
