package dev.gantry.runs.provision;

import dev.gantry.model.VmInventoryEntry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.azure.fakes.ArmFake;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VmInventoryTest {
    @TempDir
    Path home;

    static VmInventoryEntry entry(String name, Optional<String> publicIp) {
        String group = "/subscriptions/" + ArmFake.SUBSCRIPTION + "/resourceGroups/rg/providers/";
        return new VmInventoryEntry(name, group + "Microsoft.Compute/virtualMachines/" + name, "rg", "eastus",
                "Standard_NC24ads_A100_v4", "gantry", "10.210.0.4", publicIp, true,
                Instant.parse("2026-11-29T12:00:00Z"), group + "Microsoft.Network/networkInterfaces/" + name + "-nic",
                publicIp.map(ip -> group + "Microsoft.Network/publicIPAddresses/" + name + "-ip"),
                group + "Microsoft.Compute/disks/" + name + "-osdisk");
    }

    @Test
    void entriesSurviveAReopenAndReplaceByName() {
        VmInventory inventory = new VmInventory(home.resolve("state"));
        inventory.put(entry("b-1", Optional.empty()));
        inventory.put(entry("a-1", Optional.of("20.1.2.3")));
        inventory.put(entry("b-1", Optional.of("20.1.2.4")));

        VmInventory reopened = new VmInventory(home.resolve("state"));
        assertEquals(List.of(entry("a-1", Optional.of("20.1.2.3")), entry("b-1", Optional.of("20.1.2.4"))),
                reopened.list());
        assertEquals(ArmFake.SUBSCRIPTION, reopened.find("a-1").orElseThrow().subscriptionId());
        assertEquals("gantry@20.1.2.3", reopened.find("a-1").orElseThrow().sshTarget());
        assertEquals("gantry@10.210.0.4", entry("c-1", Optional.empty()).sshTarget());

        reopened.remove("a-1");
        reopened.remove("never-there");
        assertEquals(List.of("b-1"), inventory.list().stream().map(VmInventoryEntry::name).toList());
    }

    @Test
    void writesLeaveNoTemporaryFilesBehind() throws Exception {
        VmInventory inventory = new VmInventory(home);
        inventory.put(entry("a-1", Optional.empty()));
        inventory.put(entry("a-2", Optional.empty()));

        try (Stream<Path> files = Files.list(home)) {
            assertEquals(List.of("vms.json", "vms.json.lock"), files.map(p -> p.getFileName().toString()).sorted()
                    .toList());
        }
        assertTrue(Files.readString(home.resolve("vms.json")).contains("\"privateIp\" : \"10.210.0.4\""));
    }

    @Test
    void aDamagedInventoryNamesEveryBadEntryAndTheFile() throws Exception {
        Files.writeString(home.resolve("vms.json"), "{\"version\":1,\"vms\":[{\"name\":\"a-1\"},"
                + "{\"name\":\"a-2\",\"resourceId\":\"x\",\"resourceGroup\":\"rg\",\"region\":\"eastus\","
                + "\"vmSize\":\"s\",\"adminUser\":\"u\",\"privateIp\":\"10.0.0.1\",\"createdAt\":\"yesterday\","
                + "\"nicId\":\"n\",\"osDiskId\":\"d\"}]}");

        GantryException e = assertThrows(GantryException.class, () -> new VmInventory(home).list());

        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals(List.of("vms[0].resourceId", "vms[0].resourceGroup", "vms[0].region", "vms[0].vmSize",
                "vms[0].adminUser", "vms[0].privateIp", "vms[0].createdAt", "vms[0].nicId", "vms[0].osDiskId",
                "vms[1].createdAt"), e.problems().stream().map(Problem::path).toList());
        assertTrue(e.getMessage().contains("'yesterday' is not an ISO-8601 instant (in " + home.resolve("vms.json")));
    }

    @Test
    void invalidJsonIsReportedNotSwallowed() throws Exception {
        Files.writeString(home.resolve("vms.json"), "{\"vms\": [");

        GantryException e = assertThrows(GantryException.class, () -> new VmInventory(home).find("a"));

        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertTrue(e.getMessage().startsWith("is not valid JSON"), e.getMessage());
    }

    @Test
    void hostKeysAndLabelsSurviveAReopenAndAnOlderFileWithoutThemStillReads() throws Exception {
        VmInventory inventory = new VmInventory(home);
        VmInventoryEntry pinned = new VmInventoryEntry("a-1", "/subscriptions/s/x", "rg", "eastus", "size", "gantry",
                "10.0.0.1", Optional.empty(), false, Instant.parse("2026-11-29T12:00:00Z"), "n", Optional.empty(), "d",
                List.of("SHA256:cm3D27kl1vkmGd8jmQdvM5rcocvQIvjh7XtvlEzgVtI"), java.util.Map.of("team", "nlp"));
        inventory.put(pinned);
        assertEquals(List.of(pinned), new VmInventory(home).list());
        VmInventoryEntry inSet = new VmInventoryEntry("a-3", "/subscriptions/s/y", "rg", "eastus", "size",
                "gantry", "10.0.0.3", Optional.empty(), false, Instant.parse("2026-11-29T12:00:00Z"), "n",
                Optional.empty(), "d", List.of(), java.util.Map.of(), Optional.of("/subscriptions/s/resourceGroups/rg/"
                        + "providers/Microsoft.Compute/availabilitySets/a-fabric"));
        inventory.put(inSet);
        assertEquals(inSet.availabilitySetId(), new VmInventory(home).find("a-3").orElseThrow().availabilitySetId());
        assertEquals(Optional.empty(), new VmInventory(home).find("a-1").orElseThrow().availabilitySetId());
        assertEquals(List.of("SHA256:cm3D27kl1vkmGd8jmQdvM5rcocvQIvjh7XtvlEzgVtI"),
                new VmInventory(home).find("a-1").orElseThrow().asProvisionedHost().hostKeyFingerprints());

        // Written by the version before host keys were captured.
        Files.writeString(home.resolve("vms.json"), "{\"version\":1,\"vms\":[{\"name\":\"a-2\",\"resourceId\":\"x\","
                + "\"resourceGroup\":\"rg\",\"region\":\"eastus\",\"vmSize\":\"s\",\"adminUser\":\"u\","
                + "\"privateIp\":\"10.0.0.1\",\"spot\":true,\"createdAt\":\"2026-11-29T12:00:00Z\",\"nicId\":\"n\","
                + "\"osDiskId\":\"d\"}]}");
        VmInventoryEntry old = new VmInventory(home).find("a-2").orElseThrow();
        assertFalse(old.hostKeyPinned());
        assertEquals(java.util.Map.of(), old.labels());
        assertEquals(Optional.empty(), old.availabilitySetId());
        assertEquals(Optional.empty(), old.scaleSetId());
        assertTrue(old.spot());
    }

    @Test
    void aScaleSetInstanceKeepsItsSetAcrossAReopen() throws Exception {
        VmInventory inventory = new VmInventory(home);
        String set = "/subscriptions/" + ArmFake.SUBSCRIPTION + "/resourceGroups/rg/providers/Microsoft.Compute/"
                + "virtualMachineScaleSets/ib-fabric";
        VmInventoryEntry instance = new VmInventoryEntry("ib-fabric_0", set + "/virtualMachines/0", "rg", "eastus",
                "Standard_ND96isr_H100_v5", "gantry", "10.0.0.5", Optional.empty(), false,
                Instant.parse("2026-11-29T12:00:00Z"), set + "/virtualMachines/0/networkInterfaces/nic1",
                Optional.empty(), "d", List.of("SHA256:cm3D27kl1vkmGd8jmQdvM5rcocvQIvjh7XtvlEzgVtI"),
                java.util.Map.of(), Optional.empty(), Optional.of(set));

        inventory.put(instance);

        assertEquals(List.of(instance), new VmInventory(home).list());
        assertTrue(Files.readString(home.resolve("vms.json")).contains("\"scaleSetId\" : \"" + set + "\""));
        assertEquals(ArmFake.SUBSCRIPTION, instance.subscriptionId());
        assertEquals(instance.withHostKeyFingerprints(List.of()).scaleSetId(), Optional.of(set),
                "a copy keeps its set");
    }

    @Test
    void aFingerprintThatIsNotOneIsNamedWithItsEntry() throws Exception {
        Files.writeString(home.resolve("vms.json"), "{\"version\":1,\"vms\":[{\"name\":\"a-2\",\"resourceId\":\"x\","
                + "\"resourceGroup\":\"rg\",\"region\":\"eastus\",\"vmSize\":\"s\",\"adminUser\":\"u\","
                + "\"privateIp\":\"10.0.0.1\",\"createdAt\":\"2026-11-29T12:00:00Z\",\"nicId\":\"n\","
                + "\"osDiskId\":\"d\",\"hostKeyFingerprints\":[\"MD5:aa:bb\"]}]}");

        GantryException e = assertThrows(GantryException.class, () -> new VmInventory(home).list());

        assertEquals(List.of("vms[0].hostKeyFingerprints[0]"), e.problems().stream().map(Problem::path).toList());
        assertTrue(e.getMessage().contains("'MD5:aa:bb' is not a SHA-256 host key fingerprint"), e.getMessage());
    }
}
