package dev.gantry.backend.manual.internal.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.SecretRef;
import dev.gantry.api.SourceLocation;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.SecretResolver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ManualSettingsTest {
    /** Every accepted setting as the unknown-key message lists them (host keys by family). */
    private static final Path STATE = Path.of("/var/lib/gantry-test/manual");
    private static final BackendContext CONTEXT = new BackendContext() {
        @Override
        public Path stateDirectory() {
            return STATE;
        }

        @Override
        public SecretResolver secrets() {
            return (SecretRef ref) -> {
                throw new AssertionError("settings resolve no secrets");
            };
        }
    };

    private static ManualSettings bind(Map<String, String> values) {
        return ManualSettings.bind(new BackendConfig("manual", values), CONTEXT);
    }

    private static GantryException failure(Map<String, String> values) {
        return assertThrows(GantryException.class, () -> bind(values));
    }

    @Test
    void defaults() {
        assertEquals(ManualSettings.local(STATE.resolve("jobs"), Duration.ofSeconds(10)), bind(Map.of()));
    }

    @Test
    void bindsEveryKey() {
        assertEquals(ManualSettings.local(Path.of("/srv/jobs"), Duration.ofMillis(500)),
                bind(Map.of("transport", "local", "workDir", "/srv/jobs", "cancelGrace", "500ms")));
    }

    @Test
    void unknownKeyIsNamedWithTheNearestKey() {
        GantryException e = failure(Map.of("workdir", "/srv/jobs"));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals("backends.manual.workdir: unknown setting; did you mean 'workDir'?", e.getMessage());
    }

    @Test
    void unknownKeyFarFromAnyGetsNoSuggestion() {
        GantryException e = failure(Map.of("nodes[0].ip", "10.0.0.4"));
        assertEquals("backends.manual.nodes[0].ip: unknown setting; 'gantry backends --output json' lists the keys "
                + "manual accepts", e.getMessage());
    }

    @Test
    void everyUnknownKeyIsReported() {
        GantryException e = failure(Map.of("cancelgrace", "1s", "transprot", "local"));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals(java.util.List.of("backends.manual.cancelgrace", "backends.manual.transprot"),
                e.problems().stream().map(p -> p.path()).toList());
        assertEquals("backends.manual.transprot: unknown setting; did you mean 'transport'?",
                e.problems().get(1).toString());
    }

    @Test
    void sshTransportIsAcceptedWithItsHostKeys() {
        ManualSettings ssh = bind(Map.of("transport", "ssh", "hosts[0].address", "10.0.0.4",
                "hosts[0].labels[0]", "zone=1", "defaults.user", "azureuser", "defaults.agent", "true",
                "defaults.insecureAcceptAnyHostKey", "true"));
        assertEquals(ManualSettings.Transport.SSH, ssh.transport());
        assertEquals(List.of("10.0.0.4"), ssh.inventory().orElseThrow().hosts().stream()
                .map(Inventory.InventoryHost::name).toList());
    }

    @Test
    void aMistypedHostKeyGetsTheNearestHostKey() {
        GantryException e = failure(Map.of("hosts[1].adress", "10.0.0.4"));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals("backends.manual.hosts[1].adress: unknown setting; did you mean 'hosts[*].address'?",
                e.getMessage());
    }

    @Test
    void unknownTransportListsTheChoices() {
        GantryException e = failure(Map.of("transport", "docker"));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals("backends.manual.transport: must be one of local, ssh, got 'docker'", e.getMessage());
    }

    @Test
    void badGraceIsNamed() {
        GantryException e = failure(Map.of("cancelGrace", "ten seconds"));
        assertEquals("backends.manual.cancelGrace: must be a duration such as 30s, 5m or 2h, got 'ten seconds'",
                e.getMessage());
    }

    @Test
    void everyProblemIsReportedAtOnceWhereItWasWritten() {
        Map<String, SourceLocation> at = Map.of("workDir", new SourceLocation("gantry.yaml", 4, 14),
                "cancelGrace", new SourceLocation("gantry.yaml", 5, 18),
                "transprot", new SourceLocation("gantry.yaml", 6, 5));
        GantryException e = assertThrows(GantryException.class, () -> ManualSettings.bind(new BackendConfig("manual",
                Map.of("workDir", "jobs", "cancelGrace", "soon", "transprot", "ssh"), at), CONTEXT));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals(List.of(
                "gantry.yaml:6:5: backends.manual.transprot: unknown setting; did you mean 'transport'?",
                "gantry.yaml:4:14: backends.manual.workDir: must be an absolute path, got 'jobs'",
                "gantry.yaml:5:18: backends.manual.cancelGrace: must be a duration such as 30s, 5m or 2h, got 'soon'"),
                e.problems().stream().map(Problem::toString).toList());
    }

    @Test
    void aHostsLeftOutLoginKeysAreReportedWithEveryOtherProblemAtTheHostThatShouldHoldThem() {
        Map<String, SourceLocation> at = Map.of("", new SourceLocation("gantry.yaml", 3, 5),
                "cancelGrace", new SourceLocation("gantry.yaml", 4, 18),
                "hosts", new SourceLocation("gantry.yaml", 6, 7),
                "hosts[0]", new SourceLocation("gantry.yaml", 6, 9),
                "hosts[0].address", new SourceLocation("gantry.yaml", 6, 18),
                "hosts[0].port", new SourceLocation("gantry.yaml", 7, 15));
        GantryException e = assertThrows(GantryException.class, () -> ManualSettings.bind(new BackendConfig("manual",
                Map.of("transport", "ssh", "cancelGrace", "soon", "hosts[0].address", "10.0.0.4",
                        "hosts[0].port", "0"), at), CONTEXT));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals(List.of(
                "gantry.yaml:4:18: backends.manual.cancelGrace: must be a duration such as 30s, 5m or 2h, got 'soon'",
                "gantry.yaml:7:15: backends.manual.hosts[0].port: must be a TCP port from 1 to 65535, got '0'",
                "gantry.yaml:6:9: backends.manual.hosts[0].user: is required (here or as defaults.user): the login "
                        + "user, e.g. azureuser",
                "gantry.yaml:6:9: backends.manual.hosts[0].identityFile: is required (here or as "
                        + "defaults.identityFile), or set agent: true to use the keys in ssh-agent"),
                e.problems().stream().map(Problem::toString).toList());
    }

    @Test
    void relativeWorkDirIsRefused() {
        GantryException e = failure(Map.of("workDir", "jobs"));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals("backends.manual.workDir: must be an absolute path, got 'jobs'", e.getMessage());
    }
}
