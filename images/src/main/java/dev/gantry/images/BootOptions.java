package dev.gantry.images;

import dev.gantry.api.ContainerSpec;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How a node boots: its role, container runtime, monitoring, the user's own boot commands and where the readiness
 * marker goes. Takes no secret values: a boot command that needs a secret must fetch it at run time (managed
 * identity and Key Vault), never receive it here. Invalid options fail with every problem, under {@code boot.*}.
 *
 * @param role what the node is for
 * @param containerRuntime the container engine to make ready (with GPU support when the plan has GPUs)
 * @param monitoring agents to start
 * @param userCommands extra boot commands, each an argv list run without a shell, after Gantry's own steps
 * @param environment variables set for the user commands only
 * @param markerPath absolute path of the readiness marker
 * @param dcgmExporterImage the DCGM exporter container image (already rewritten for a mirror, if any)
 * @param containerImage the workload image to pre-pull (already resolved), overriding the plan's
 */
public record BootOptions(
        Role role,
        ContainerRuntime containerRuntime,
        Set<MonitoringAgent> monitoring,
        List<List<String>> userCommands,
        Map<String, String> environment,
        String markerPath,
        String dcgmExporterImage,
        Optional<String> containerImage) {

    public static final String DEFAULT_MARKER_PATH = "/var/lib/gantry/ready.json";
    public static final String DEFAULT_DCGM_EXPORTER_IMAGE = "nvcr.io/nvidia/k8s/dcgm-exporter:3.3.8-3.6.0-ubuntu22.04";
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** What the node is for. */
    public enum Role {
        /** A VM that runs the job itself. */
        PLAIN_VM,
        /** A Slurm compute node: gets Enroot and Pyxis so that {@code srun --container-image} works. */
        SLURM_NODE
    }

    /** The container engine a node runs jobs with. */
    public enum ContainerRuntime {
        DOCKER,
        PODMAN,
        NONE
    }

    /** Monitoring agents the boot script can start. */
    public enum MonitoringAgent {
        /** NVIDIA DCGM exporter, GPU metrics for Prometheus on port 9400 (NVIDIA GPUs only). */
        DCGM_EXPORTER,
        /** Prometheus node exporter, host metrics on port 9100. */
        NODE_EXPORTER
    }

    public BootOptions {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(containerRuntime, "containerRuntime");
        Objects.requireNonNull(markerPath, "markerPath");
        Objects.requireNonNull(dcgmExporterImage, "dcgmExporterImage");
        Objects.requireNonNull(containerImage, "containerImage");
        monitoring = monitoring.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(monitoring));
        List<List<String>> commands = new ArrayList<>();
        for (List<String> argv : userCommands) {
            commands.add(List.copyOf(argv));
        }
        userCommands = List.copyOf(commands);
        environment = Collections.unmodifiableMap(new LinkedHashMap<>(environment));

        List<Problem> problems = new ArrayList<>();
        if (!markerPath.startsWith("/") || markerPath.endsWith("/") || List.of(markerPath.split("/")).contains("..")) {
            problems.add(Problem.of("boot.markerPath", "must be an absolute file path without '..', got '"
                    + markerPath + "' (default " + DEFAULT_MARKER_PATH + ")"));
        }
        checkText(problems, "boot.markerPath", markerPath);
        for (int i = 0; i < userCommands.size(); i++) {
            List<String> argv = userCommands.get(i);
            String path = "boot.commands[" + i + "]";
            if (argv.isEmpty()) {
                problems.add(Problem.of(path, "must list the program and its arguments, got an empty list "
                        + "(for example [apt-get, install, -y, htop])"));
                continue;
            }
            if (argv.get(0).isEmpty()) {
                problems.add(Problem.of(path + "[0]", "the program name must not be empty"));
            } else if (argv.get(0).contains("=") && !environment.isEmpty()) {
                problems.add(Problem.of(path + "[0]", "a program name containing '=' would be read as a variable "
                        + "assignment when boot environment variables are set, got '" + argv.get(0) + "'"));
            }
            for (int j = 0; j < argv.size(); j++) {
                checkText(problems, path + "[" + j + "]", argv.get(j));
            }
        }
        environment.forEach((name, value) -> {
            if (!ENV_NAME.matcher(name).matches()) {
                problems.add(Problem.of("boot.environment." + name, "names must be letters, digits and '_', not "
                        + "starting with a digit, got '" + name + "'"));
            }
            checkText(problems, "boot.environment." + name, value);
        });
        if (!ContainerSpec.isValidImage(dcgmExporterImage)) {
            problems.add(Problem.of("boot.dcgmExporterImage", "must be [registry/]repository[:tag|@digest], got '"
                    + dcgmExporterImage + "'"));
        }
        containerImage.ifPresent(image -> {
            if (!ContainerSpec.isValidImage(image)) {
                problems.add(Problem.of("boot.containerImage", "must be [registry/]repository[:tag|@digest], got '"
                        + image + "'"));
            }
        });
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
        }
    }

    /** A plain VM with Docker, no monitoring, no user commands and the default marker path. */
    public static BootOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** NUL cannot pass through argv, and a lone UTF-16 surrogate cannot be written as YAML or UTF-8. */
    private static void checkText(List<Problem> problems, String path, String value) {
        if (value.indexOf('\0') >= 0) {
            problems.add(Problem.of(path, "must not contain a NUL character"));
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                problems.add(Problem.of(path, "contains an unpaired UTF-16 surrogate at index " + i
                        + "; the text is not valid Unicode"));
                return;
            }
        }
    }

    /** Builder for {@link BootOptions}; unset fields take the {@link #defaults()}. */
    public static final class Builder {
        private Role role = Role.PLAIN_VM;
        private ContainerRuntime containerRuntime = ContainerRuntime.DOCKER;
        private final Set<MonitoringAgent> monitoring = EnumSet.noneOf(MonitoringAgent.class);
        private final List<List<String>> userCommands = new ArrayList<>();
        private final Map<String, String> environment = new LinkedHashMap<>();
        private String markerPath = DEFAULT_MARKER_PATH;
        private String dcgmExporterImage = DEFAULT_DCGM_EXPORTER_IMAGE;
        private Optional<String> containerImage = Optional.empty();

        private Builder() {
        }

        public Builder role(Role value) {
            this.role = Objects.requireNonNull(value, "role");
            return this;
        }

        public Builder containerRuntime(ContainerRuntime value) {
            this.containerRuntime = Objects.requireNonNull(value, "containerRuntime");
            return this;
        }

        public Builder monitoring(MonitoringAgent agent) {
            monitoring.add(Objects.requireNonNull(agent, "agent"));
            return this;
        }

        public Builder userCommand(List<String> argv) {
            userCommands.add(new ArrayList<>(argv));
            return this;
        }

        public Builder userCommand(String... argv) {
            return userCommand(List.of(argv));
        }

        public Builder environment(String name, String value) {
            environment.put(name, value);
            return this;
        }

        public Builder markerPath(String value) {
            this.markerPath = Objects.requireNonNull(value, "markerPath");
            return this;
        }

        public Builder dcgmExporterImage(String value) {
            this.dcgmExporterImage = Objects.requireNonNull(value, "dcgmExporterImage");
            return this;
        }

        public Builder containerImage(String value) {
            this.containerImage = Optional.ofNullable(value);
            return this;
        }

        public BootOptions build() {
            return new BootOptions(role, containerRuntime, monitoring, userCommands, environment, markerPath,
                    dcgmExporterImage, containerImage);
        }
    }
}
