package dev.gantry.backend.manual.internal.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.ProvisionedHost;
import dev.gantry.backend.manual.ManualBackendProvider;
import dev.gantry.ssh.ClientIdentity;
import dev.gantry.ssh.HostKeyPolicy;
import dev.gantry.tck.TckContext;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The {@code provisioned} key: VMs Gantry provisioned as SSH hosts, bound beside {@code hosts[*]}. */
class ProvisionedReferencesTest {
    static final String KEY_A = "SHA256:cm3D27kl1vkmGd8jmQdvM5rcocvQIvjh7XtvlEzgVtI";
    static final String KEY_B = "SHA256:ikb4Lu+R+XbffMIxf2oxjDo6rVlS7W/QVIKK2gKlnPM";

    static final List<ProvisionedHost> VMS = List.of(
            new ProvisionedHost("train-1", "10.210.0.4", "azureuser", "Standard_NC24ads_A100_v4", "eastus", true,
                    List.of(KEY_A, KEY_B), Map.of("team", "nlp")),
            new ProvisionedHost("train-2", "20.51.0.10", "azureuser", "Standard_NC24ads_A100_v4", "eastus", false,
                    List.of(KEY_B), Map.of()),
            new ProvisionedHost("infer-1", "10.210.0.6", "ops", "Standard_D4s_v5", "westus3", false,
                    List.of(KEY_A), Map.of()));

    private final AtomicInteger reads = new AtomicInteger();

    private Inventory bind(Map<String, String> values, List<ProvisionedHost> vms) {
        Map<String, String> config = new TreeMap<>(Map.of("defaults.identityFile", "/keys/id_ed25519"));
        config.putAll(values);
        return Inventory.bind(new BackendConfig("manual", config), Optional.empty(), () -> {
            reads.incrementAndGet();
            return vms;
        });
    }

    private GantryException failure(Map<String, String> values, List<ProvisionedHost> vms) {
        GantryException e = assertThrows(GantryException.class, () -> bind(values, vms));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        return e;
    }

    @Test
    void aPatternBringsInEveryMatchingVmWithItsRecordAndTheDefaults() {
        Inventory inventory = bind(Map.of("provisioned[0]", "train-*", "defaults.workDir", "/mnt/jobs",
                "defaults.user", "ignored-for-vms", "defaults.knownHosts", "/etc/ssh/known_hosts",
                "defaults.labels[0]", "pool=a100", "defaults.connectTimeout", "3s"), VMS);

        assertEquals(List.of("train-1", "train-2"), inventory.hosts().stream().map(Inventory.InventoryHost::name)
                .toList());
        Inventory.InventoryHost first = inventory.hosts().get(0);
        assertEquals("10.210.0.4", first.target().host());
        assertEquals(22, first.target().port());
        assertEquals("azureuser", first.target().user(), "the VM's admin user, not defaults.user");
        assertEquals(ClientIdentity.keyFile(Path.of("/keys/id_ed25519")), first.target().identity());
        assertEquals(HostKeyPolicy.pinned(KEY_A, KEY_B), first.target().hostKeyPolicy(),
                "the recorded keys, not defaults.knownHosts");
        assertEquals(Optional.of("Standard_NC24ads_A100_v4"), first.vmSize());
        assertTrue(first.spot());
        assertEquals(Map.of("pool", "a100", "team", "nlp"), first.labels());
        assertEquals("/mnt/jobs", first.workDir());
        assertEquals(java.time.Duration.ofSeconds(3), first.target().connectTimeout());
        assertEquals("20.51.0.10", inventory.hosts().get(1).target().host(), "the public IP when there is one");
        assertEquals(false, inventory.hosts().get(1).spot());
        assertTrue(inventory.insecureHosts().isEmpty());
    }

    @Test
    void aScaleSetInstanceIsNamedAsAzureNamesIt() {
        List<ProvisionedHost> instances = List.of(new ProvisionedHost("ib-fabric_3", "10.210.0.9", "azureuser",
                "Standard_ND96isr_H100_v5", "eastus", false, List.of(KEY_A), Map.of()));

        Inventory inventory = bind(Map.of("provisioned[0]", "ib-fabric_3"), instances);

        assertEquals(List.of("ib-fabric_3"), inventory.hosts().stream().map(Inventory.InventoryHost::name).toList());
        assertEquals("10.210.0.9", inventory.hosts().get(0).target().host());
    }

    @Test
    void namesPatternsAndStarCombineWithHostsAndEachVmComesOnce() {
        Inventory inventory = bind(Map.of("hosts[0].address", "10.0.0.99", "hosts[0].user", "me",
                "hosts[0].hostKeyFingerprint", KEY_A, "provisioned[0]", "infer-1", "provisioned[1]", "*",
                "provisioned[2]", "TRAIN-1"), VMS);

        assertEquals(List.of("10.0.0.99", "infer-1", "train-1", "train-2"),
                inventory.hosts().stream().map(Inventory.InventoryHost::name).toList());
        assertEquals(List.of("infer-1", "train-2"), bind(Map.of("provisioned", "infer-1, train-2"), VMS).hosts()
                .stream().map(Inventory.InventoryHost::name).toList(), "one comma-separated value works too");
    }

    @Test
    void theInventoryIsReadOnlyWhenTheKeyIsGiven() {
        bind(Map.of("hosts[0].address", "10.0.0.99", "hosts[0].user", "me", "hosts[0].hostKeyFingerprint", KEY_A),
                VMS);
        assertEquals(0, reads.get(), "a damaged vms.json cannot break a backend that does not refer to it");
    }

    @Test
    void aNameThatMatchesNothingNamesTheKeyTheValueAndTheVmsThatExist() {
        GantryException e = failure(Map.of("provisioned[0]", "train-1", "provisioned[1]", "gpu-*"), VMS);

        assertEquals(List.of(Problem.of("backends.manual.provisioned[1]", "'gpu-*' matches no VM Gantry provisioned "
                + "(VMs: train-1, train-2, infer-1); name one of them, or list the host under hosts[*] instead")),
                e.problems());
        GantryException none = failure(Map.of("provisioned", "train-1"), List.of());
        assertTrue(none.getMessage().contains("backends.manual.provisioned: 'train-1' matches no VM Gantry "
                + "provisioned (there are none; create them with gantry vm up)"), none.getMessage());
    }

    @Test
    void aVmWithoutRecordedHostKeysIsRefusedNotTrustedOnFirstUse() {
        List<ProvisionedHost> old = List.of(new ProvisionedHost("old-1", "10.210.0.9", "azureuser", "s", "eastus",
                false, List.of(), Map.of()));

        GantryException e = failure(Map.of("provisioned[0]", "old-*"), old);

        assertEquals("backends.manual.provisioned[0]", e.problems().get(0).path());
        assertTrue(e.problems().get(0).message().startsWith("VM old-1 has no recorded host key (it was provisioned by "
                + "an older Gantry), so SSH to it cannot be verified; run gantry vm up again"), e.getMessage());
    }

    @Test
    void badReferencesBadDefaultsAndClashingNamesAreAllReportedAtOnce() {
        Map<String, String> config = new TreeMap<>(Map.of("provisioned[0]", "train 1", "provisioned[1]", "train-2",
                "hosts[0].address", "10.0.0.99", "hosts[0].name", "train-2", "hosts[0].user", "me",
                "hosts[0].hostKeyFingerprint", KEY_A, "hosts[0].identityFile", "/keys/other", "defaults.port", "ssh"));
        GantryException e = assertThrows(GantryException.class, () -> Inventory.bind(new BackendConfig("manual",
                config), Optional.empty(), () -> VMS));

        // Every host that takes the bad default reports it; provisioned VMs log in with defaults.* only.
        assertEquals(List.of("backends.manual.provisioned[0]", "backends.manual.defaults.port",
                "backends.manual.defaults.port", "backends.manual.provisioned[1].identityFile"), e.problems().stream().map(Problem::path).toList());
        assertTrue(e.problems().get(0).message().startsWith("'train 1' is not a VM name or pattern"), e.getMessage());

        config.remove("defaults.port");
        config.put("defaults.identityFile", "/keys/id");
        GantryException clash = assertThrows(GantryException.class, () -> Inventory.bind(new BackendConfig("manual",
                config), Optional.empty(), () -> VMS));
        assertEquals(List.of(Problem.of("backends.manual.provisioned[0]", "'train 1' is not a VM name or pattern; "
                + "use the VM names gantry vm list shows, a prefix pattern such as train-*, or *"),
                Problem.of("backends.manual.provisioned[1].name", "'train-2' names two hosts; give each host a "
                        + "distinct name (or address)")), clash.problems());
    }

    @Test
    void anEmptyListAndTheLocalTransportAreRefusedWithTheFix() {
        assertTrue(failure(Map.of("provisioned", ""), VMS).getMessage().contains("backends.manual.provisioned: is "
                + "empty; name VMs that gantry vm up created"));
        GantryException local = assertThrows(GantryException.class, () -> new ManualBackendProvider().create(
                new BackendConfig("manual", Map.of("provisioned[0]", "train-1")), TckContext.create()));
        assertEquals(ErrorCode.CONFIG_INVALID, local.code());
        assertEquals("backends.manual.provisioned: applies to transport: ssh (provisioned VMs are reached over SSH), "
                + "but transport is local; set transport: ssh", local.getMessage());
    }
}
