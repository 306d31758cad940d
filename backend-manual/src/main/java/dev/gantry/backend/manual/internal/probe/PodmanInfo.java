package dev.gantry.backend.manual.internal.probe;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Parser for {@code podman info --format json}: {@code host.ociRuntime.name} (the runtime in use, e.g. {@code crun})
 * and {@code version.Version}. Podman has no daemon, so a failure here is a broken installation (e.g. storage or
 * runtime misconfigured), reported as UNREACHABLE with podman's first line.
 */
public final class PodmanInfo {
    private PodmanInfo() {
    }

    public static Parsed<ContainerEngine> parse(ProbeSection section) {
        if (section.notInstalled()) {
            return Parsed.of(ContainerEngine.notRunning("podman", ContainerEngine.State.ABSENT, "not installed"));
        }
        int start = section.body().indexOf('{');
        if (!section.succeeded() || start < 0) {
            return Parsed.of(ContainerEngine.notRunning("podman", ContainerEngine.State.UNREACHABLE,
                    section.succeeded() ? "no JSON in podman info" : section.failure()));
        }
        Object root;
        try {
            root = JsonReader.parse(section.body().substring(start));
        } catch (JsonReader.MalformedJson malformed) {
            return new Parsed<>(ContainerEngine.notRunning("podman", ContainerEngine.State.UNREACHABLE,
                    "unreadable podman info"), List.of(new ProbeProblem("podman-info", malformed.getMessage())));
        }
        Optional<String> runtime = text(path(root, "host", "ociRuntime", "name"));
        Optional<String> version = text(path(root, "version", "Version"));
        return Parsed.of(new ContainerEngine("podman", ContainerEngine.State.RUNNING, version,
                runtime.map(List::of).orElse(List.of()), runtime, ""));
    }

    static Object path(Object node, String... names) {
        Object current = node;
        for (String name : names) {
            if (!(current instanceof Map<?, ?> map)) {
                return null;
            }
            current = map.get(name);
        }
        return current;
    }

    private static Optional<String> text(Object value) {
        return value instanceof String s && !s.isBlank() ? Optional.of(s.strip()) : Optional.empty();
    }
}
