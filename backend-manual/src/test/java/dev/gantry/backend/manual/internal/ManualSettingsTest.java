package dev.gantry.backend.manual.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.SecretRef;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.SecretResolver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ManualSettingsTest {
    /** Every accepted setting as the unknown-key message lists them (host keys by family). */
    private static final String SETTINGS = "transport, workDir, cancelGrace, containerRuntime, containerRuntimePath, containerRuntimeOptions[*], "
            + "containerUlimits[*], containerRunOptions[*], hosts[*].*, defaults.*, provisioned, masterPort, spot, vmName, "
            + "scheduledEvents.enabled, scheduledEvents.endpoint, scheduledEvents.acknowledge";
    private static final String MORE = SETTINGS.substring("transport, workDir, cancelGrace, ".length());
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
        assertEquals(new ManualSettings("local", STATE.resolve("jobs"), Duration.ofSeconds(10)), bind(Map.of()));
    }

    @Test
    void bindsEveryKey() {
        assertEquals(new ManualSettings("local", Path.of("/srv/jobs"), Duration.ofMillis(500)),
                bind(Map.of("transport", "local", "workDir", "/srv/jobs", "cancelGrace", "500ms")));
    }

    @Test
    void unknownKeyIsNamedWithTheNearestKey() {
        GantryException e = failure(Map.of("workdir", "/srv/jobs"));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals("backends.manual.workdir: is not a setting of the manual backend (settings: transport, workDir, "
                + "cancelGrace, " + MORE + "); did you mean 'workDir'?", e.getMessage());
    }

    @Test
    void unknownKeyFarFromAnyGetsNoSuggestion() {
        GantryException e = failure(Map.of("nodes[0].ip", "10.0.0.4"));
        assertEquals("backends.manual.nodes[0].ip: is not a setting of the manual backend (settings: "
                + SETTINGS + ")", e.getMessage());
    }

    @Test
    void everyUnknownKeyIsReported() {
        GantryException e = failure(Map.of("cancelgrace", "1s", "transprot", "local"));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals(java.util.List.of("backends.manual.cancelgrace", "backends.manual.transprot"),
                e.problems().stream().map(p -> p.path()).toList());
        assertEquals("backends.manual.transprot: is not a setting of the manual backend (settings: transport, "
                + "workDir, cancelGrace, " + MORE + "); did you mean 'transport'?",
                e.problems().get(1).toString());
    }

    @Test
    void sshTransportIsAcceptedWithItsHostKeys() {
        assertEquals("ssh", bind(Map.of("transport", "ssh", "hosts[0].address", "10.0.0.4",
                "hosts[0].labels[0]", "zone=1", "defaults.user", "azureuser")).transport());
    }

    @Test
    void aMistypedHostKeyGetsTheNearestHostKey() {
        GantryException e = failure(Map.of("hosts[1].adress", "10.0.0.4"));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals("backends.manual.hosts[1].adress: is not a setting of the manual backend (settings: "
                + SETTINGS + "); did you mean 'hosts[*].address'?",
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
    void relativeWorkDirIsRefused() {
        GantryException e = failure(Map.of("workDir", "jobs"));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals("backends.manual.workDir: must be an absolute path, got 'jobs'", e.getMessage());
    }
}
