package org.example.gantry.podman.internal;

import dev.gantry.api.ContainerSpec;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.api.backend.ConfigProblems;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The plugin's settings, bound once from {@code backends.podman.*}.
 *
 * @param program the podman program: a name looked up on PATH, or a path
 * @param podmanOptions options before podman's subcommand (storage root, runtime, cgroup manager)
 * @param runOptions options added to every {@code podman run} (network, ulimits)
 * @param defaultImage the image of workloads that name none; empty: they run over the host's root file system
 * @param stopTimeout how long a cancelled job has between SIGTERM and SIGKILL
 */
public record PodmanSettings(String program, List<String> podmanOptions, List<String> runOptions,
                             Optional<String> defaultImage, Duration stopTimeout) {
    static final String PROGRAM = "program";
    static final String PODMAN_OPTIONS = "podmanOptions";
    static final String RUN_OPTIONS = "runOptions";
    static final String DEFAULT_IMAGE = "defaultImage";
    static final String STOP_TIMEOUT = "stopTimeout";
    static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(10);
    /** Run options the plugin sets itself, per job: given again they would break its bookkeeping. */
    static final List<String> OWN_RUN_OPTIONS = List.of("--rm", "--name", "--label", "-l", "--detach", "-d",
            "--log-driver", "--log-opt", "--env", "-e", "--env-file", "--env-host", "--rootfs", "--workdir", "-w");

    public PodmanSettings {
        podmanOptions = List.copyOf(podmanOptions);
        runOptions = List.copyOf(runOptions);
    }

    /** Every key the plugin accepts, for {@code gantry backends --output json} and core's checks. */
    public static List<ConfigKey> keys() {
        return List.of(
                ConfigKey.optional(PROGRAM, "the podman program: a name on PATH or an absolute path", "podman"),
                ConfigKey.optional(PODMAN_OPTIONS + "[*]", "options before podman's subcommand, one per element"
                        + " (e.g. --root DIR, --runtime runc)", null),
                ConfigKey.optional(RUN_OPTIONS + "[*]", "options added to every podman run, one per element"
                        + " (e.g. --network=none, --ulimit=nofile=1024:1024)", null),
                ConfigKey.optional(DEFAULT_IMAGE, "the image of workloads that name none; unset: they run over"
                        + " the host's root file system (copy-on-write), seeing its programs", null),
                ConfigKey.optional(STOP_TIMEOUT, "how long a cancelled job has to stop before it is killed",
                        "10s"));
    }

    /** Binds the settings, reporting every wrong key at once (CONFIG_INVALID). */
    public static PodmanSettings bind(BackendConfig config) {
        ConfigProblems problems = new ConfigProblems(config);
        String program = config.getString(PROGRAM, "podman");
        if (program.isBlank()) {
            problems.add(PROGRAM, "must name the podman program, got an empty value; leave it out for 'podman'"
                    + " or give its path, such as /usr/bin/podman");
        }
        List<String> podmanOptions = config.getList(PODMAN_OPTIONS);
        List<String> runOptions = config.getList(RUN_OPTIONS);
        for (int i = 0; i < runOptions.size(); i++) {
            String option = runOptions.get(i);
            String name = option.contains("=") ? option.substring(0, option.indexOf('=')) : option;
            if (OWN_RUN_OPTIONS.contains(name)) {
                problems.add(RUN_OPTIONS + "[" + i + "]", "'" + option + "' is set by the plugin for each job"
                        + " (allowed: any podman run option but " + String.join(", ", OWN_RUN_OPTIONS)
                        + "); remove it");
            }
        }
        Optional<String> defaultImage = config.get(DEFAULT_IMAGE).filter(image -> !image.isBlank());
        defaultImage.filter(image -> !ContainerSpec.isValidImage(image)).ifPresent(image ->
                problems.add(DEFAULT_IMAGE, "must be an image reference such as docker.io/library/python:3.12,"
                        + " got '" + image + "'; leave it out to run such workloads over the host's root"));
        Duration stopTimeout = problems.read(() -> config.getDuration(STOP_TIMEOUT, DEFAULT_STOP_TIMEOUT),
                DEFAULT_STOP_TIMEOUT);
        if (stopTimeout.toSeconds() < 1 || stopTimeout.toSeconds() > 3600) {
            problems.add(STOP_TIMEOUT, "must be between 1s and 1h, got '" + config.values().get(STOP_TIMEOUT)
                    + "'; it is how long a cancelled job has to stop before it is killed");
        }
        problems.throwIfAny();
        return new PodmanSettings(program, podmanOptions, runOptions, defaultImage, stopTimeout);
    }

    /** {@code PROGRAM PODMAN-OPTIONS...}: the start of every podman command line. */
    List<String> prefix() {
        List<String> argv = new java.util.ArrayList<>();
        argv.add(program);
        argv.addAll(podmanOptions);
        return argv;
    }
}
