package dev.gantry.api;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What to run, never where: a training or inference workload with its model class, resources, command and tolerance
 * for interruption. The advisor turns it into a {@link Plan}; a backend runs the plan. Immutable; every constructor
 * check reports all problems at once with the spec's field paths.
 *
 * <p>The command is an argv list and never passes through a shell: each element arrives verbatim.
 */
public record Workload(
        String name,
        Map<String, String> labels,
        Phase phase,
        ModelClass model,
        Resources resources,
        Optional<ModelSize> modelSize,
        Optional<ContainerSpec> container,
        List<String> command,
        Optional<String> workingDir,
        Map<String, String> env,
        Map<String, SecretRef> secrets,
        Optional<Checkpoint> checkpoint,
        Optional<SpotPolicy> spot,
        List<String> regions,
        Optional<Budget> budget,
        Optional<RuntimeEstimate> estimate,
        Optimize optimize) {

    private static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
    private static final Pattern LABEL_KEY = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern REGION = Pattern.compile("[a-z][a-z0-9]*");
    /** Environment names Gantry sets for every job; a workload cannot override them. */
    public static final String RESERVED_ENV_PREFIX = "GANTRY_";

    public Workload {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(resources, "resources");
        spot = Objects.requireNonNull(spot, "spot");
        Objects.requireNonNull(optimize, "optimize");
        labels = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(labels, "labels")));
        modelSize = Objects.requireNonNull(modelSize, "modelSize");
        container = Objects.requireNonNull(container, "container");
        command = List.copyOf(Objects.requireNonNull(command, "command"));
        workingDir = Objects.requireNonNull(workingDir, "workingDir");
        env = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(env, "env")));
        secrets = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(secrets, "secrets")));
        checkpoint = Objects.requireNonNull(checkpoint, "checkpoint");
        regions = List.copyOf(Objects.requireNonNull(regions, "regions"));
        budget = Objects.requireNonNull(budget, "budget");
        estimate = Objects.requireNonNull(estimate, "estimate");

        Checks checks = new Checks();
        checks.require(NAME.matcher(name).matches(), "metadata.name", "must be 1-63 lower-case letters, digits or '-', "
                + "starting and ending with a letter or digit, got '" + name + "'");
        labels.forEach((key, value) -> {
            checks.require(LABEL_KEY.matcher(key).matches(), "metadata.labels." + key,
                    "label keys must be 1-63 letters, digits, '-', '_' or '.', got '" + key + "'");
            checks.require(value.length() <= 63, "metadata.labels." + key,
                    "label values must be at most 63 characters, got " + value.length());
        });
        checks.require(!command.isEmpty(), "command",
                "must list the program and its arguments, got an empty list (for example [python, train.py])");
        for (int i = 0; i < command.size(); i++) {
            checks.require(command.get(i).indexOf('\0') < 0, "command[" + i + "]",
                    "must not contain a NUL character");
        }
        if (!command.isEmpty()) {
            checks.require(!command.get(0).isEmpty(), "command[0]", "the program name must not be empty");
        }
        workingDir.ifPresent(dir -> checks.require(dir.startsWith("/"), "workingDir",
                "must be an absolute path, got '" + dir + "'"));
        env.forEach((key, value) -> {
            checks.require(ENV_NAME.matcher(key).matches(), "env." + key,
                    "environment names must be letters, digits and '_', not starting with a digit, got '" + key + "'");
            checks.require(!key.startsWith(RESERVED_ENV_PREFIX), "env." + key,
                    "names starting with " + RESERVED_ENV_PREFIX + " are set by Gantry, got '" + key + "'");
            checks.require(value.indexOf('\0') < 0, "env." + key, "must not contain a NUL character");
        });
        Map<String, String> plainEnv = env;
        secrets.forEach((key, ref) -> {
            checks.require(ENV_NAME.matcher(key).matches(), "secrets." + key,
                    "secret names become environment names: letters, digits and '_', got '" + key + "'");
            checks.require(!key.startsWith(RESERVED_ENV_PREFIX), "secrets." + key,
                    "names starting with " + RESERVED_ENV_PREFIX + " are set by Gantry, got '" + key + "'");
            checks.require(!plainEnv.containsKey(key), "secrets." + key,
                    "'" + key + "' is also set in env; a name may come from env or secrets, not both");
        });
        for (int i = 0; i < regions.size(); i++) {
            String region = regions.get(i);
            checks.require(REGION.matcher(region).matches(), "regions[" + i + "]",
                    "must be an Azure region name such as eastus or westus2, got '" + region + "'");
        }
        if (spot.equals(Optional.of(SpotPolicy.PREFERRED)) && phase == Phase.TRAINING && checkpoint.isEmpty()) {
            checks.add(Problem.of("spot", "preferred needs checkpoint for training: an evicted training run "
                    + "without checkpoints loses all its work; add checkpoint: {path: ..., every: 30m} or use "
                    + "spot: allowed"));
        }
        checks.throwIfAny();
    }

    /**
     * Whether {@code name} is a valid workload name: 1-63 lower-case letters, digits or '-', starting and ending with
     * a letter or digit. Workflow step names follow the same rule, since a step's name becomes its workload's.
     */
    public static boolean isValidName(String name) {
        return NAME.matcher(name).matches();
    }

    /**
     * Whether {@code name} is a valid environment variable name: letters, digits and '_', not starting with a digit.
     */
    public static boolean isValidEnvName(String name) {
        return ENV_NAME.matcher(name).matches();
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public Builder toBuilder() {
        Builder b = new Builder(name);
        b.labels.putAll(labels);
        b.phase = phase;
        b.model = model;
        b.resources = resources;
        b.modelSize = modelSize;
        b.container = container;
        b.command.addAll(command);
        b.workingDir = workingDir;
        b.env.putAll(env);
        b.secrets.putAll(secrets);
        b.checkpoint = checkpoint;
        b.spot = spot;
        b.regions.addAll(regions);
        b.budget = budget;
        b.estimate = estimate;
        b.optimize = optimize;
        return b;
    }

    /** True when an eviction costs little: inference, or training that checkpoints. */
    public boolean toleratesEviction() {
        return phase == Phase.INFERENCE || checkpoint.isPresent();
    }

    @Override
    public String toString() {
        // Secrets are references, but keep the summary short and free of values anyway.
        return "Workload[" + name + ", " + phase.name().toLowerCase(Locale.ROOT) + ", "
                + model.name().toLowerCase(Locale.ROOT) + ", " + resources + "]";
    }

    /** Builder for {@link Workload}. Phase and model class are required. */
    public static final class Builder {
        private final String name;
        private final Map<String, String> labels = new LinkedHashMap<>();
        private Phase phase;
        private ModelClass model;
        private Resources resources = Resources.defaults();
        private Optional<ModelSize> modelSize = Optional.empty();
        private Optional<ContainerSpec> container = Optional.empty();
        private final List<String> command = new ArrayList<>();
        private Optional<String> workingDir = Optional.empty();
        private final Map<String, String> env = new LinkedHashMap<>();
        private final Map<String, SecretRef> secrets = new LinkedHashMap<>();
        private Optional<Checkpoint> checkpoint = Optional.empty();
        private Optional<SpotPolicy> spot = Optional.empty();
        private final List<String> regions = new ArrayList<>();
        private Optional<Budget> budget = Optional.empty();
        private Optional<RuntimeEstimate> estimate = Optional.empty();
        private Optimize optimize = Optimize.COST;

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        public Builder label(String key, String value) {
            labels.put(key, value);
            return this;
        }

        public Builder labels(Map<String, String> values) {
            labels.putAll(values);
            return this;
        }

        public Builder phase(Phase phase) {
            this.phase = phase;
            return this;
        }

        public Builder model(ModelClass model) {
            this.model = model;
            return this;
        }

        public Builder resources(Resources resources) {
            this.resources = Objects.requireNonNull(resources, "resources");
            return this;
        }

        public Builder modelSize(ModelSize size) {
            this.modelSize = Optional.ofNullable(size);
            return this;
        }

        public Builder container(String image) {
            this.container = Optional.of(new ContainerSpec(image));
            return this;
        }

        public Builder container(ContainerSpec spec) {
            this.container = Optional.ofNullable(spec);
            return this;
        }

        public Builder command(List<String> argv) {
            command.clear();
            command.addAll(argv);
            return this;
        }

        public Builder command(String... argv) {
            return command(List.of(argv));
        }

        public Builder workingDir(String dir) {
            this.workingDir = Optional.ofNullable(dir);
            return this;
        }

        public Builder env(String key, String value) {
            env.put(key, value);
            return this;
        }

        public Builder env(Map<String, String> values) {
            env.putAll(values);
            return this;
        }

        public Builder secret(String name, SecretRef ref) {
            secrets.put(name, ref);
            return this;
        }

        public Builder checkpoint(Checkpoint value) {
            this.checkpoint = Optional.ofNullable(value);
            return this;
        }

        /** The spot policy; unset, the configuration's default applies (else never). */
        public Builder spot(SpotPolicy policy) {
            this.spot = Optional.of(Objects.requireNonNull(policy, "spot"));
            return this;
        }

        public Builder regions(List<String> values) {
            regions.clear();
            regions.addAll(values);
            return this;
        }

        public Builder budget(Budget value) {
            this.budget = Optional.ofNullable(value);
            return this;
        }

        public Builder estimate(RuntimeEstimate value) {
            this.estimate = Optional.ofNullable(value);
            return this;
        }

        public Builder optimize(Optimize value) {
            this.optimize = Objects.requireNonNull(value, "optimize");
            return this;
        }

        public Workload build() {
            Checks checks = new Checks();
            checks.require(phase != null, "phase", "is required: training or inference");
            checks.require(model != null, "model", "is required: generative, complex or small");
            checks.throwIfAny();
            return new Workload(name, labels, phase, model, resources, modelSize, container, command, workingDir, env,
                    secrets, checkpoint, spot, regions, budget, estimate, optimize);
        }
    }
}
