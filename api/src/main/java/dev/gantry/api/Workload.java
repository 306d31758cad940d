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
 *
 * @param name the workload's name ({@code metadata.name}): 1-63 lower-case letters, digits or '-'
 * @param labels free key-value labels ({@code metadata.labels}), kept in the order given
 * @param phase training or inference
 * @param model the model's class, which decides GPU or CPU hardware
 * @param resources what one node needs, and how many nodes
 * @param modelSize the model's size, from which GPU memory is derived; empty when not given
 * @param container the container image to run in; empty to run on the host
 * @param command the program and its arguments, never through a shell
 * @param workingDir the absolute directory the command starts in; empty for the backend's job directory
 * @param env environment variables the job sees, in the order given
 * @param secrets environment variables whose values are resolved from a secret store at submit
 * @param checkpoint where and how often the workload checkpoints; empty when it does not
 * @param spot whether Spot capacity may be used; empty for the configuration's default
 * @param regions the Azure regions allowed, in order of preference; empty for any
 * @param budget the most it may cost per hour; empty for no ceiling
 * @param estimate how long it runs on a reference GPU; empty when unknown
 * @param optimize what the advisor minimizes
 * @param zones the availability zones allowed per region ({@code spec.zones}), by region name; a region not named may
 *     use any zone its VM size can be allocated in
 * @param fabricCheck whether the ranks check the fabric before the command; empty for the default (on for multi-node
 *     training on an RDMA size with a published floor)
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
        Optimize optimize,
        Map<String, List<String>> zones,
        Optional<FabricCheck> fabricCheck) {

    private static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
    private static final Pattern LABEL_KEY = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern REGION = Pattern.compile("[a-z][a-z0-9]*");
    /**
     * Azure's logical availability zones of a subscription in a region: "1", "2" and "3" ("The logical availability
     * zone resolved for this subscription (e.g., "1", "2", "3")", PhysicalToLogicalZoneMapping.LogicalZone,
     * https://learn.microsoft.com/dotnet/api/azure.resourcemanager.chaos.models.physicaltologicalzonemapping.logicalzone).
     */
    private static final List<String> ZONES = List.of("1", "2", "3");
    /** Environment names Gantry sets for every job; a workload cannot override them. */
    public static final String RESERVED_ENV_PREFIX = "GANTRY_";

    /**
     * Checks the whole workload and reports every problem at once, each under its spec field path. Maps and lists
     * are copied; maps keep their order.
     *
     * @param name the name
     * @param labels the labels
     * @param phase the phase
     * @param model the model class
     * @param resources the resources
     * @param modelSize the model size, or empty
     * @param container the container, or empty
     * @param command the argv, not empty, no NUL characters
     * @param workingDir an absolute path, or empty
     * @param env the variables; no name may start with {@link #RESERVED_ENV_PREFIX}
     * @param secrets the secret variables; no name may also be in {@code env}
     * @param checkpoint the checkpoints, or empty; required for training with {@link SpotPolicy#PREFERRED}
     * @param spot the Spot policy, or empty
     * @param regions the region names, e.g. {@code eastus}
     * @param budget the budget, or empty
     * @param estimate the runtime estimate, or empty
     * @param optimize the objective
     * @param zones the zones allowed per region: each a region name with a non-empty list of distinct zones "1", "2"
     *     or "3", a region of {@code regions} when those are named; copied in order
     * @param fabricCheck the fabric check's setting, or empty for the default; when on, the workload needs at least
     *     two nodes and an interconnect other than ethernet
     * @throws NullPointerException when a component is null
     * @throws GantryException with {@link ErrorCode#SPEC_INVALID} listing every problem found
     */
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
        zones = copyZones(Objects.requireNonNull(zones, "zones"));
        fabricCheck = Objects.requireNonNull(fabricCheck, "fabricCheck");

        Checks checks = new Checks();
        checks.require(NAME.matcher(name).matches(), "metadata.name", "must be 1-63 lower-case letters, digits or '-', "
                + "starting and ending with a letter or digit, got '" + name + "'");
        labelProblems("metadata.labels", labels).forEach(checks::add);
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
        zoneProblems("zones", zones, regions).forEach(checks::add);
        if (spot.equals(Optional.of(SpotPolicy.PREFERRED)) && phase == Phase.TRAINING && checkpoint.isEmpty()) {
            checks.add(Problem.of("spot", "preferred needs checkpoint for training: an evicted training run "
                    + "without checkpoints loses all its work; add checkpoint: {path: ..., every: 30m} or use "
                    + "spot: allowed"));
        }
        fabricCheck.filter(FabricCheck::enabled).ifPresent(on -> fabricCheckProblems(resources, checks));
        checks.throwIfAny();
    }

    /**
     * A workload without zones asked and with the default fabric check (the form before {@code spec.zones} and
     * {@code spec.fabricCheck}), kept so that code written against it still compiles: every zone of every region is
     * allowed.
     *
     * @param name the name
     * @param labels the labels
     * @param phase the phase
     * @param model the model class
     * @param resources the resources
     * @param modelSize the model size, or empty
     * @param container the container, or empty
     * @param command the argv
     * @param workingDir an absolute path, or empty
     * @param env the variables
     * @param secrets the secret variables
     * @param checkpoint the checkpoints, or empty
     * @param spot the Spot policy, or empty
     * @param regions the region names
     * @param budget the budget, or empty
     * @param estimate the runtime estimate, or empty
     * @param optimize the objective
     * @throws NullPointerException when a component is null
     * @throws GantryException with {@link ErrorCode#SPEC_INVALID} listing every problem found
     */
    public Workload(String name, Map<String, String> labels, Phase phase, ModelClass model, Resources resources,
                    Optional<ModelSize> modelSize, Optional<ContainerSpec> container, List<String> command,
                    Optional<String> workingDir, Map<String, String> env, Map<String, SecretRef> secrets,
                    Optional<Checkpoint> checkpoint, Optional<SpotPolicy> spot, List<String> regions,
                    Optional<Budget> budget, Optional<RuntimeEstimate> estimate, Optimize optimize) {
        this(name, labels, phase, model, resources, modelSize, container, command, workingDir, env, secrets,
                checkpoint, spot, regions, budget, estimate, optimize, Map.of(), Optional.empty());
    }

    /** An all-reduce between ranks needs ranks on other nodes, over a fabric that is not the plain Ethernet one. */
    private static void fabricCheckProblems(Resources resources, Checks checks) {
        checks.require(resources.nodes() >= 2, "fabricCheck", "checks the fabric between nodes and needs "
                + "resources.nodes of 2 or more, got " + resources.nodes() + "; set fabricCheck: false or more nodes");
        checks.require(resources.interconnect() != Interconnect.ETHERNET, "fabricCheck", "checks the InfiniBand "
                + "fabric, but resources.interconnect is ethernet; set fabricCheck: false or interconnect: infiniband");
    }

    private static Map<String, List<String>> copyZones(Map<String, List<String>> zones) {
        Map<String, List<String>> copy = new LinkedHashMap<>();
        zones.forEach((region, names) -> copy.put(region, names == null ? null
                : Collections.unmodifiableList(new ArrayList<>(names))));
        return Collections.unmodifiableMap(copy);
    }

    /**
     * What is wrong with zones asked per region, each problem under {@code path.REGION} (or {@code path.REGION[i]}):
     * keys are Azure region names, each with a non-empty list of distinct zones "1", "2" or "3", and a region of
     * {@code regions} when those are named. The workload's {@code spec.zones} and the configuration's
     * {@code defaults.zones} are checked with this one rule.
     *
     * @param path the field path the zones were read at, e.g. {@code zones} or {@code defaults.zones}
     * @param zones the zones per region; a null list is a problem, not an error
     * @param regions the regions the zones must be among; empty for any region
     * @return every problem found, in the map's order; empty when they are valid
     */
    public static List<Problem> zoneProblems(String path, Map<String, List<String>> zones, List<String> regions) {
        Checks checks = new Checks();
        zones.forEach((region, names) -> {
            String at = path + "." + region;
            checks.require(REGION.matcher(region).matches(), at,
                    "must be keyed by an Azure region name such as eastus or westus2, got '" + region + "'");
            checks.require(regions.isEmpty() || regions.contains(region), at, "region '" + region
                    + "' is not in regions " + regions + "; add it to regions or remove its zones");
            if (names == null || names.isEmpty()) {
                checks.add(Problem.of(at, "must list the zones allowed in " + region + ", one or more of "
                        + ZONES + "; remove the entry to allow any zone"));
                return;
            }
            for (int i = 0; i < names.size(); i++) {
                String zone = names.get(i);
                checks.require(zone != null && ZONES.contains(zone), at + "[" + i + "]",
                        "must be an availability zone " + String.join(", ", ZONES) + ", got '" + zone + "'");
                checks.require(zone == null || names.indexOf(zone) == i, at + "[" + i + "]",
                        "zone '" + zone + "' is listed twice");
            }
        });
        return checks.problems();
    }

    /**
     * Whether {@code name} is a valid workload name: 1-63 lower-case letters, digits or '-', starting and ending with
     * a letter or digit. Workflow step names follow the same rule, since a step's name becomes its workload's.
     *
     * @param name the name to check; not null
     * @return whether it is valid
     */
    public static boolean isValidName(String name) {
        return NAME.matcher(name).matches();
    }

    /**
     * What is wrong with these labels, each problem under {@code path.KEY}: keys are 1-63 letters, digits, '-', '_' or
     * '.', starting and ending with a letter or digit; values are at most 63 characters. Empty when they are valid.
     * The facade's submit request checks the labels it adds to a workload with the same rule.
     *
     * @param path the field path the labels were read at, e.g. {@code metadata.labels}
     * @param labels the labels to check
     * @return every problem found, in the labels' order; empty when they are valid
     */
    public static List<Problem> labelProblems(String path, Map<String, String> labels) {
        Checks checks = new Checks();
        labels.forEach((key, value) -> {
            checks.require(LABEL_KEY.matcher(key).matches(), path + "." + key,
                    "label keys must be 1-63 letters, digits, '-', '_' or '.', got '" + key + "'");
            checks.require(value.length() <= 63, path + "." + key,
                    "label values must be at most 63 characters, got " + value.length());
        });
        return checks.problems();
    }

    /**
     * Whether {@code name} is a valid environment variable name: letters, digits and '_', not starting with a digit.
     *
     * @param name the name to check; not null
     * @return whether it is valid
     */
    public static boolean isValidEnvName(String name) {
        return ENV_NAME.matcher(name).matches();
    }

    /**
     * A builder for a workload made in code.
     *
     * @param name the workload's name; checked by {@link Builder#build()}
     * @return a builder with the defaults the record lists
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /**
     * A builder holding this workload, to change some of it.
     *
     * @return a new builder with every part set from this workload
     */
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
        b.zones.putAll(zones);
        b.fabricCheck = fabricCheck;
        return b;
    }

    /**
     * Whether an eviction costs little.
     *
     * @return true for inference, or for training that checkpoints
     */
    public boolean toleratesEviction() {
        return phase == Phase.INFERENCE || checkpoint.isPresent();
    }

    @Override
    public String toString() {
        // Secrets are references, but keep the summary short and free of values anyway.
        return "Workload[" + name + ", " + phase.name().toLowerCase(Locale.ROOT) + ", "
                + model.name().toLowerCase(Locale.ROOT) + ", " + resources + "]";
    }

    /**
     * Builder for {@link Workload}. Phase and model class are required. No setter throws: a null where a value is
     * needed (an element of the command, an env value, the resources) is a problem that {@link #build()} reports with
     * every other problem of the workload, in one SPEC_INVALID, each with its full path ({@code command[2]},
     * {@code resources.gpus}). A null for an optional part (container, checkpoint, budget, spot...) leaves it unset.
     */
    public static final class Builder {
        private final String name;
        private final Map<String, String> labels = new LinkedHashMap<>();
        private Phase phase;
        private ModelClass model;
        private Resources resources = Resources.defaults();
        private Resources.Builder resourcesBuilder;
        private Optional<ModelSize> modelSize = Optional.empty();
        private Optional<ContainerSpec> container = Optional.empty();
        private final List<String> command = new ArrayList<>();
        private Optional<String> workingDir = Optional.empty();
        private final Map<String, String> env = new LinkedHashMap<>();
        private final Map<String, SecretRef> secrets = new LinkedHashMap<>();
        private Optional<Checkpoint> checkpoint = Optional.empty();
        private Optional<SpotPolicy> spot = Optional.empty();
        private final List<String> regions = new ArrayList<>();
        private final Map<String, List<String>> zones = new LinkedHashMap<>();
        private Optional<FabricCheck> fabricCheck = Optional.empty();
        private Optional<Budget> budget = Optional.empty();
        private Optional<RuntimeEstimate> estimate = Optional.empty();
        private Optimize optimize = Optimize.COST;
        /** Nulls given where a value is needed, reported by {@link #build()}. */
        private final Checks nulls = new Checks();

        private Builder(String name) {
            this.name = name;
        }

        /**
         * Adds or replaces one label.
         *
         * @param key the label's key: 1-63 letters, digits, '-', '_' or '.'
         * @param value the label's value, at most 63 characters
         * @return this builder
         */
        public Builder label(String key, String value) {
            if (key == null || value == null) {
                nulls.add(Problem.of("metadata.labels." + key, "a label's key and value must not be null"));
            } else {
                labels.put(key, value);
            }
            return this;
        }

        /**
         * Adds or replaces labels, in the map's order.
         *
         * @param values the labels; give an empty map for none
         * @return this builder
         */
        public Builder labels(Map<String, String> values) {
            if (values == null) {
                nulls.add(Problem.of("metadata.labels", "must not be null; give an empty map for no labels"));
            } else {
                values.forEach(this::label);
            }
            return this;
        }

        /**
         * Training or inference; required.
         *
         * @param phase the phase
         * @return this builder
         */
        public Builder phase(Phase phase) {
            this.phase = phase;
            return this;
        }

        /**
         * The model's class; required.
         *
         * @param model the class, which decides GPU or CPU hardware
         * @return this builder
         */
        public Builder model(ModelClass model) {
            this.model = model;
            return this;
        }

        /**
         * Resources built already; default {@link Resources#defaults()}.
         *
         * @param resources the resources
         * @return this builder
         */
        public Builder resources(Resources resources) {
            if (resources == null) {
                nulls.add(Problem.of("resources", "must not be null; leave it unset for the defaults"));
            } else {
                this.resources = resources;
                this.resourcesBuilder = null;
            }
            return this;
        }

        /**
         * Resources built with the workload, so that their problems are listed with its own as {@code resources.*}.
         *
         * @param builder the resources' builder, built by {@link #build()}
         * @return this builder
         */
        public Builder resources(Resources.Builder builder) {
            if (builder == null) {
                nulls.add(Problem.of("resources", "must not be null; leave it unset for the defaults"));
            } else {
                this.resourcesBuilder = builder;
            }
            return this;
        }

        /**
         * The model's size; null leaves it unset.
         *
         * @param size the size
         * @return this builder
         */
        public Builder modelSize(ModelSize size) {
            this.modelSize = Optional.ofNullable(size);
            return this;
        }

        /**
         * The container image to run in; null leaves it unset (the job runs on the host).
         *
         * @param image the image reference, e.g. {@code nvcr.io/nvidia/pytorch:24.05-py3}
         * @return this builder
         * @throws GantryException with {@link ErrorCode#SPEC_INVALID} at once when the reference is invalid
         */
        public Builder container(String image) {
            this.container = Optional.ofNullable(image).map(ContainerSpec::new);
            return this;
        }

        /**
         * The container to run in; null leaves it unset (the job runs on the host).
         *
         * @param spec the container
         * @return this builder
         */
        public Builder container(ContainerSpec spec) {
            this.container = Optional.ofNullable(spec);
            return this;
        }

        /**
         * The program and its arguments, replacing any given before; a null list, or a null element, is reported
         * by {@link #build()}.
         *
         * @param argv the program first, then its arguments, each passed verbatim
         * @return this builder
         */
        public Builder command(List<String> argv) {
            command.clear();
            if (argv == null) {
                nulls.add(Problem.of("command", "must not be null; give the program and its arguments"));
            } else {
                command.addAll(argv);
            }
            return this;
        }

        /**
         * The program and its arguments, as {@link #command(List)} does.
         *
         * @param argv the program first, then its arguments
         * @return this builder
         */
        public Builder command(String... argv) {
            return command(argv == null ? null : java.util.Arrays.asList(argv));
        }

        /**
         * The directory the command starts in; null leaves it unset (the backend's job directory).
         *
         * @param dir an absolute path on the node or in the container
         * @return this builder
         */
        public Builder workingDir(String dir) {
            this.workingDir = Optional.ofNullable(dir);
            return this;
        }

        /**
         * Adds or replaces one environment variable.
         *
         * @param key the name: letters, digits and '_', not starting with a digit or {@code GANTRY_}
         * @param value the value, without NUL characters
         * @return this builder
         */
        public Builder env(String key, String value) {
            if (key == null || value == null) {
                nulls.add(Problem.of("env." + key, "an environment variable's name and value must not be null"));
            } else {
                env.put(key, value);
            }
            return this;
        }

        /**
         * Adds or replaces environment variables, in the map's order.
         *
         * @param values the variables; give an empty map for none
         * @return this builder
         */
        public Builder env(Map<String, String> values) {
            if (values == null) {
                nulls.add(Problem.of("env", "must not be null; give an empty map for no variables"));
            } else {
                values.forEach(this::env);
            }
            return this;
        }

        /**
         * Adds or replaces one secret environment variable, resolved when the job is submitted.
         *
         * @param name the variable's name; not also given to {@link #env(String, String)}
         * @param ref where the value lives
         * @return this builder
         */
        public Builder secret(String name, SecretRef ref) {
            if (name == null || ref == null) {
                nulls.add(Problem.of("secrets." + name, "a secret's name and reference must not be null"));
            } else {
                secrets.put(name, ref);
            }
            return this;
        }

        /**
         * Where and how often the workload checkpoints; null leaves it unset.
         *
         * @param value the checkpoints
         * @return this builder
         */
        public Builder checkpoint(Checkpoint value) {
            this.checkpoint = Optional.ofNullable(value);
            return this;
        }

        /**
         * The spot policy; unset (or null), the configuration's default applies (else never).
         *
         * @param policy the policy
         * @return this builder
         */
        public Builder spot(SpotPolicy policy) {
            this.spot = Optional.ofNullable(policy);
            return this;
        }

        /**
         * The regions allowed, in order of preference, replacing any given before.
         *
         * @param values Azure region names; give an empty list for any region
         * @return this builder
         */
        public Builder regions(List<String> values) {
            regions.clear();
            if (values == null) {
                nulls.add(Problem.of("regions", "must not be null; give an empty list for any region"));
            } else {
                regions.addAll(values);
            }
            return this;
        }

        /**
         * Whether the ranks check the fabric before the command; null leaves the default (on for multi-node training
         * on an RDMA size with a published floor).
         *
         * @param value the setting
         * @return this builder
         */
        public Builder fabricCheck(FabricCheck value) {
            this.fabricCheck = Optional.ofNullable(value);
            return this;
        }

        /**
         * The availability zones allowed in one region, replacing any given before for it.
         *
         * @param region the Azure region name, e.g. {@code eastus}
         * @param values zones "1", "2" or "3"
         * @return this builder
         */
        public Builder zones(String region, List<String> values) {
            if (region == null || values == null) {
                nulls.add(Problem.of("zones", "a region and its zones must not be null"));
            } else {
                zones.put(region, new ArrayList<>(values));
            }
            return this;
        }

        /**
         * The most the workload may cost per hour; null leaves it unset (no ceiling).
         *
         * @param value the budget
         * @return this builder
         */
        public Builder budget(Budget value) {
            this.budget = Optional.ofNullable(value);
            return this;
        }

        /**
         * How long the workload runs on a reference GPU; null leaves it unset.
         *
         * @param value the estimate
         * @return this builder
         */
        public Builder estimate(RuntimeEstimate value) {
            this.estimate = Optional.ofNullable(value);
            return this;
        }

        /**
         * What the advisor minimizes; default {@link Optimize#COST}.
         *
         * @param value the objective
         * @return this builder
         */
        public Builder optimize(Optimize value) {
            if (value == null) {
                nulls.add(Problem.of("optimize", "must not be null; leave it unset for cost"));
            } else {
                this.optimize = value;
            }
            return this;
        }

        /**
         * Builds the workload.
         *
         * @return the workload
         * @throws GantryException with {@link ErrorCode#SPEC_INVALID} listing every problem found, the resources'
         *     included
         */
        public Workload build() {
            Checks checks = new Checks();
            checks.require(name != null, "metadata.name", "must not be null; give the workload's name");
            checks.require(phase != null, "phase", "is required: training or inference");
            checks.require(model != null, "model", "is required: generative, complex or small");
            checks.attempt(() -> {
                nulls.throwIfAny();
                return null;
            });
            List<String> argv = withoutNulls(command, "command", checks);
            List<String> regionNames = withoutNulls(regions, "regions", checks);
            Optional<Resources> bound = resourcesBuilder == null ? Optional.of(resources)
                    : checks.attempt(() -> {
                        try {
                            return resourcesBuilder.build();
                        } catch (GantryException e) {
                            if (e.problems().isEmpty()) {
                                throw e;
                            }
                            throw GantryException.invalid(e.code(), e.problems().stream()
                                    .map(p -> p.under("resources")).toList());
                        }
                    });
            // The workload's own checks run on what could be read, so that one round lists every problem. The
            // stand-ins for a missing phase or model are never returned: they only let the other checks run.
            Optional<Workload> built = checks.attempt(() -> new Workload(name == null ? "unnamed" : name, labels,
                    phase == null ? Phase.INFERENCE : phase, model == null ? ModelClass.SMALL : model,
                    bound.orElse(Resources.defaults()), modelSize, container, argv, workingDir, env, secrets,
                    checkpoint, spot, regionNames, budget, estimate, optimize, zones, fabricCheck));
            checks.throwIfAny();
            return built.orElseThrow();
        }

        private static List<String> withoutNulls(List<String> items, String field, Checks checks) {
            List<String> kept = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                checks.require(items.get(i) != null, field + "[" + i + "]", "must not be null");
                kept.add(items.get(i) == null ? "x" : items.get(i)); // a stand-in that passes, so one problem per null
            }
            return kept;
        }
    }
}
