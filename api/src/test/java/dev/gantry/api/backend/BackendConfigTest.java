package dev.gantry.api.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.SourceLocation;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BackendConfigTest {
    private static final SourceLocation PORT_AT = new SourceLocation("gantry.yaml", 7, 15);

    private static BackendConfig located() {
        return new BackendConfig("manual", Map.of("hosts[0].port", "99999", "hosts[0].address", "h1",
                "connectTimeout", "soon"), Map.of("hosts[0].port", PORT_AT,
                "connectTimeout", new SourceLocation("gantry.yaml", 3, 19)));
    }

    @Test
    void aLocatedKeyNamesItsFileLineAndColumn() {
        GantryException e = assertThrows(GantryException.class,
                () -> located().getInt("hosts[0].port", 22, 1, 65535));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals("gantry.yaml:7:15: backends.manual.hosts[0].port: must be between 1 and 65535, got 99999",
                e.getMessage());
        assertEquals(Optional.of(PORT_AT), e.problems().get(0).location());
    }

    @Test
    void aKeyNotReadFromAFileKeepsTheV1Message() {
        BackendConfig config = new BackendConfig("manual", Map.of("transport", "carrier-pigeon"));
        GantryException e = assertThrows(GantryException.class,
                () -> config.getChoice("transport", "local", java.util.List.of("local", "ssh")));
        assertEquals("backends.manual.transport: must be one of local, ssh, got 'carrier-pigeon'", e.getMessage());
    }

    @Test
    void aSubsetKeepsTheLocationsOfItsKeys() {
        BackendConfig host = located().subset("hosts[0]");
        assertEquals(Optional.of(PORT_AT), host.locationOf("port"));
        assertEquals(Optional.empty(), host.locationOf("address"));
        assertEquals("backends.manual.hosts[0].port", host.qualifiedKey("port"));
    }

    @Test
    void problemsAreCollectedAllAtOnceInOrder() {
        BackendConfig config = located();
        ConfigProblems problems = new ConfigProblems(config);
        int port = problems.read(() -> config.subset("hosts[0]").getInt("port", 22, 1, 65535), 22);
        Duration timeout = problems.read(() -> config.getDuration("connectTimeout", Duration.ofSeconds(10)),
                Duration.ZERO);
        problems.add("hosts[0].address", "is not reachable");
        assertEquals(22, port);
        assertEquals(Duration.ZERO, timeout);
        assertEquals(3, problems.problems().size());
        GantryException e = assertThrows(GantryException.class, problems::throwIfAny);
        assertEquals(String.join("\n",
                "gantry.yaml:7:15: backends.manual.hosts[0].port: must be between 1 and 65535, got 99999",
                "gantry.yaml:3:19: backends.manual.connectTimeout: must be a duration such as 30s, 5m or 2h, got "
                        + "'soon'",
                "backends.manual.hosts[0].address: is not reachable"), e.getMessage());
    }

    @Test
    void otherFailuresAreNotSwallowed() {
        ConfigProblems problems = new ConfigProblems(BackendConfig.empty("x"));
        assertThrows(GantryException.class, () -> problems.read(() -> {
            throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "down");
        }, null));
        assertTrue(problems.isEmpty());
        problems.throwIfAny();
    }
}
