package dev.gantry.backend.batch.fake;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Every node's processes on this machine: each process is started through {@code setsid}, so that it leads a
 * process group of its own, and a kill signals the whole group (what the command left in the background too), then
 * any descendant that left the group.
 */
public final class LocalNodeProcesses implements NodeProcesses {
    @Override
    public Handle start(String nodeId, List<String> argv, Map<String, String> environment, Path workingDirectory,
            Path stdout, Path stderr) throws IOException {
        List<String> command = new ArrayList<>();
        command.add("setsid");
        command.addAll(argv);
        ProcessBuilder builder = new ProcessBuilder(command).directory(workingDirectory.toFile())
                .redirectOutput(Redirect.appendTo(stdout.toFile())).redirectError(Redirect.appendTo(stderr.toFile()))
                .redirectInput(Redirect.from(new java.io.File("/dev/null")));
        builder.environment().clear();
        builder.environment().putAll(environment);
        Process process = builder.start();
        return new LocalHandle(process);
    }

    private record LocalHandle(Process process) implements Handle {
        @Override
        public CompletableFuture<Integer> exitCode() {
            return process.onExit().thenApply(Process::exitValue);
        }

        @Override
        public void kill() {
            List<ProcessHandle> descendants = process.descendants().toList();
            try {
                // setsid made the process a group leader: its pid is the group's id.
                new ProcessBuilder("kill", "-KILL", "--", "-" + process.pid()).redirectErrorStream(true)
                        .redirectOutput(Redirect.DISCARD).start().waitFor(5, TimeUnit.SECONDS);
            } catch (IOException e) {
                // the group is gone already, or kill is missing: the forcible destroys below still run
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            descendants.forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }
}
