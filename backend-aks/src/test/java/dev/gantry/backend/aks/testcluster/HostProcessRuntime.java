package dev.gantry.backend.aks.testcluster;

import dev.gantry.testing.NamespaceProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Containers as real processes of this machine: the argv exactly as given (no shell between), the environment
 * replaced by the container's (plus the image's usual PATH, the user's HOME, and HOSTNAME), the working directory made if
 * missing (as runc does), stdout and stderr appended to the pod's log, and, for a node with a network namespace,
 * {@code ip netns exec NS} (which also bind-mounts {@code /etc/netns/NS/hosts}) and a UTS namespace whose hostname
 * is the pod's, all through test-support's {@link NamespaceProcess}: the container is a process group of its own,
 * killed whole. A program that cannot be found fails as containerd reports it.
 */
final class HostProcessRuntime implements ContainerRuntime {
    static final String DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

    @Override
    public boolean runs(String image) {
        return true;
    }

    @Override
    public Running start(Spec spec) throws StartError, IOException {
        if (spec.argv().isEmpty()) {
            throw new StartError(RuncMessages.createFailed("no command specified"));
        }
        String path = spec.environment().getOrDefault("PATH", DEFAULT_PATH);
        requireExecutable(spec.argv().get(0), path);
        Path workingDirectory = Path.of(spec.workingDirectory() == null || spec.workingDirectory().isEmpty() ? "/"
                : spec.workingDirectory());
        Map<String, String> environment = new HashMap<>();
        environment.put("PATH", DEFAULT_PATH);
        environment.put("HOME", System.getProperty("user.home"));
        environment.put("HOSTNAME", spec.hostname());
        environment.putAll(spec.environment());
        ProcessBuilder.Redirect log = ProcessBuilder.Redirect.appendTo(spec.logFile().toFile());
        NamespaceProcess started = NamespaceProcess.start(new NamespaceProcess.Spec(spec.slot().namespace(),
                spec.slot().isolated() ? spec.hostname() : "", spec.argv(), environment, workingDirectory, log, log));
        return new ProcessRunning(started);
    }

    /** As runc: a name with a slash must exist and be executable; a bare name must be found on the PATH. */
    private static void requireExecutable(String program, String path) throws StartError {
        if (program.contains("/")) {
            Path file = Path.of(program);
            if (!Files.exists(file)) {
                throw new StartError(RuncMessages.execFailed(program,
                        "stat " + program + ": no such file or directory"));
            }
            if (!Files.isExecutable(file) || Files.isDirectory(file)) {
                throw new StartError(RuncMessages.execFailed(program, "permission denied"));
            }
            return;
        }
        for (String dir : path.split(":")) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir).resolve(program);
            if (Files.isExecutable(candidate) && !Files.isDirectory(candidate)) {
                return;
            }
        }
        throw new StartError(RuncMessages.execFailed(program, "executable file not found in $PATH"));
    }
}
