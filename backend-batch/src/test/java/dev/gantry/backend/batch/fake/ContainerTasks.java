package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.testing.TestPodman;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Tasks with {@code containerSettings} run under Podman (the shared test Podman of scripts/setup-podman.sh), as Batch
 * runs them on a container pool: the command line through {@code /bin/sh -c} in the image, the node's root directory
 * mounted at the same path, the task's working directory as the container's, the node's network, and the task's
 * environment passed by name ({@code --env NAME}: Podman takes each value from its own environment, so no value is
 * on a command line). The task's {@code containerRunOptions} come before the image. A kill also removes the
 * container, which outlives its Podman client otherwise.
 */
final class ContainerTasks {
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private ContainerTasks() {
    }

    static List<String> argv(JsonNode settings, Map<String, String> environment, Path nodeRoot, Path workingDirectory,
            String commandLine, String name, List<String> network) {
        List<String> args = new ArrayList<>(List.of("run", "--rm", "--name", name, "--pull", "never"));
        args.addAll(network);
        args.addAll(List.of("--volume", nodeRoot + ":" + nodeRoot, "--workdir", workingDirectory.toString()));
        TestPodman.ulimits().forEach(limit -> args.addAll(List.of("--ulimit", limit)));
        for (String added : List.of("TERM", "container")) {
            args.addAll(List.of("--unsetenv", added));
        }
        environment.keySet().stream().filter(key -> !key.equals("PATH") && !key.equals("HOME"))
                .forEach(key -> args.addAll(List.of("--env", key)));
        String options = settings.path("containerRunOptions").asText("").strip();
        if (!options.isEmpty()) {
            args.addAll(List.of(options.split("\\s+")));
        }
        args.add(settings.get("imageName").asText());
        args.addAll(List.of("/bin/sh", "-c", commandLine));
        return TestPodman.command(args.toArray(String[]::new));
    }

    static String name(String nodeId, String taskId) {
        return "gantry-batch-" + nodeId + "-" + taskId.toLowerCase(java.util.Locale.ROOT) + "-"
                + SEQUENCE.incrementAndGet();
    }

    /** Prepares Podman once; a Podman that does not work fails the task with the reason and the fix. */
    static void prepare() throws IOException {
        try {
            TestPodman.prepare();
        } catch (IllegalStateException e) {
            throw new TaskLaunch.ResourceFileFailure("ContainerPreparationError", "the fake runs container tasks "
                    + "under Podman, which is not working: " + e.getMessage());
        }
    }

    /** The Podman client's handle, whose kill also removes the container. */
    record Handle(NodeProcesses.Handle client, String name) implements NodeProcesses.Handle {
        @Override
        public CompletableFuture<Integer> exitCode() {
            return client.exitCode();
        }

        @Override
        public void kill() {
            client.kill();
            TestPodman.podman("rm", "--force", "--time", "0", name);
        }
    }
}
