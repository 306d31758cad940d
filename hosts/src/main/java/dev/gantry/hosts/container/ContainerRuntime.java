package dev.gantry.hosts.container;

import java.util.List;
import java.util.Locale;

/**
 * The container runtime a host runs images with. The two engines take the same {@code run} options except for
 * NVIDIA GPUs (Docker's {@code --gpus} through the NVIDIA Container Toolkit hook, Podman's CDI devices) and forced
 * removal (Podman would first wait for its own stop timeout).
 */
public enum ContainerRuntime {
    /** Images cannot run; workloads run their argv directly. */
    NONE,
    DOCKER,
    PODMAN;

    public static final List<String> NAMES = List.of("none", "docker", "podman");

    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ContainerRuntime fromConfig(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }

    /** The arguments after the runtime's global options that remove a container now, running or not. */
    List<String> forceRemove(String containerName) {
        return switch (this) {
            // --time 0: kill at once (the job already had its grace period); --ignore: gone already is fine.
            case PODMAN -> List.of("rm", "--force", "--ignore", "--time", "0", containerName);
            case DOCKER -> List.of("rm", "--force", containerName);
            case NONE -> throw new IllegalStateException("no container runtime configured");
        };
    }
}
