package org.example.gantry.podman.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.BackendConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PodmanSettingsTest {
    @Test
    void defaults() {
        PodmanSettings settings = PodmanSettings.bind(BackendConfig.empty("podman"));
        assertEquals(new PodmanSettings("podman", List.of(), List.of(), Optional.empty(), Duration.ofSeconds(10)),
                settings);
    }

    @Test
    void everyWrongSettingIsReportedAtOnceNamingTheKeyTheValueWhatIsAllowedAndTheFix() {
        GantryException e = assertThrows(GantryException.class, () -> PodmanSettings.bind(new BackendConfig("podman",
                Map.of("runOptions[0]", "--network=none", "runOptions[1]", "--rm", "defaultImage", "not an image",
                        "stopTimeout", "soon"))));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals(List.of(
                "backends.podman.runOptions[1]: '--rm' is set by the plugin for each job (allowed: any podman run"
                        + " option but " + String.join(", ", PodmanSettings.OWN_RUN_OPTIONS) + "); remove it",
                "backends.podman.defaultImage: must be an image reference such as docker.io/library/python:3.12,"
                        + " got 'not an image'; leave it out to run such workloads over the host's root",
                "backends.podman.stopTimeout: must be a duration such as 30s, 5m or 2h, got 'soon'"),
                e.problems().stream().map(Problem::toString).toList());
    }

    @Test
    void aStopTimeoutOutsideOneSecondToAnHourIsRefused() {
        GantryException e = assertThrows(GantryException.class, () -> PodmanSettings.bind(new BackendConfig("podman",
                Map.of("stopTimeout", "500ms"))));
        assertEquals("backends.podman.stopTimeout: must be between 1s and 1h, got '500ms'; it is how long a cancelled"
                + " job has to stop before it is killed", e.problems().get(0).toString());
    }
}
