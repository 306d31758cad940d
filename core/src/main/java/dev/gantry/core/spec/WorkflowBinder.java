package dev.gantry.core.spec;

import dev.gantry.api.ModelClass;
import dev.gantry.api.NearMiss;
import dev.gantry.api.Optimize;
import dev.gantry.api.Phase;
import dev.gantry.api.Problem;
import dev.gantry.api.Resources;
import dev.gantry.api.SourceLocation;
import dev.gantry.api.Workload;
import dev.gantry.model.FailurePolicy;
import dev.gantry.model.RetryPolicy;
import dev.gantry.model.StepDefinition;
import dev.gantry.model.StepInstance;
import dev.gantry.core.runs.StepOutputs;
import dev.gantry.model.WorkflowDefinition;
import dev.gantry.core.spec.yaml.Binder;
import dev.gantry.core.spec.yaml.FieldPath;
import dev.gantry.core.spec.yaml.YamlNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Binds one located {@code kind: Workflow} document to a {@link WorkflowDefinition}. Fields are named as in workload
 * specs: without a {@code spec.} prefix ({@code steps[1].dependsOn[0]}), a step's inline workload under
 * {@code steps[i].workload} ({@code steps[0].workload.resources.gpus}). Problems of a step's {@code file:} keep the
 * location and field names of that file, so an editor jumps to the right place.
 */
final class WorkflowBinder {
    static final List<String> SPEC_FIELDS = List.of("parallelism", "budget", "steps");
    static final List<String> STEP_FIELDS = List.of("name", "workload", "file", "dependsOn", "retries", "onFailure",
            "timeout", "matrix", "outputs");
    private static final String NAME_RULE = "1-63 lower-case letters, digits or '-', starting and ending with a letter "
            + "or digit";
    private static final String ON_FAILURE_HELP = "stop, continue or cleanup:STEP";
    /** Stands in for an invalid step name so that the step's workload is still checked. */
    private static final String PLACEHOLDER_NAME = "step";
    private static final Map<String, String> TOP_ELSEWHERE = elsewhere("under spec", SPEC_FIELDS);
    private static final Map<String, String> SPEC_ELSEWHERE = elsewhere(
            "under a step's workload (spec.steps[].workload)", WorkloadBinder.SPEC_FIELDS);
    private static final Map<String, String> STEP_ELSEWHERE = elsewhere("under the step's workload",
            WorkloadBinder.SPEC_FIELDS);

    /** A workload spec file that a step names: its workload when valid, and its problems (located in that file). */
    record FileResult(Optional<Workload> workload, List<Problem> problems, boolean isWorkflow) {
    }

    private final Binder in;
    private final Path baseDir;
    private final Function<Path, FileResult> files;
    /** Every workload spec file a step names, as read: part of what a run of this workflow is made from. */
    private final List<Path> referencedFiles = new ArrayList<>();

    /** Step data gathered in the first pass; cross-step checks need every step's name first. */
    private record Step(String path, YamlNode.Mapping node, Optional<String> name, List<String> dependsOn,
            RetryPolicy retries, FailurePolicy onFailure, Optional<Duration> timeout, Optional<Workload> workload,
            Map<String, List<String>> matrix, List<String> outputs) {
    }

    /** The most jobs the workflow may expand to ({@code runs.maxJobs}). */
    private final int maxJobs;
    private static final Pattern NOT_NAME_SAFE = Pattern.compile("[^a-z0-9]+");
    private static final Pattern EDGE_DASHES = Pattern.compile("^-+|-+$");

    WorkflowBinder(Binder in, Path baseDir, Function<Path, FileResult> files, int maxJobs) {
        this.in = in;
        this.baseDir = baseDir;
        this.files = files;
        this.maxJobs = maxJobs;
    }

    /** The workload spec files the steps named, in the order read (after {@link #bind}). */
    List<Path> referencedFiles() {
        return List.copyOf(referencedFiles);
    }

    private static Map<String, String> elsewhere(String place, List<String> fields) {
        Map<String, String> where = new LinkedHashMap<>();
        fields.forEach(f -> where.put(f, place));
        return Map.copyOf(where);
    }

    Optional<WorkflowDefinition> bind(YamlNode.Mapping root) {
        Optional<YamlNode.Mapping> top = in.mapping(root, "", root.location(), WorkloadBinder.TOP_FIELDS,
                TOP_ELSEWHERE);
        if (top.isEmpty()) {
            return Optional.empty();
        }
        YamlNode.Mapping doc = top.get();
        in.remember("", root.location());
        boolean versionOk = new WorkloadBinder(in).apiVersion(doc);
        Optional<YamlNode.Mapping> metadata = in.required(doc, "", "metadata", "a mapping with the workflow's name")
                .flatMap(n -> in.mapping(n, "metadata", in.keyLocation(doc, "metadata"),
                        WorkloadBinder.METADATA_FIELDS));
        Optional<String> name = metadata.flatMap(m -> in.required(m, "metadata", "name",
                "the workflow's name, e.g. train-and-serve").flatMap(n -> in.string(n, "metadata.name",
                in.keyLocation(m, "name"))));
        Map<String, String> labels = metadata.flatMap(m -> in.textMap(m, "metadata", "labels", "label values"))
                .orElse(Map.of());
        // Names and labels follow the workload rules; a throwaway workload checks them with the same messages.
        in.construct("", () -> new Workload(name.orElse(PLACEHOLDER_NAME), labels, Phase.INFERENCE, ModelClass.SMALL,
                Resources.defaults(), Optional.empty(), Optional.empty(), List.of("true"), Optional.empty(), Map.of(),
                Map.of(), Optional.empty(), Optional.empty(), List.of(), Optional.empty(), Optional.empty(),
                Optimize.COST));
        Optional<YamlNode> specNode = in.required(doc, "", "spec", "a mapping with steps and, optionally, parallelism");
        if (specNode.isEmpty() || !versionOk) {
            return Optional.empty();
        }
        SourceLocation specAt = in.keyLocation(doc, "spec");
        Optional<YamlNode.Mapping> spec = in.mapping(specNode.get(), "", specAt, SPEC_FIELDS, SPEC_ELSEWHERE);
        if (spec.isEmpty()) {
            return Optional.empty();
        }
        OptionalInt parallelism = in.integer(spec.get(), "", "parallelism");
        if (parallelism.isPresent() && parallelism.getAsInt() < 0) {
            in.report("parallelism", in.keyLocation(spec.get(), "parallelism"), "must be 0 (no limit) or a positive "
                    + "number of steps running at once, got " + parallelism.getAsInt());
        }
        Optional<dev.gantry.api.Budget> budget = new BudgetBinder(in).workflow(spec.get());
        List<Step> steps = steps(spec.get(), specAt);
        crossChecks(steps);
        if (in.hasProblems() || steps.isEmpty() || !withinJobLimit(steps)) {
            return Optional.empty();
        }
        List<StepDefinition> definitions = new ArrayList<>();
        for (Step step : steps) {
            List<StepInstance> instances = instances(step);
            if (in.hasProblems()) {
                return Optional.empty();
            }
            definitions.add(new StepDefinition(step.name().orElseThrow(), step.workload().orElseThrow(),
                    step.dependsOn(), step.retries(), step.onFailure(), step.timeout(), instances, step.outputs()));
        }
        return Optional.of(new WorkflowDefinition(name.orElseThrow(), labels, definitions, parallelism.orElse(0),
                budget));
    }

    private List<Step> steps(YamlNode.Mapping spec, SourceLocation specAt) {
        if (spec.entry("steps").isEmpty()) {
            in.report("steps", specAt, "is required: a list of steps, each with a name and a workload or file");
            return List.of();
        }
        Optional<YamlNode> node = in.field(spec, "", "steps");
        if (node.isEmpty()) {
            return List.of();
        }
        if (!(node.get() instanceof YamlNode.Sequence seq) || seq.items().isEmpty()) {
            in.report("steps", in.keyLocation(spec, "steps"), "must be a non-empty list of steps, each a mapping with "
                    + "name and workload or file, got " + node.get().describe());
            return List.of();
        }
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < seq.items().size(); i++) {
            YamlNode item = seq.items().get(i);
            String path = FieldPath.index("steps", i);
            in.remember(path, item.location());
            in.mapping(item, path, item.location(), STEP_FIELDS, STEP_ELSEWHERE)
                    .ifPresent(m -> steps.add(step(m, path)));
        }
        return steps;
    }

    private Step step(YamlNode.Mapping m, String path) {
        Optional<String> name = in.required(m, path, "name", "the step's name, e.g. prepare-data")
                .flatMap(n -> in.string(n, FieldPath.join(path, "name"), in.keyLocation(m, "name")));
        if (name.isPresent() && !Workload.isValidName(name.get())) {
            in.report(FieldPath.join(path, "name"), in.keyLocation(m, "name"), "must be " + NAME_RULE + ", got '"
                    + name.get() + "'");
            name = Optional.empty();
        }
        List<String> dependsOn = in.list(m, path, "dependsOn", "step names", true).orElse(List.of());
        RetryPolicy retries = in.field(m, path, "retries").flatMap(n -> in.mapping(n, FieldPath.join(path, "retries"),
                in.keyLocation(m, "retries"), List.of("count", "backoff"))).map(r -> retries(r, path))
                .orElse(RetryPolicy.NONE);
        FailurePolicy onFailure = onFailure(m, path);
        Optional<Duration> timeout = in.duration(m, path, "timeout");
        if (timeout.isPresent() && timeout.get().isZero()) {
            in.report(FieldPath.join(path, "timeout"), in.keyLocation(m, "timeout"), "must be longer than 0s; remove "
                    + "it for no timeout");
            timeout = Optional.empty();
        }
        Map<String, List<String>> matrix = matrix(m, path);
        List<String> outputs = outputs(m, path, !matrix.isEmpty());
        Optional<Workload> workload = workload(m, path, name.orElse(PLACEHOLDER_NAME));
        return new Step(path, m, name, dependsOn, retries, onFailure, timeout, workload, matrix, outputs);
    }

    /** The names of the values a step publishes: environment-variable names, each once; none for a matrix step. */
    private List<String> outputs(YamlNode.Mapping m, String path, boolean matrix) {
        List<String> outputs = in.list(m, path, "outputs", "output names", true).orElse(List.of());
        String at = FieldPath.join(path, "outputs");
        if (matrix && !outputs.isEmpty()) {
            in.report(at, in.keyLocation(m, "outputs"), "a step with a matrix runs several jobs, so an output of it "
                    + "would have several values; publish outputs from a step without a matrix");
            return List.of();
        }
        List<String> valid = new ArrayList<>();
        for (int j = 0; j < outputs.size(); j++) {
            String name = outputs.get(j);
            String entry = FieldPath.index(at, j);
            if (!Workload.isValidEnvName(name)) {
                in.report(entry, in.locate(entry), "must be a name of letters, digits and '_', not starting with a "
                        + "digit, such as MODEL_URI, got '" + name + "'");
            } else if (valid.contains(name)) {
                in.report(entry, in.locate(entry), "names output " + name + " twice; name each output once");
            } else {
                valid.add(name);
            }
        }
        return valid;
    }

    private RetryPolicy retries(YamlNode.Mapping r, String path) {
        String at = FieldPath.join(path, "retries");
        OptionalInt count = in.integer(r, at, "count");
        if (count.isPresent() && count.getAsInt() < 0) {
            in.report(FieldPath.join(at, "count"), in.keyLocation(r, "count"), "must be 0 or more retries, got "
                    + count.getAsInt() + "; use 0 (or leave retries out) to not retry");
            count = OptionalInt.empty();
        }
        Duration backoff = in.duration(r, at, "backoff").orElse(RetryPolicy.DEFAULT_BACKOFF);
        return new RetryPolicy(count.orElse(0), backoff);
    }

    private FailurePolicy onFailure(YamlNode.Mapping m, String path) {
        Optional<String> text = in.field(m, path, "onFailure").flatMap(n -> in.string(n,
                FieldPath.join(path, "onFailure"), in.keyLocation(m, "onFailure")));
        if (text.isEmpty()) {
            return FailurePolicy.STOP;
        }
        String given = text.get();
        if (given.equals("stop")) {
            return FailurePolicy.STOP;
        }
        if (given.equals("continue")) {
            return FailurePolicy.CONTINUE;
        }
        if (given.startsWith("cleanup:") && !given.substring(8).isBlank()) {
            return FailurePolicy.cleanup(given.substring(8).trim());
        }
        String hint = given.equals("cleanup") || given.equals("cleanup:") ? "; name the cleanup step: cleanup:STEP"
                : NearMiss.suggestion(given, List.of("stop", "continue"));
        in.report(FieldPath.join(path, "onFailure"), in.keyLocation(m, "onFailure"), "must be " + ON_FAILURE_HELP
                + ", got '" + given + "'" + hint);
        return FailurePolicy.STOP;
    }

    /** The matrix as written: parameter name to its values, in order. */
    private Map<String, List<String>> matrix(YamlNode.Mapping m, String path) {
        Map<String, List<String>> matrix = new LinkedHashMap<>();
        String at = FieldPath.join(path, "matrix");
        Optional<YamlNode> node = in.field(m, path, "matrix");
        if (node.isEmpty()) {
            return matrix;
        }
        if (!(node.get() instanceof YamlNode.Mapping map) || map.entries().isEmpty()) {
            in.report(at, in.keyLocation(m, "matrix"), "must be a mapping of parameter names to lists of values, "
                    + "e.g. {LR: [0.1, 0.01]}, got " + node.get().describe());
            return matrix;
        }
        for (YamlNode.Entry entry : map.entries()) {
            String key = entry.key();
            String keyPath = FieldPath.join(at, key);
            in.remember(keyPath, entry.keyLocation());
            if (!Workload.isValidEnvName(key)) {
                in.report(keyPath, entry.keyLocation(), "must be an environment variable name (letters, digits and "
                        + "'_', not starting with a digit), got '" + key + "'; each instance gets it set to its value");
                continue;
            }
            in.list(map, at, key, "values", false).ifPresent(values -> {
                if (values.isEmpty()) {
                    in.report(keyPath, entry.keyLocation(), "must list at least one value; remove the parameter "
                            + "to not fan out over it");
                } else {
                    matrix.put(key, values);
                }
            });
        }
        return matrix;
    }

    private Optional<Workload> workload(YamlNode.Mapping m, String path, String name) {
        boolean inline = m.entry("workload").isPresent();
        boolean file = m.entry("file").isPresent();
        if (inline && file) {
            in.report(FieldPath.join(path, "file"), in.keyLocation(m, "file"), "a step has either workload (an inline "
                    + "workload spec) or file (a workload spec file), not both; remove one");
            return Optional.empty();
        }
        if (!inline && !file) {
            in.report(path, m.location(), "needs workload (an inline workload spec: phase, model, command, ...) or "
                    + "file (the path of a workload spec file, relative to this file)");
            return Optional.empty();
        }
        return inline ? inlineWorkload(m, path, name) : fileWorkload(m, path, name);
    }

    private Optional<Workload> inlineWorkload(YamlNode.Mapping m, String path, String name) {
        Optional<YamlNode> node = in.field(m, path, "workload");
        if (node.isEmpty()) {
            return Optional.empty();
        }
        // A binder of its own: workload fields are reported as in a workload spec, then put under this step's path.
        Binder inner = new Binder(in.fileName());
        Optional<Workload> workload = new WorkloadBinder(inner).bindSpecOnly(node.get(), in.keyLocation(m, "workload"),
                name, Map.of());
        String at = FieldPath.join(path, "workload");
        in.addAll(inner.problems().stream().map(p -> p.under(at)).toList());
        return inner.hasProblems() ? Optional.empty() : workload;
    }

    private Optional<Workload> fileWorkload(YamlNode.Mapping m, String path, String name) {
        String at = FieldPath.join(path, "file");
        SourceLocation where = in.keyLocation(m, "file");
        Optional<String> file = in.string(m, path, "file");
        if (file.isEmpty()) {
            return Optional.empty();
        }
        if (file.get().isBlank()) {
            in.report(at, where, "must be the path of a workload spec file, got ''");
            return Optional.empty();
        }
        Path resolved = (baseDir == null ? Path.of(file.get()) : baseDir.resolve(file.get())).normalize();
        FileResult result = files.apply(resolved);
        referencedFiles.add(resolved.toAbsolutePath().normalize());
        if (result.isWorkflow()) {
            in.report(at, where, resolved + " is a Workflow; a step runs a Workload spec (workflows do not nest)");
            return Optional.empty();
        }
        List<Problem> located = result.problems().stream().filter(p -> p.location().isPresent()).toList();
        result.problems().stream().filter(p -> p.location().isEmpty())
                .forEach(p -> in.report(at, where, p.message()));
        if (!located.isEmpty()) {
            in.addAll(located);
            in.report(at, where, resolved + " is not a valid workload spec: " + located.size() + " problem"
                    + (located.size() == 1 ? "" : "s") + ", reported with that file's name");
        }
        if (!result.problems().isEmpty()) {
            return Optional.empty();
        }
        // The step's name replaces the file's metadata.name, so one file can serve several steps.
        return result.workload().flatMap(w -> in.construct(at, () -> renamed(w, name, Map.of())));
    }

    private void crossChecks(List<Step> steps) {
        Map<String, Step> byName = new LinkedHashMap<>();
        for (Step step : steps) {
            if (step.name().isEmpty()) {
                continue;
            }
            Step first = byName.putIfAbsent(step.name().get(), step);
            if (first != null) {
                in.report(FieldPath.join(step.path(), "name"), in.keyLocation(step.node(), "name"), "step '"
                        + step.name().get() + "' is defined twice (first at line "
                        + in.keyLocation(first.node(), "name").line() + "); step names must be unique");
            }
        }
        List<String> names = List.copyOf(byName.keySet());
        Map<String, List<String>> graph = new LinkedHashMap<>();
        for (Step step : steps) {
            List<String> known = new ArrayList<>();
            for (int j = 0; j < step.dependsOn().size(); j++) {
                String dependency = step.dependsOn().get(j);
                if (byName.containsKey(dependency)) {
                    known.add(dependency);
                } else {
                    String entry = FieldPath.index(FieldPath.join(step.path(), "dependsOn"), j);
                    in.report(entry, in.locate(entry), unknownStep(dependency, names));
                }
            }
            step.onFailure().cleanupStep().ifPresent(cleanup -> {
                String at = FieldPath.join(step.path(), "onFailure");
                if (!byName.containsKey(cleanup)) {
                    in.report(at, in.keyLocation(step.node(), "onFailure"), "names cleanup step '" + cleanup
                            + "', which is not a step of this workflow" + stepHint(cleanup, names));
                } else if (step.name().filter(cleanup::equals).isPresent()) {
                    in.report(at, in.keyLocation(step.node(), "onFailure"), "a step cannot be its own cleanup step; "
                            + "name another step or use stop");
                }
            });
            step.name().filter(n -> byName.get(n) == step).ifPresent(n -> graph.put(n, known));
        }
        Optional<List<String>> found = WorkflowDefinition.findCycle(graph);
        if (found.isEmpty()) {
            steps.forEach(step -> checkInputs(step, byName, graph));
        }
        found.ifPresent(cycle -> {
            Step from = byName.get(cycle.get(0));
            int j = from.dependsOn().indexOf(cycle.get(1));
            String entry = FieldPath.index(FieldPath.join(from.path(), "dependsOn"), j);
            in.report(entry, in.locate(entry), "dependency cycle " + String.join(" -> ", cycle) + "; a step cannot "
                    + "wait for itself: remove one of these dependencies");
        });
    }

    /**
     * Each {@code ${steps.STEP.outputs.NAME}} in a step's environment names a step it depends on (directly or
     * through others) and an output that step declares.
     */
    private void checkInputs(Step step, Map<String, Step> byName, Map<String, List<String>> graph) {
        if (step.workload().isEmpty() || step.name().isEmpty()) {
            return;
        }
        String key = step.node().entry("file").isPresent() ? "file" : "workload";
        String at = FieldPath.join(step.path(), key);
        StepOutputs.malformed(step.workload().get()).ifPresent(bad -> in.report(at, in.keyLocation(step.node(),
                key), "uses '" + bad + "' in its env, which is not a step output; write ${steps.STEP.outputs.NAME}"));
        Set<String> upstream = upstream(step.name().get(), graph);
        for (StepOutputs.Reference ref : StepOutputs.references(step.workload().get())) {
            Step from = byName.get(ref.step());
            String use = "env " + ref.env() + " uses ${steps." + ref.step() + ".outputs." + ref.output() + "}";
            if (from == null) {
                in.report(at, in.keyLocation(step.node(), key), use + ", but there is no step " + ref.step()
                        + stepHint(ref.step(), List.copyOf(byName.keySet())));
            } else if (!upstream.contains(ref.step())) {
                in.report(at, in.keyLocation(step.node(), key), use + ", but step " + step.name().get()
                        + " does not depend on " + ref.step() + ", so its output may not exist yet; add it to "
                        + "dependsOn");
            } else if (!from.outputs().contains(ref.output())) {
                in.report(at, in.keyLocation(step.node(), key), use + ", but step " + ref.step() + " declares "
                        + (from.outputs().isEmpty() ? "no outputs" : "outputs " + String.join(", ", from.outputs()))
                        + "; add " + ref.output() + " to its outputs");
            }
        }
    }

    /** The steps {@code name} depends on, directly or through others. */
    private static Set<String> upstream(String name, Map<String, List<String>> graph) {
        Set<String> found = new java.util.LinkedHashSet<>();
        java.util.Deque<String> todo = new java.util.ArrayDeque<>(graph.getOrDefault(name, List.of()));
        while (!todo.isEmpty()) {
            String next = todo.pop();
            if (found.add(next)) {
                todo.addAll(graph.getOrDefault(next, List.of()));
            }
        }
        return found;
    }

    private static String unknownStep(String given, List<String> names) {
        return "unknown step '" + given + "'" + stepHint(given, names);
    }

    private static String stepHint(String given, List<String> names) {
        return NearMiss.closest(given, names).map(c -> "; did you mean '" + c + "'?")
                .orElse("; steps are " + String.join(", ", names));
    }

    /**
     * Whether the workflow's jobs, its matrices expanded, are within {@code runs.maxJobs}; when not, a problem at the
     * step with the most jobs, before any matrix is expanded.
     */
    private boolean withinJobLimit(List<Step> steps) {
        long total = 0;
        Step largest = steps.get(0);
        long most = 0;
        for (Step step : steps) {
            long jobs = jobs(step);
            total = total > Long.MAX_VALUE - jobs ? Long.MAX_VALUE : total + jobs;
            if (jobs > most) {
                most = jobs;
                largest = step;
            }
        }
        if (total <= maxJobs) {
            return true;
        }
        boolean matrix = !largest.matrix().isEmpty();
        // The setting's name as the configuration spells it (core.config reads specs, so it is not imported here).
        in.report(matrix ? FieldPath.join(largest.path(), "matrix") : largest.path(), matrix
                ? in.keyLocation(largest.node(), "matrix") : largest.node().location(), "step '"
                + largest.name().orElseThrow() + "' expands to " + most + " jobs" + (total != most ? " (the workflow "
                + "to " + total + ")" : "") + ", above runs.maxJobs = " + maxJobs + "; if the workflow is meant to "
                + "run that many, raise runs.maxJobs to " + total + " or more (runs: {maxJobs: " + total + "} in "
                + "gantry.yaml, or GANTRY_RUNS_MAX_JOBS), else make the matrix smaller");
        return false;
    }

    /** How many jobs the step runs: the product of its matrix's value counts, at most {@code Long.MAX_VALUE}. */
    private static long jobs(Step step) {
        long jobs = 1;
        for (List<String> values : step.matrix().values()) {
            int count = Math.max(1, values.size());
            jobs = jobs > Long.MAX_VALUE / count ? Long.MAX_VALUE : jobs * count;
        }
        return jobs;
    }

    /** One instance per matrix combination, in written order, each named {@code STEP-v1-v2} with its values as env. */
    private List<StepInstance> instances(Step step) {
        String name = step.name().orElseThrow();
        Workload workload = step.workload().orElseThrow();
        List<Map<String, String>> combinations = new ArrayList<>();
        combinations.add(new LinkedHashMap<>());
        step.matrix().forEach((key, values) -> {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> combination : combinations) {
                for (String value : values) {
                    Map<String, String> extended = new LinkedHashMap<>(combination);
                    extended.put(key, value);
                    next.add(extended);
                }
            }
            combinations.clear();
            combinations.addAll(next);
        });
        String at = FieldPath.join(step.path(), "matrix");
        List<StepInstance> instances = new ArrayList<>();
        // A set: a list's contains made a 100,000-job matrix take over a minute to check (quadratic).
        Set<String> seen = new HashSet<>();
        Map<String, String> safeValues = new HashMap<>();
        for (Map<String, String> parameters : combinations) {
            String instanceName = instanceName(name, parameters, safeValues);
            if (!Workload.isValidName(instanceName) || seen.contains(instanceName)) {
                in.report(at, in.locate(at), "gives the instance name '" + instanceName + "', which "
                        + (seen.contains(instanceName) ? "another combination also gets; use distinct values"
                        : "is not " + NAME_RULE + "; shorten the step name or the values"));
                return List.of();
            }
            seen.add(instanceName);
            Optional<Workload> renamed = in.construct(at, () -> renamed(workload, instanceName, parameters));
            renamed.ifPresent(w -> instances.add(new StepInstance(instanceName, parameters, w)));
        }
        return instances;
    }

    /** {@code train} with {@code {LR: 0.1, EPOCHS: 3}} gives {@code train-0-1-3}: values made name-safe. */
    static String instanceName(String step, Map<String, String> parameters) {
        return instanceName(step, parameters, new HashMap<>());
    }

    /** The same, with each value made name-safe once: a matrix repeats its values in many combinations. */
    private static String instanceName(String step, Map<String, String> parameters, Map<String, String> safeValues) {
        StringBuilder name = new StringBuilder(step);
        for (String value : parameters.values()) {
            name.append('-').append(safeValues.computeIfAbsent(value, v -> EDGE_DASHES.matcher(
                    NOT_NAME_SAFE.matcher(v.toLowerCase(Locale.ROOT)).replaceAll("-")).replaceAll("")));
        }
        return name.toString();
    }

    /** The workload under another name, with {@code extraEnv} set (matrix values win over the workload's env). */
    private static Workload renamed(Workload w, String name, Map<String, String> extraEnv) {
        Map<String, String> env = new LinkedHashMap<>(w.env());
        env.putAll(extraEnv);
        return new Workload(name, w.labels(), w.phase(), w.model(), w.resources(), w.modelSize(), w.container(),
                w.command(), w.workingDir(), env, w.secrets(), w.checkpoint(), w.spot(), w.regions(), w.budget(),
                w.estimate(), w.optimize(), w.zones(), w.fabricCheck());
    }
}
