package dev.gantry.hosts.container;

import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.ConfigKey;
import java.util.ArrayList;
import java.util.List;

/**
 * How the manual backend runs container images, bound from its configuration.
 *
 * @param runtime docker, podman, or none (images are refused)
 * @param binary the runtime's program: a name found on the host's PATH or an absolute path
 * @param globalOptions options placed before every subcommand ({@code podman --root DIR run ...}): storage
 *     locations, the OCI runtime, the cgroup manager
 * @param ulimits the {@code --ulimit} values of every container; a runtime drops its configured default ulimits once
 *     any is given, so a host that needs lower defaults lists them here
 * @param runOptions extra {@code run} options placed after Gantry's own, before the image
 */
public record ContainerSettings(ContainerRuntime runtime, String binary, List<String> globalOptions,
                                List<String> ulimits, List<String> runOptions) {
    public static final String RUNTIME = "containerRuntime";
    public static final String BINARY = "containerRuntimePath";
    public static final String GLOBAL_OPTIONS = "containerRuntimeOptions";
    public static final String ULIMITS = "containerUlimits";
    public static final String RUN_OPTIONS = "containerRunOptions";
    /** GPU jobs pin memory for device transfers (NCCL, RDMA): the default lock limit of 64 KiB-8 MiB is too low. */
    public static final List<String> DEFAULT_ULIMITS = List.of("memlock=-1:-1");

    public static final List<ConfigKey> KEYS = List.of(
            ConfigKey.optional(RUNTIME, "container runtime for workloads with an image: none, docker or podman",
                    "none"),
            ConfigKey.optional(BINARY, "the runtime's program, a name on PATH or an absolute path",
                    "<containerRuntime>"),
            ConfigKey.optional(GLOBAL_OPTIONS + "[*]", "options before every runtime subcommand, e.g. podman's "
                    + "--root, --runroot, --runtime, --cgroup-manager, --events-backend", ""),
            ConfigKey.optional(ULIMITS + "[*]", "--ulimit values of every container (replaces the default)",
                    "memlock=-1:-1"),
            ConfigKey.optional(RUN_OPTIONS + "[*]", "extra run options after Gantry's own, e.g. --network=none "
                    + "or --shm-size=16g", ""));

    public ContainerSettings {
        globalOptions = List.copyOf(globalOptions);
        ulimits = List.copyOf(ulimits);
        runOptions = List.copyOf(runOptions);
    }

    public static ContainerSettings none() {
        return new ContainerSettings(ContainerRuntime.NONE, "", List.of(), DEFAULT_ULIMITS, List.of());
    }

    public boolean enabled() {
        return runtime != ContainerRuntime.NONE;
    }

    public static ContainerSettings bind(BackendConfig config) {
        ContainerRuntime runtime = ContainerRuntime.fromConfig(
                config.getChoice(RUNTIME, "none", ContainerRuntime.NAMES));
        String binary = config.get(BINARY).map(String::trim)
                .orElse(runtime == ContainerRuntime.NONE ? "" : runtime.configName());
        if (runtime != ContainerRuntime.NONE && (binary.isEmpty() || binary.contains("/") && !binary.startsWith("/"))) {
            throw config.invalid(BINARY, "must be a program name on PATH (docker, podman) or an absolute path, got '"
                    + binary + "'");
        }
        boolean ulimitsGiven = config.values().keySet().stream()
                .anyMatch(k -> k.equals(ULIMITS) || k.startsWith(ULIMITS + "["));
        List<String> ulimits = ulimitsGiven ? config.getList(ULIMITS) : DEFAULT_ULIMITS;
        for (int i = 0; i < ulimits.size(); i++) {
            if (!ulimits.get(i).matches("[a-z]+=-?[0-9]+(:-?[0-9]+)?")) {
                throw config.invalid(ULIMITS + "[" + i + "]", "must be NAME=SOFT[:HARD] such as memlock=-1:-1 or "
                        + "nofile=1024:1024, got '" + ulimits.get(i) + "'");
            }
        }
        List<String> global = config.getList(GLOBAL_OPTIONS);
        List<String> run = config.getList(RUN_OPTIONS);
        if (runtime == ContainerRuntime.NONE && (!global.isEmpty() || !run.isEmpty() || config.get(BINARY).isPresent()
                || ulimitsGiven)) {
            throw config.invalid(RUNTIME, "is none, yet container runtime settings are given; set containerRuntime: "
                    + "docker or podman, or remove the container settings");
        }
        return new ContainerSettings(runtime, binary, global, ulimits, run);
    }

    /** The program and its global options: the start of every runtime command line. */
    List<String> prefix() {
        List<String> argv = new ArrayList<>();
        argv.add(binary);
        argv.addAll(globalOptions);
        return argv;
    }
}
