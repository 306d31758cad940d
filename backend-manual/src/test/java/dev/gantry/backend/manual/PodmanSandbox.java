package dev.gantry.backend.manual;

import dev.gantry.testing.TestPodman;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The manual backend's settings for the shared test Podman ({@link TestPodman}): its global options, the ulimits a
 * restricted host allows, and no network namespace.
 */
public final class PodmanSandbox {
    private PodmanSandbox() {
    }

    /** The manual backend's settings for Podman here, plus the given ones. */
    public static Map<String, String> config(Map<String, String> extra) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("containerRuntime", "podman");
        List<String> options = TestPodman.globalOptions();
        for (int i = 0; i < options.size(); i++) {
            config.put("containerRuntimeOptions[" + i + "]", options.get(i));
        }
        List<String> ulimits = TestPodman.ulimits();
        for (int i = 0; i < ulimits.size(); i++) {
            config.put("containerUlimits[" + i + "]", ulimits.get(i));
        }
        config.put("containerRunOptions[0]", "--network=none");
        config.putAll(extra);
        return config;
    }
}
