package dev.gantry.core.spec;

import dev.gantry.api.Budget;
import dev.gantry.api.Checkpoint;
import dev.gantry.api.ContainerSpec;
import dev.gantry.api.FabricCheck;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Interconnect;
import dev.gantry.api.ModelClass;
import dev.gantry.api.ModelSize;
import dev.gantry.api.NearMiss;
import dev.gantry.api.Optimize;
import dev.gantry.api.Phase;
import dev.gantry.api.Precision;
import dev.gantry.api.Resources;
import dev.gantry.api.RuntimeEstimate;
import dev.gantry.api.SecretRef;
import dev.gantry.api.SourceLocation;
import dev.gantry.api.SpotPolicy;
import dev.gantry.api.Workload;
import dev.gantry.core.spec.yaml.Binder;
import dev.gantry.core.spec.yaml.FieldPath;
import dev.gantry.core.spec.yaml.YamlNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Binds one located workload document to a {@link Workload}. Spec fields are reported without a {@code spec.}
 * prefix ({@code resources.gpus}), top-level fields by their names ({@code apiVersion}, {@code metadata.name}).
 *
 * <p>When a part is invalid the binder still runs the remaining constructors with neutral placeholders, so that one
 * pass reports every problem of the document; problems caused only by a placeholder are dropped by the
 * {@link Binder}.
 */
final class WorkloadBinder {
    static final String API_VERSION = "gantry.dev/v1";
    static final List<String> TOP_FIELDS = List.of("apiVersion", "kind", "metadata", "spec");
    static final List<String> METADATA_FIELDS = List.of("name", "labels");
    static final List<String> SPEC_FIELDS = List.of("phase", "model", "modelSize", "resources", "container", "command",
            "workingDir", "env", "secrets", "checkpoint", "spot", "regions", "zones", "budget", "estimate", "optimize",
            "fabricCheck");
    /** The fields of {@code fabricCheck} written as a mapping: a floor of the workload's own. */
    static final List<String> FABRIC_CHECK_FIELDS = List.of("minBusBandwidthGBps", "messageMiB");
    static final List<String> RESOURCE_FIELDS = List.of("gpus", "gpuMemoryGib", "gpuVendor", "vcpus", "memoryGib",
            "nodes", "interconnect");
    /** Where fields written at the wrong level belong, for "unknown field" messages. */
    private static final Map<String, String> TOP_ELSEWHERE = elsewhere(Map.of(
            "under spec", SPEC_FIELDS, "under metadata", METADATA_FIELDS));
    private static final Map<String, String> SPEC_ELSEWHERE = elsewhere(Map.of(
            "at the top level", List.of("apiVersion", "kind", "metadata"), "under metadata", METADATA_FIELDS,
            "under resources", RESOURCE_FIELDS, "under container", List.of("image"),
            "under modelSize", List.of("parameters", "precision"), "under budget", BudgetBinder.WORKLOAD_FIELDS,
            "under fabricCheck", FABRIC_CHECK_FIELDS));
    /** Stands in for a checkpoint that was written but is invalid, so "spot: preferred needs checkpoint" stays quiet. */
    private static final Checkpoint PLACEHOLDER_CHECKPOINT = new Checkpoint("/checkpoint", Duration.ofHours(1));

    private final Binder in;
    /** Where {@code spec:} was written: missing spec fields are reported there. */
    private SourceLocation specAt;

    WorkloadBinder(Binder in) {
        this.in = in;
    }

    private static Map<String, String> elsewhere(Map<String, List<String>> places) {
        Map<String, String> where = new LinkedHashMap<>();
        places.forEach((place, fields) -> fields.forEach(f -> where.put(f, place)));
        return Map.copyOf(where);
    }

    Optional<Workload> bind(YamlNode root) {
        if (!(root instanceof YamlNode.Mapping)) {
            in.report("", root.location(), "a workload must be a mapping with apiVersion, kind, metadata and spec, got "
                    + root.describe());
            return Optional.empty();
        }
        Optional<YamlNode.Mapping> top = in.mapping(root, "", root.location(), TOP_FIELDS, TOP_ELSEWHERE);
        if (top.isEmpty()) {
            return Optional.empty();
        }
        YamlNode.Mapping doc = top.get();
        in.remember("", root.location());
        boolean known = apiVersionAndKind(doc);
        Optional<YamlNode.Mapping> metadata = in.required(doc, "", "metadata", "a mapping with the workload's name")
                .flatMap(n -> in.mapping(n, "metadata", in.keyLocation(doc, "metadata"), METADATA_FIELDS));
        Optional<YamlNode> specNode = in.required(doc, "", "spec", "a mapping with phase, model, command and more");
        if (!known) {
            return Optional.empty();
        }
        Optional<String> name = metadata.flatMap(m -> in.required(m, "metadata", "name",
                        "the workload's name, e.g. llama-finetune").flatMap(n -> in.string(n, "metadata.name",
                        in.keyLocation(m, "name"))));
        Map<String, String> labels = metadata.flatMap(m -> in.textMap(m, "metadata", "labels", "label values"))
                .orElse(Map.of());
        if (specNode.isPresent() && !(specNode.get() instanceof YamlNode.Mapping)) {
            in.report("spec", in.keyLocation(doc, "spec"), "must be a mapping with phase, model, command and more, "
                    + "got " + specNode.get().describe());
            return Optional.empty();
        }
        // Spec fields are named without a "spec." prefix: resources.gpus, command[0].
        Optional<YamlNode.Mapping> spec = specNode.flatMap(n -> in.mapping(n, "", in.keyLocation(doc, "spec"),
                SPEC_FIELDS, SPEC_ELSEWHERE));
        if (spec.isEmpty()) {
            return Optional.empty();
        }
        specAt = in.keyLocation(doc, "spec");
        return bindSpec(spec.get(), name.orElse(""), labels);
    }

    private boolean apiVersionAndKind(YamlNode.Mapping doc) {
        boolean ok = apiVersion(doc);
        Optional<YamlNode> kind = in.required(doc, "", "kind", "add kind: Workload");
        if (kind.isEmpty()) {
            return false;
        }
        Optional<String> kindText = in.string(kind.get(), "kind", in.keyLocation(doc, "kind"));
        if (kindText.isEmpty()) {
            return false;
        }
        if (!kindText.get().equals("Workload")) {
            in.report("kind", in.keyLocation(doc, "kind"), "must be Workload (or Workflow, for steps of workloads), got '"
                    + kindText.get() + "'" + NearMiss.suggestion(kindText.get(), List.of("Workload", "Workflow")));
            return false;
        }
        return ok;
    }

    /** Checks {@code apiVersion}; shared with {@link WorkflowBinder}, since both kinds have the same version. */
    boolean apiVersion(YamlNode.Mapping doc) {
        Optional<YamlNode> version = in.required(doc, "", "apiVersion", "add apiVersion: " + API_VERSION);
        if (version.isEmpty()) {
            return false;
        }
        Optional<String> text = in.string(version.get(), "apiVersion", in.keyLocation(doc, "apiVersion"));
        if (text.isPresent() && !text.get().equals(API_VERSION)) {
            in.report("apiVersion", in.keyLocation(doc, "apiVersion"), "must be " + API_VERSION + ", got '"
                    + text.get() + "'");
        }
        return text.filter(API_VERSION::equals).isPresent();
    }

    /**
     * Binds a workload's {@code spec} mapping written elsewhere (a workflow step's {@code workload:}), at
     * {@code where}; fields are named as in a workload ({@code resources.gpus}), callers put them under their path.
     */
    Optional<Workload> bindSpecOnly(YamlNode node, SourceLocation where, String name, Map<String, String> labels) {
        in.remember("", where);
        Optional<YamlNode.Mapping> spec = in.mapping(node, "", where, SPEC_FIELDS, SPEC_ELSEWHERE);
        if (spec.isEmpty()) {
            return Optional.empty();
        }
        specAt = where;
        return bindSpec(spec.get(), name, labels);
    }

    private Optional<Workload> bindSpec(YamlNode.Mapping spec, String name, Map<String, String> labels) {
        Optional<Phase> phase = requiredChoice(spec, "phase", Phase.class, "training or inference");
        Optional<ModelClass> model = requiredChoice(spec, "model", ModelClass.class, "generative, complex or small");
        Optional<ModelSize> modelSize = section(spec, "modelSize", List.of("parameters", "precision"))
                .flatMap(this::modelSize);
        Optional<YamlNode.Mapping> resourcesNode = section(spec, "resources", RESOURCE_FIELDS);
        Optional<Resources> resources = resourcesNode.isPresent() ? resources(resourcesNode.get())
                : Optional.of(Resources.defaults());
        Optional<ContainerSpec> container = section(spec, "container", List.of("image"))
                .flatMap(c -> in.required(c, "container", "image", "an image such as nvcr.io/nvidia/pytorch:24.05-py3")
                        .flatMap(n -> in.string(n, "container.image", in.keyLocation(c, "image"))))
                .flatMap(image -> in.construct("container", () -> new ContainerSpec(image)));
        List<String> command = spec.entry("command").isEmpty()
                ? missing(spec, "command", "the program and its arguments as a list, e.g. [python, train.py]")
                : in.list(spec, "", "command", "program arguments", false).orElse(List.of());
        Optional<String> workingDir = in.string(spec, "", "workingDir");
        Map<String, String> env = in.textMap(spec, "", "env", "a string").orElse(Map.of());
        Map<String, SecretRef> secrets = secrets(spec);
        boolean checkpointWritten = spec.entry("checkpoint").isPresent();
        Optional<Checkpoint> checkpoint = section(spec, "checkpoint", List.of("path", "every"))
                .flatMap(this::checkpoint);
        Optional<SpotPolicy> spot = in.choice(spec, "", "spot", SpotPolicy.class);
        List<String> regions = in.list(spec, "", "regions", "Azure region names", true).orElse(List.of());
        Map<String, List<String>> zones = ZonesField.read(in, spec, "", "zones");
        Optional<Budget> budget = new BudgetBinder(in).workload(spec);
        Optional<RuntimeEstimate> estimate = section(spec, "estimate", List.of("hours", "gpu")).flatMap(this::estimate);
        Optional<Optimize> optimize = in.choice(spec, "", "optimize", Optimize.class);
        Optional<FabricCheck> fabricCheck = fabricCheck(spec);

        boolean partsOk = !in.hasProblems();
        // Placeholders keep the remaining checks running; Binder drops problems on paths already reported.
        Optional<Workload> workload = in.construct("", () -> new Workload(name, labels, phase.orElse(Phase.INFERENCE),
                model.orElse(ModelClass.SMALL), resources.orElse(Resources.defaults()), modelSize, container, command,
                workingDir, env, secrets, checkpoint.isEmpty() && checkpointWritten ? Optional.of(PLACEHOLDER_CHECKPOINT)
                        : checkpoint, spot, regions, budget, estimate,
                optimize.orElse(Optimize.COST), zones, fabricCheck));
        return partsOk ? workload : Optional.empty();
    }

    private <E extends Enum<E>> Optional<E> requiredChoice(YamlNode.Mapping spec, String key, Class<E> type,
            String help) {
        if (spec.entry(key).isEmpty()) {
            in.report(key, specAt, "is required: " + help);
            return Optional.empty();
        }
        return in.choice(spec, "", key, type);
    }

    private List<String> missing(YamlNode.Mapping spec, String key, String help) {
        in.report(key, specAt, "is required: " + help);
        return List.of();
    }

    private Optional<YamlNode.Mapping> section(YamlNode.Mapping spec, String key, List<String> fields) {
        return in.field(spec, "", key).flatMap(n -> in.mapping(n, key, in.keyLocation(spec, key), fields));
    }

    private OptionalDouble requiredNumber(YamlNode.Mapping map, String path, String key, String help) {
        if (map.entry(key).isEmpty()) {
            in.report(FieldPath.join(path, key), in.locate(path), "is required: " + help);
            return OptionalDouble.empty();
        }
        return in.number(map, path, key);
    }

    private Optional<ModelSize> modelSize(YamlNode.Mapping m) {
        OptionalDouble parameters = requiredNumber(m, "modelSize", "parameters", "the number of parameters, e.g. 7e9");
        Optional<Precision> precision;
        if (m.entry("precision").isEmpty()) {
            in.report("modelSize.precision", in.locate("modelSize"), "is required: one of fp32, tf32, fp16, bf16, "
                    + "fp8, int8, int4");
            precision = Optional.empty();
        } else {
            precision = in.choice(m, "modelSize", "precision", Precision.class);
        }
        if (parameters.isEmpty() || precision.isEmpty()) {
            return Optional.empty();
        }
        return in.construct("modelSize", () -> new ModelSize(parameters.getAsDouble(), precision.get()));
    }

    /** Builds from the fields that could be read, so that the constructor's checks run on the rest too. */
    private Optional<Resources> resources(YamlNode.Mapping r) {
        Resources.Builder b = Resources.builder();
        in.integer(r, "resources", "gpus").ifPresent(b::gpus);
        in.sizeGib(r, "resources", "gpuMemoryGib").ifPresent(b::gpuMemoryGib);
        in.choice(r, "resources", "gpuVendor", GpuVendor.class).ifPresent(b::gpuVendor);
        in.integer(r, "resources", "vcpus").ifPresent(b::vcpus);
        in.sizeGib(r, "resources", "memoryGib").ifPresent(b::memoryGib);
        in.integer(r, "resources", "nodes").ifPresent(b::nodes);
        in.choice(r, "resources", "interconnect", Interconnect.class).ifPresent(b::interconnect);
        return in.construct("resources", b::build);
    }

    private Map<String, SecretRef> secrets(YamlNode.Mapping spec) {
        Optional<YamlNode> node = in.field(spec, "", "secrets");
        Map<String, SecretRef> refs = new LinkedHashMap<>();
        if (node.isEmpty()) {
            return refs;
        }
        if (!(node.get() instanceof YamlNode.Mapping map)) {
            in.report("secrets", in.keyLocation(spec, "secrets"), "must be a mapping of environment names to "
                    + "references (env:NAME, file:PATH or a Key Vault secret URI), got " + node.get().describe());
            return refs;
        }
        for (YamlNode.Entry entry : map.entries()) {
            String path = FieldPath.join("secrets", entry.key());
            in.remember(path, entry.keyLocation());
            in.string(entry.value(), path, entry.keyLocation())
                    .flatMap(text -> in.construct(path, () -> SecretRef.parse(text)))
                    .ifPresent(ref -> refs.put(entry.key(), ref));
        }
        return refs;
    }

    private Optional<Checkpoint> checkpoint(YamlNode.Mapping c) {
        Optional<String> path = in.required(c, "checkpoint", "path", "an absolute path or storage URL, e.g. "
                + "/mnt/checkpoints").flatMap(n -> in.string(n, "checkpoint.path", in.keyLocation(c, "path")));
        Optional<Duration> every = c.entry("every").isEmpty()
                ? reportMissing("checkpoint.every", "checkpoint", "how often to checkpoint, e.g. 30m")
                : in.duration(c, "checkpoint", "every");
        if (path.isEmpty() || every.isEmpty()) {
            return Optional.empty();
        }
        return in.construct("checkpoint", () -> new Checkpoint(path.get(), every.get()));
    }

    private <T> Optional<T> reportMissing(String path, String parent, String help) {
        in.report(path, in.locate(parent), "is required: " + help);
        return Optional.empty();
    }

    /** {@code true}, {@code false}, or a mapping with a floor of the workload's own (which turns the check on). */
    private Optional<FabricCheck> fabricCheck(YamlNode.Mapping spec) {
        Optional<YamlNode> node = in.field(spec, "", "fabricCheck");
        if (node.isEmpty()) {
            return Optional.empty();
        }
        if (node.get() instanceof YamlNode.Scalar s && s.type() == YamlNode.ScalarType.BOOLEAN) {
            // The parser calls YAML 1.1's yes and on booleans too; all of them read as true, the rest as false.
            boolean on = List.of("true", "yes", "on", "y").contains(s.text().toLowerCase(java.util.Locale.ROOT));
            return Optional.of(on ? FabricCheck.on() : FabricCheck.off());
        }
        if (!(node.get() instanceof YamlNode.Mapping)) {
            in.report("fabricCheck", in.keyLocation(spec, "fabricCheck"), "must be true, false, or a floor of your own "
                    + "such as {minBusBandwidthGBps: 40, messageMiB: 1024}, got " + node.get().describe());
            return Optional.empty();
        }
        return section(spec, "fabricCheck", FABRIC_CHECK_FIELDS).flatMap(m -> {
            OptionalDouble floor = in.number(m, "fabricCheck", "minBusBandwidthGBps");
            java.util.OptionalInt mib = in.integer(m, "fabricCheck", "messageMiB");
            return in.construct("fabricCheck", () -> new FabricCheck(true,
                    floor.isPresent() ? Optional.of(floor.getAsDouble()) : Optional.empty(),
                    mib.isPresent() ? Optional.of(mib.getAsInt()) : Optional.empty()));
        });
    }

    private Optional<RuntimeEstimate> estimate(YamlNode.Mapping e) {
        OptionalDouble hours = requiredNumber(e, "estimate", "hours", "hours on the reference GPU, e.g. 10");
        Optional<String> gpu = in.required(e, "estimate", "gpu", "the reference GPU model, e.g. A100-80GB")
                .flatMap(n -> in.string(n, "estimate.gpu", in.keyLocation(e, "gpu")));
        if (hours.isEmpty() || gpu.isEmpty()) {
            return Optional.empty();
        }
        return in.construct("estimate", () -> new RuntimeEstimate(hours.getAsDouble(), gpu.get()));
    }
}
