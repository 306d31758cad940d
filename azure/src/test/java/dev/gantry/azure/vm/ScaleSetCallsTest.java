package dev.gantry.azure.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.GantryException;
import dev.gantry.api.ImageRef;
import dev.gantry.azure.fakes.ArmFake;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The scale set calls of {@link ArmVms} through the real SDK against the fake Resource Manager: a capacity is a
 * target that adds or removes instances, each with its NIC (and public IP) read back in three list calls; instances
 * are deleted through the set, Run Command runs on one, and Azure's limits are refused as Azure refuses them.
 */
class ScaleSetCallsTest extends FabricNetworkFixture {
    ScaleSetBlueprint set(int capacity, boolean publicIp, String zone) {
        return new ScaleSetBlueprint(new VmBlueprint(RG, "eastus", "ib", "Standard_ND96isr_H100_v5",
                ImageRef.marketplace("Ubuntu HPC", "microsoft-dsvm:ubuntu-hpc:2204:latest"), "gantry",
                "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me", "#cloud-config\n",
                Optional.of(new VmBlueprint.Spot(true, java.math.BigDecimal.ONE.negate())), "unused", TAGS,
                Optional.empty(), Optional.of(zone)), capacity, publicIp, subnetId, null);
    }

    @Test
    void aCapacityIsATargetAndEachInstanceIsReadWithItsAddresses() {
        ScaleSetFacts created = arm.beginPutScaleSet(set(2, true, "1"), SCOPE).await();
        assertEquals(2, created.capacity());
        assertEquals(List.of("1"), created.zones());
        assertTrue(created.singlePlacementGroup());
        assertEquals("Uniform", created.orchestrationMode());
        assertEquals(Optional.of(created), arm.findScaleSet(RG, "ib", SCOPE));
        var spot = fake.requests("PUT", "/virtualMachineScaleSets/ib").get(0).body().path("properties")
                .path("virtualMachineProfile");
        assertEquals("Spot", spot.path("priority").asText());
        assertEquals("Delete", spot.path("evictionPolicy").asText());

        List<ScaleSetInstance> instances = arm.listInstances(RG, "ib", SCOPE);
        assertEquals(List.of("ib_0", "ib_1"), instances.stream().map(ScaleSetInstance::name).toList());
        for (ScaleSetInstance instance : instances) {
            assertEquals(Optional.of("running"), instance.powerState());
            assertTrue(instance.privateIp().startsWith("10.210.0."), instance.toString());
            assertTrue(instance.publicIp().isPresent(), instance.toString());
            assertTrue(instance.nicId().contains("/virtualMachines/" + instance.instanceId() + "/networkInterfaces/"));
            assertFalse(instance.osDiskId().isEmpty());
            assertEquals("gantry", instance.adminUser());
        }

        arm.beginPutScaleSet(set(3, true, "1"), SCOPE).await();
        assertEquals(List.of("ib_0", "ib_1", "ib_2"), fake.scaleSetInstances(created.id()));
        arm.deleteInstances(RG, "ib", List.of("0"), SCOPE);
        assertEquals(List.of("ib_1", "ib_2"), fake.scaleSetInstances(created.id()));
        assertEquals(2, arm.findScaleSet(RG, "ib", SCOPE).orElseThrow().capacity());

        List<String> messages = arm.beginRunShellScriptOnInstance(RG, "ib", "2", List.of("echo"), SCOPE).await();
        assertTrue(messages.get(0).contains(ArmFake.HOST_KEY_MARKER), messages.toString());

        arm.deleteScaleSet(RG, "ib", SCOPE);
        arm.deleteScaleSet(RG, "ib", SCOPE); // already gone: done
        assertEquals(Optional.empty(), arm.findScaleSet(RG, "ib", SCOPE));
        assertTrue(fake.scaleSetInstances(created.id()).isEmpty());
    }

    @Test
    void azureRefusesMoreThanAPlacementGroupHoldsAndAChangeOfZone() {
        GantryException big = assertThrows(GantryException.class,
                () -> arm.beginPutScaleSet(set(101, false, "1"), SCOPE).await());
        assertTrue(big.getMessage().contains("limited to a single placement group, of max size 100 virtual machines"),
                big.getMessage());

        arm.beginPutScaleSet(set(1, false, "1"), SCOPE).await();
        GantryException moved = assertThrows(GantryException.class,
                () -> arm.beginPutScaleSet(set(1, false, "2"), SCOPE).await());
        assertTrue(moved.getMessage().contains("The zones of scale set ib cannot be changed"), moved.getMessage());

        GantryException unknown = assertThrows(GantryException.class,
                () -> arm.deleteInstances(RG, "ib", List.of("7"), SCOPE));
        assertTrue(unknown.getMessage().contains("is not an active Virtual Machine Scale Set VM instanceId"),
                unknown.getMessage());
    }
}
