package dev.gantry.hosts.probe;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A container engine (Docker or Podman) as its {@code info} command reports it.
 *
 * @param name {@code docker} or {@code podman}
 * @param state whether it is installed and its daemon answered
 * @param version the server version, when it answered
 * @param runtimes the OCI runtimes it lists (Docker: every configured runtime; Podman: the one in use)
 * @param defaultRuntime the runtime containers get by default
 * @param detail why it is absent or unreachable, quoting the tool (empty when it answered)
 */
public record ContainerEngine(String name, State state, Optional<String> version, List<String> runtimes,
        Optional<String> defaultRuntime, String detail) {

    /** How far the engine got. */
    public enum State {
        /** Installed and answered. */
        RUNNING,
        /** Installed, but its daemon did not answer (not started, or no permission on the socket). */
        UNREACHABLE,
        /** Not installed. */
        ABSENT,
        /** Not probed (the output had no section for it). */
        UNKNOWN
    }

    public ContainerEngine {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(version, "version");
        runtimes = List.copyOf(runtimes);
        Objects.requireNonNull(defaultRuntime, "defaultRuntime");
        Objects.requireNonNull(detail, "detail");
    }

    public static ContainerEngine notRunning(String name, State state, String detail) {
        return new ContainerEngine(name, state, Optional.empty(), List.of(), Optional.empty(), detail);
    }

    /** True when the engine lists the NVIDIA runtime ({@code nvidia-ctk runtime configure} registers it). */
    public boolean listsNvidiaRuntime() {
        return runtimes.contains("nvidia");
    }
}
