package dev.gantry.backend.manual.internal.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.ssh.ClientIdentity;
import dev.gantry.ssh.HostKeyPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class InventoryTest {
    private static final String PIN = "SHA256:t1TmsEZS4vdjjS4sINzxFuOL7hEaKbSrbyEqQxX28p4";

    private static Inventory bind(Map<String, String> values) {
        return Inventory.bind(new BackendConfig("manual", values), Optional.empty());
    }

    private static GantryException failure(Map<String, String> values) {
        GantryException e = assertThrows(GantryException.class, () -> bind(values));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        return e;
    }

    @Test
    void hostsTakeWhatTheyLeaveOutFromDefaults() {
        Map<String, String> c = new TreeMap<>();
        c.put("defaults.user", "azureuser");
        c.put("defaults.identityFile", "/keys/id_ed25519");
        c.put("defaults.knownHosts", "/etc/gantry/known_hosts");
        c.put("defaults.labels[0]", "pool=a100");
        c.put("hosts[0].address", "10.0.0.4");
        c.put("hosts[0].port", "2222");
        c.put("hosts[0].labels[0]", "zone=1");
        c.put("hosts[0].vmSize", "Standard_NC24ads_A100_v4");
        c.put("hosts[0].spot", "true");
        c.put("hosts[1].name", "trainer-2");
        c.put("hosts[1].address", "node2.example.com");
        c.put("hosts[1].user", "ops");
        c.put("hosts[1].agent", "true");
        c.put("hosts[1].identityFile", "");
        c.put("hosts[1].hostKeyFingerprint", PIN);
        c.put("hosts[1].gpus", "4");
        c.put("hosts[1].workDir", "/data/jobs/");
        c.put("hosts[1].connectTimeout", "3s");
        c.put("masterPort", "29400");
        Inventory inventory = bind(c);
        assertEquals(29400, inventory.masterPort());
        Inventory.InventoryHost a = inventory.hosts().get(0);
        assertEquals("10.0.0.4", a.name());
        assertEquals("azureuser@10.0.0.4:2222", a.target().address());
        assertEquals(ClientIdentity.keyFile(Path.of("/keys/id_ed25519")), a.target().identity());
        assertEquals(HostKeyPolicy.knownHosts(Path.of("/etc/gantry/known_hosts")), a.target().hostKeyPolicy());
        assertEquals(Map.of("pool", "a100", "zone", "1"), a.labels());
        assertEquals(Optional.of("Standard_NC24ads_A100_v4"), a.vmSize());
        assertEquals(OptionalInt.empty(), a.gpus());
        assertEquals("/var/tmp/gantry-azureuser/jobs", a.workDir());
        assertTrue(a.spot());
        Inventory.InventoryHost b = inventory.hosts().get(1);
        assertEquals("trainer-2", b.name());
        assertEquals("ops@node2.example.com:22", b.target().address());
        assertEquals(ClientIdentity.agent(), b.target().identity());
        assertEquals(HostKeyPolicy.pinned(PIN), b.target().hostKeyPolicy());
        assertEquals(OptionalInt.of(4), b.gpus());
        assertEquals("/data/jobs", b.workDir());
        assertEquals(Duration.ofSeconds(3), b.target().connectTimeout());
        assertEquals(List.of(), inventory.insecureHosts());
    }

    @Test
    void everyProblemOfEveryHostIsNamedByItsExactKey() {
        Map<String, String> c = new TreeMap<>();
        c.put("hosts[0].address", "10.0.0.4");
        c.put("hosts[1].address", "10.0.0.5");
        c.put("hosts[1].port", "70000");
        c.put("hosts[1].user", "ops");
        c.put("hosts[1].identityFile", "/k");
        c.put("hosts[1].agent", "yes");
        c.put("hosts[1].hostKeyFingerprint", "MD5:aa");
        c.put("hosts[1].gpus", "-1");
        c.put("hosts[2].user", "ops");
        c.put("hosts[2].agent", "true");
        GantryException e = failure(c);
        assertEquals(List.of(
                "backends.manual.hosts[0].user: is required (here or as defaults.user): the login user, e.g. azureuser",
                "backends.manual.hosts[0].identityFile: is required (here or as defaults.identityFile), or set "
                        + "agent: true to use the keys in ssh-agent",
                "backends.manual.hosts[1].port: must be a TCP port from 1 to 65535, got '70000'",
                "backends.manual.hosts[1].agent: must be true or false, got 'yes'",
                "backends.manual.hosts[1].hostKeyFingerprint: 'MD5:aa' is not a SHA-256 host key fingerprint; give "
                        + "SHA256: and 43 base64 characters, as ssh-keygen -l -E sha256 -f KEY.pub prints it "
                        + "(several: comma-separated)",
                "backends.manual.hosts[1].gpus: must be a whole number from 0 to 64, got '-1'",
                "backends.manual.hosts[2].address: is required: the host's DNS name or IP address"),
                e.problems().stream().map(Problem::toString).toList());
    }

    @Test
    void aBadDefaultIsNamedAsTheDefault() {
        GantryException e = failure(Map.of("hosts[0].address", "h", "defaults.user", "u", "defaults.agent", "true",
                "defaults.port", "ssh"));
        assertEquals("backends.manual.defaults.port: must be a TCP port from 1 to 65535, got 'ssh'", e.getMessage());
    }

    @Test
    void oneWayToTrustAHostKeyAndOneIdentity() {
        GantryException e = failure(Map.of("hosts[0].address", "h", "hosts[0].user", "u",
                "hosts[0].identityFile", "/k", "hosts[0].agent", "true",
                "hosts[0].knownHosts", "/kh", "hosts[0].hostKeyFingerprint", PIN));
        assertEquals(List.of("backends.manual.hosts[0].identityFile", "backends.manual.hosts[0].hostKeyFingerprint"),
                e.problems().stream().map(Problem::path).toList());
    }

    @Test
    void noHostsIsAnError() {
        GantryException e = failure(Map.of("defaults.user", "u"));
        assertTrue(e.getMessage().startsWith("backends.manual.hosts: transport ssh needs at least one host"),
                e.getMessage());
    }

    @Test
    void twoHostsWithOneNameAreRefused() {
        GantryException e = failure(Map.of("defaults.user", "u", "defaults.agent", "true",
                "hosts[0].address", "10.0.0.4", "hosts[1].address", "10.0.0.4"));
        assertEquals("backends.manual.hosts[1].name: '10.0.0.4' names two hosts; give each host a distinct name "
                + "(or address)", e.getMessage());
    }

    @Test
    void acceptingAnyHostKeyIsExplicitAndListed() {
        Inventory inventory = bind(Map.of("defaults.user", "u", "defaults.agent", "true",
                "hosts[0].address", "10.0.0.4", "hosts[0].insecureAcceptAnyHostKey", "true"));
        assertEquals(HostKeyPolicy.INSECURE_ACCEPT_ANY_HOST_KEY, inventory.hosts().get(0).target().hostKeyPolicy());
        assertEquals(List.of("10.0.0.4"), inventory.insecureHosts());
    }

    @Test
    void everyKeyAHostAcceptsIsDeclared() {
        List<String> given = List.of("hosts[3].address", "hosts[3].name", "hosts[3].port", "hosts[3].user",
                "hosts[3].identityFile", "hosts[3].agent", "hosts[3].knownHosts", "hosts[3].hostKeyFingerprint",
                "hosts[3].insecureAcceptAnyHostKey", "hosts[3].labels[0]", "hosts[3].labels", "hosts[3].vmSize",
                "hosts[3].gpus", "hosts[3].workDir", "hosts[3].spot", "hosts[3].connectTimeout", "defaults.user",
                "defaults.labels[2]", "defaults.gpus", "masterPort");
        for (String key : given) {
            assertTrue(ManualSettings.KEYS.stream().anyMatch((ConfigKey k) -> k.matches(key)), key);
        }
        assertTrue(ManualSettings.KEYS.stream().noneMatch(k -> k.matches("defaults.address")),
                "an address belongs to one host");
    }
}
