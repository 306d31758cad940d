package dev.gantry.hosts.probe;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.hosts.json.internal.Json;
import java.util.List;
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
        JsonNode root;
        try {
            root = Json.parse(section.body().substring(start));
        } catch (Json.MalformedJson malformed) {
            return new Parsed<>(ContainerEngine.notRunning("podman", ContainerEngine.State.UNREACHABLE,
                    "unreadable podman info"), List.of(new ProbeProblem("podman-info", malformed.getMessage())));
        }
        Optional<String> runtime = text(root.path("host").path("ociRuntime").path("name"));
        Optional<String> version = text(root.path("version").path("Version"));
        return Parsed.of(new ContainerEngine("podman", ContainerEngine.State.RUNNING, version,
                runtime.map(List::of).orElse(List.of()), runtime, ""));
    }

    private static Optional<String> text(JsonNode value) {
        return value.isTextual() && !value.textValue().isBlank() ? Optional.of(value.textValue().strip())
                : Optional.empty();
    }
}
