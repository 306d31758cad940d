package org.example.gantry.podman.internal;

import dev.gantry.api.Checkpoint;
import dev.gantry.api.ContainerSpec;
import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Podman's command lines, as pure functions of the settings and the job. Each is an argv: every element reaches
 * podman as one argument, never through a shell, and no environment value is on it ({@link ContainerEnvironment}).
 */
public final class PodmanCommands {
    /** The label every job's container carries, its value the job's idempotency key: how a later process finds it. */
    public static final String JOB_LABEL = "org.example.gantry.podman.job";
    static final String NAME_PREFIX = "gantry-podman-";
    /** The host's root, copy-on-write: the job sees the host's programs, and what it writes there is discarded. */
    static final String HOST_ROOT_OVERLAY = "/:O";
    /** One line per container: the job label, the state, the exit code, started and exited (Unix seconds). */
    static final String LIST_FORMAT = "{{index .Labels \"" + JOB_LABEL + "\"}}\t{{.ListContainer.State}}"
            + "\t{{.ExitCode}}\t{{.StartedAt}}\t{{.ExitedAt}}";

    private PodmanCommands() {
    }

    /**
     * The container of a job: the key behind a prefix, so that it starts with a letter as podman requires and meets
     * no other backend's containers in a shared podman (the manual backend names its own gantry-ID).
     */
    public static String containerName(String key) {
        return NAME_PREFIX + key;
    }

    /**
     * {@code podman run --detach ...} for one job.
     *
     * @param key the job's idempotency key (also its id)
     * @param logFile where podman writes the job's output, in the CRI log format ({@link CriLog})
     * @param environment the job's variables, by name
     * @param envFile the env file of the names podman reads itself, when there are any
     * @param hostWorkingDirectory the working directory of a job over the host's root, mounted at the same path
     */
    public static List<String> run(PodmanSettings settings, Plan plan, String key, Path logFile,
                                   ContainerEnvironment environment, Optional<Path> envFile,
                                   Optional<String> hostWorkingDirectory) {
        Workload workload = plan.workload();
        Optional<String> image = workload.container().map(ContainerSpec::image).or(settings::defaultImage);
        List<String> argv = settings.prefix();
        argv.addAll(List.of("run", "--detach", "--name", containerName(key), "--label", JOB_LABEL + "=" + key,
                "--log-driver", "k8s-file", "--log-opt", "path=" + logFile,
                // podman passes the host's proxy variables to every container unless told not to: the job gets
                // exactly its own environment.
                "--http-proxy=false"));
        for (String name : environment.names()) {
            argv.add("--env");
            argv.add(name);
        }
        envFile.ifPresent(file -> {
            argv.add("--env-file");
            argv.add(file.toString());
        });
        for (String directory : mounts(workload, image.isEmpty(), hostWorkingDirectory)) {
            argv.add("--volume");
            argv.add(directory + ":" + directory);
        }
        workload.workingDir().or(() -> image.isEmpty() ? hostWorkingDirectory : Optional.empty()).ifPresent(dir -> {
            argv.add("--workdir");
            argv.add(dir);
        });
        argv.addAll(settings.runOptions());
        if (image.isPresent()) {
            argv.add(image.get());
        } else {
            argv.add("--rootfs");
            argv.add(HOST_ROOT_OVERLAY);
        }
        // "--" would be taken as the command here: podman stops reading options at the image (or --rootfs's value).
        argv.addAll(workload.command());
        return argv;
    }

    /**
     * The host directories a job sees at the same path, read-write: its checkpoint (a local path), and for a job over
     * the host's root its working directory, so that what it writes there outlives the container.
     */
    public static List<String> mounts(Workload workload, boolean overHostRoot, Optional<String> hostWorkingDirectory) {
        List<String> mounts = new ArrayList<>();
        if (overHostRoot) {
            workload.workingDir().or(() -> hostWorkingDirectory).ifPresent(mounts::add);
        }
        workload.checkpoint().map(Checkpoint::path).filter(path -> path.startsWith("/"))
                .filter(path -> !mounts.contains(path)).ifPresent(mounts::add);
        return mounts;
    }

    /** {@code podman ps --all} of every job's container: one call answers for all of them. */
    public static List<String> list(PodmanSettings settings) {
        List<String> argv = settings.prefix();
        argv.addAll(List.of("ps", "--all", "--no-trunc", "--filter", "label=" + JOB_LABEL, "--format", LIST_FORMAT));
        return argv;
    }

    /** {@code podman stop}: SIGTERM, then SIGKILL after the stop timeout. */
    public static List<String> stop(PodmanSettings settings, String key) {
        List<String> argv = settings.prefix();
        argv.addAll(List.of("stop", "--time", Long.toString(settings.stopTimeout().toSeconds()),
                containerName(key)));
        return argv;
    }

    /** {@code podman kill}: the job's processes end at once (an eviction takes the machine away). */
    public static List<String> kill(PodmanSettings settings, String key) {
        List<String> argv = settings.prefix();
        argv.addAll(List.of("kill", "--signal", "KILL", containerName(key)));
        return argv;
    }
}
