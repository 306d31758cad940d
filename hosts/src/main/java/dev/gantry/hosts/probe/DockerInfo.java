package dev.gantry.hosts.probe;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Parser for plain {@code docker info}: the {@code Server Version:}, {@code Runtimes:} and {@code Default Runtime:}
 * lines of the server part. When the client cannot reach the daemon, {@code docker info} prints the client part, then
 * an {@code ERROR:} line (or, in older releases, a bare {@code Cannot connect ...} / {@code permission denied ...}
 * line) and exits 1; the engine is then UNREACHABLE with that line as the reason.
 */
public final class DockerInfo {
    private DockerInfo() {
    }

    public static ContainerEngine parse(ProbeSection section) {
        if (section.notInstalled()) {
            return ContainerEngine.notRunning("docker", ContainerEngine.State.ABSENT, "not installed");
        }
        Optional<String> version = Optional.empty();
        List<String> runtimes = List.of();
        Optional<String> defaultRuntime = Optional.empty();
        String error = "";
        for (String raw : section.body().split("\n")) {
            String line = raw.strip();
            if (line.startsWith("Server Version:")) {
                version = nonEmpty(line.substring("Server Version:".length()));
            } else if (line.startsWith("Runtimes:")) {
                runtimes = Arrays.stream(line.substring("Runtimes:".length()).strip().split("\\s+"))
                        .filter(s -> !s.isEmpty()).toList();
            } else if (line.startsWith("Default Runtime:")) {
                defaultRuntime = nonEmpty(line.substring("Default Runtime:".length()));
            } else if (error.isEmpty() && (line.startsWith("ERROR:") || line.startsWith("Cannot connect")
                    || line.contains("permission denied"))) {
                error = line;
            }
        }
        if (version.isEmpty()) {
            String reason = !error.isEmpty() ? error : section.succeeded() ? "no 'Server Version:' in docker info"
                    : section.failure();
            return ContainerEngine.notRunning("docker", ContainerEngine.State.UNREACHABLE, reason);
        }
        return new ContainerEngine("docker", ContainerEngine.State.RUNNING, version, runtimes, defaultRuntime, "");
    }

    private static Optional<String> nonEmpty(String value) {
        String v = value.strip();
        return v.isEmpty() ? Optional.empty() : Optional.of(v);
    }
}
