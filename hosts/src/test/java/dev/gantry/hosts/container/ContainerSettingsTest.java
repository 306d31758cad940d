package dev.gantry.hosts.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.BackendConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContainerSettingsTest {
    private static ContainerSettings bind(Map<String, String> values) {
        return ContainerSettings.bind(new BackendConfig("manual", values));
    }

    private static GantryException invalid(Map<String, String> values) {
        GantryException e = assertThrows(GantryException.class, () -> bind(values));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        return e;
    }

    @Test
    void noRuntimeByDefault() {
        assertEquals(ContainerSettings.none(), bind(Map.of()));
    }

    @Test
    void podmanWithTheSandboxOptions() {
        ContainerSettings settings = bind(Map.of(
                "containerRuntime", "podman",
                "containerRuntimePath", "/usr/bin/podman",
                "containerRuntimeOptions[0]", "--root",
                "containerRuntimeOptions[1]", "/srv/podman",
                "containerRuntimeOptions[2]", "--runtime",
                "containerRuntimeOptions[3]", "runc",
                "containerUlimits[0]", "nofile=1024:1024",
                "containerUlimits[1]", "nproc=4096",
                "containerRunOptions[0]", "--network=none"));
        assertEquals(new ContainerSettings(ContainerRuntime.PODMAN, "/usr/bin/podman",
                List.of("--root", "/srv/podman", "--runtime", "runc"), List.of("nofile=1024:1024", "nproc=4096"),
                List.of("--network=none")), settings);
    }

    @Test
    void dockerFromPathWithTheDefaultMemlock() {
        assertEquals(new ContainerSettings(ContainerRuntime.DOCKER, "docker", List.of(), List.of("memlock=-1:-1"),
                List.of()), bind(Map.of("containerRuntime", "docker")));
    }

    @Test
    void anEmptyUlimitListPassesNone() {
        assertEquals(List.of(), bind(Map.of("containerRuntime", "podman", "containerUlimits", "")).ulimits());
    }

    @Test
    void unknownRuntimeNamesTheKeyAndTheChoices() {
        assertEquals("backends.manual.containerRuntime: must be one of none, docker, podman, got 'containerd'",
                invalid(Map.of("containerRuntime", "containerd")).getMessage());
    }

    @Test
    void aRelativeBinaryPathIsRefused() {
        assertEquals("backends.manual.containerRuntimePath: must be a program name on PATH (docker, podman) or an "
                        + "absolute path, got 'bin/podman'",
                invalid(Map.of("containerRuntime", "podman", "containerRuntimePath", "bin/podman")).getMessage());
    }

    @Test
    void aMalformedUlimitNamesItsElement() {
        assertEquals("backends.manual.containerUlimits[1]: must be NAME=SOFT[:HARD] such as memlock=-1:-1 or "
                        + "nofile=1024:1024, got 'nofile 1024'",
                invalid(Map.of("containerRuntime", "docker", "containerUlimits[0]", "memlock=-1",
                        "containerUlimits[1]", "nofile 1024")).getMessage());
    }

    @Test
    void runtimeOptionsWithoutARuntimeAreAMistake() {
        assertEquals("backends.manual.containerRuntime: is none, yet container runtime settings are given; set "
                        + "containerRuntime: docker or podman, or remove the container settings",
                invalid(Map.of("containerRuntimeOptions[0]", "--root")).getMessage());
    }
}
