package org.example.gantry.podman;

import dev.gantry.testing.TestPodman;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The plugin's settings for the shared test podman ({@link TestPodman}), and cleaning up after a test. */
final class PodmanTestSettings {
    private PodmanTestSettings() {
    }

    /** {@code backends.podman.*} for this machine's test podman: its options, the ulimits it allows, no network. */
    static Map<String, String> config() {
        Map<String, String> config = new LinkedHashMap<>();
        List<String> options = TestPodman.globalOptions();
        for (int i = 0; i < options.size(); i++) {
            config.put("podmanOptions[" + i + "]", options.get(i));
        }
        List<String> run = new ArrayList<>(List.of("--network=none"));
        TestPodman.ulimits().forEach(ulimit -> run.add("--ulimit=" + ulimit));
        for (int i = 0; i < run.size(); i++) {
            config.put("runOptions[" + i + "]", run.get(i));
        }
        config.put("stopTimeout", "2s");
        return config;
    }

    /** Removes every container whose name matches {@code regex}, running or not. */
    static void removeContainers(String regex) {
        String ids = TestPodman.podman("ps", "--all", "--quiet", "--filter", "name=" + regex).output();
        List<String> argv = new ArrayList<>(List.of("rm", "--force", "--time", "0"));
        ids.lines().filter(id -> !id.isBlank()).forEach(argv::add);
        if (argv.size() > 4) {
            TestPodman.podman(argv.toArray(String[]::new));
        }
    }
}
