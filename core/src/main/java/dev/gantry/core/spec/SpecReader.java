package dev.gantry.core.spec;

import dev.gantry.model.SpecDocument;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.SourceLocation;
import dev.gantry.api.Workload;
import dev.gantry.model.WorkflowDefinition;
import dev.gantry.core.spec.yaml.Binder;
import dev.gantry.core.spec.yaml.YamlNode;
import dev.gantry.core.spec.yaml.YamlText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads workload specs ({@code apiVersion: gantry.dev/v1}, {@code kind: Workload}) and workflows of steps
 * ({@code kind: Workflow}) from YAML. Every problem of a document is reported at once, each with file, line, column
 * and field path, as {@code train.yaml:12:5: resources.gpus: must be between 0 and 16, got -1}. A workflow step's
 * {@code file:} is read relative to the workflow file's directory, and its problems name that file. Stateless and
 * thread-safe.
 */
public final class SpecReader {

    /** Which kinds a caller takes; a document of another kind is a problem at its {@code kind:}. */
    private enum Expect { ANY, WORKLOAD, WORKFLOW }

    /** The most jobs a workflow may expand to ({@code runs.maxJobs}); above it, the workflow is a problem. */
    private final int maxJobs;

    /** A reader that takes workflows of any size. */
    public SpecReader() {
        this(Integer.MAX_VALUE);
    }

    /**
     * A reader that refuses a workflow of more than {@code maxJobs} jobs, its matrices expanded: a problem at its
     * largest step, before any matrix is.
     */
    public SpecReader(int maxJobs) {
        if (maxJobs <= 0) {
            throw new IllegalArgumentException("maxJobs is 1 or more: " + maxJobs);
        }
        this.maxJobs = maxJobs;
    }

    /**
     * Reads and validates a workload spec file; a workflow file is a problem (use {@link #readAny(Path)}).
     *
     * @throws GantryException {@link ErrorCode#SPEC_INVALID} with every located problem, one per line of the message
     */
    public Workload read(Path file) {
        return read(file.toString(), load(file));
    }

    /** Reads and validates workload spec text; {@code fileName} is what problems name as the file. */
    public Workload read(String fileName, String yamlText) {
        return ((SpecDocument.WorkloadSpec) document(fileName, yamlText, Expect.WORKLOAD)).workload();
    }

    /**
     * Reads and validates a workflow file.
     *
     * @throws GantryException {@link ErrorCode#SPEC_INVALID} with every located problem, a workload spec included
     */
    public WorkflowDefinition readWorkflow(Path file) {
        return readWorkflow(file.toString(), load(file));
    }

    /** Reads and validates workflow text; {@code fileName} is what problems name, and where step files are found. */
    public WorkflowDefinition readWorkflow(String fileName, String yamlText) {
        return ((SpecDocument.WorkflowSpec) document(fileName, yamlText, Expect.WORKFLOW)).workflow();
    }

    /**
     * Reads and validates a spec file of either kind.
     *
     * @throws GantryException {@link ErrorCode#SPEC_INVALID} with every located problem
     */
    public SpecDocument readAny(Path file) {
        return readAny(file.toString(), load(file));
    }

    /** Reads and validates spec text of either kind; {@code fileName} is what problems name as the file. */
    public SpecDocument readAny(String fileName, String yamlText) {
        return document(fileName, yamlText, Expect.ANY);
    }

    /** Every problem of a spec file (a workload or a workflow), sorted by line and column; empty when it is valid. */
    public List<Problem> validate(Path file) {
        return check(file).problems();
    }

    /** Every problem of spec text (a workload or a workflow), sorted by line and column; empty when it is valid. */
    public List<Problem> validate(String fileName, String yamlText) {
        return bind(fileName, yamlText, Expect.ANY, maxJobs).problems();
    }

    private SpecDocument document(String fileName, String yamlText, Expect expect) {
        Result result = bind(fileName, yamlText, expect, maxJobs);
        if (!result.problems().isEmpty()) {
            throw GantryException.invalid(ErrorCode.SPEC_INVALID, result.problems());
        }
        return result.document().orElseThrow();
    }

    /**
     * What {@link #check} found: the document when it has no problems, and every problem.
     *
     * @param document the spec as read; empty when it has problems
     */
    public record Result(Optional<SpecDocument> document, List<Problem> problems) {
        public Result {
            Objects.requireNonNull(document, "document");
            problems = List.copyOf(problems);
        }
    }

    /**
     * Reads a spec file of either kind: the document when it is valid (a workflow with its job count), and every
     * problem, sorted by line and column, as {@link #validate(Path)} gives them.
     */
    public Result check(Path file) {
        String text;
        try {
            text = load(file);
        } catch (GantryException e) {
            return new Result(Optional.empty(), e.problems());
        }
        return bind(file.toString(), text, Expect.ANY, maxJobs);
    }

    private static Result bind(String fileName, String yamlText, Expect expect, int maxJobs) {
        YamlText.Parsed parsed = YamlText.parse(fileName, yamlText);
        Binder binder = new Binder(fileName);
        binder.addAll(parsed.problems().stream().map(SpecReader::withoutSpecPrefix).toList());
        if (parsed.empty()) {
            binder.report("", new SourceLocation(fileName, 1, 1), "the file is empty; a workload starts with "
                    + "apiVersion: gantry.dev/v1 and kind: Workload");
        }
        if (parsed.root().isEmpty()) {
            return new Result(Optional.empty(), binder.problems());
        }
        YamlNode root = parsed.root().get();
        Optional<SpecDocument> document;
        if (isWorkflow(root)) {
            YamlNode.Mapping doc = (YamlNode.Mapping) root;
            WorkflowBinder workflows = new WorkflowBinder(binder, directoryOf(fileName), SpecReader::stepFile,
                    maxJobs);
            document = workflows.bind(doc).map(w -> new SpecDocument.WorkflowSpec(w, workflows.referencedFiles()));
            if (expect == Expect.WORKLOAD) {
                binder.report("kind", binder.keyLocation(doc, "kind"), "must be Workload here, got 'Workflow'; this "
                        + "takes a single workload, not a workflow of steps");
            }
        } else {
            document = new WorkloadBinder(binder).bind(root).map(SpecDocument.WorkloadSpec::new);
            if (expect == Expect.WORKFLOW && root instanceof YamlNode.Mapping doc && document.isPresent()) {
                binder.report("kind", binder.keyLocation(doc, "kind"), "must be Workflow here, got 'Workload'; wrap "
                        + "the workload in a workflow step, or run it on its own");
            }
        }
        List<Problem> problems = ownFileFirst(fileName, binder.problems());
        return new Result(problems.isEmpty() ? document : Optional.empty(), problems);
    }

    /**
     * This file's problems first, then those of the step files it names, file by file: sorting all by line alone
     * would interleave lines of different files.
     */
    private static List<Problem> ownFileFirst(String fileName, List<Problem> sorted) {
        Map<String, List<Problem>> byFile = new LinkedHashMap<>();
        byFile.put(fileName, new ArrayList<>());
        for (Problem problem : sorted) {
            String file = problem.location().map(SourceLocation::file).orElse(fileName);
            byFile.computeIfAbsent(file, f -> new ArrayList<>()).add(problem);
        }
        return byFile.values().stream().flatMap(List::stream).toList();
    }

    /** {@code kind: Workflow} at the top; everything else is bound (and reported on) as a workload. */
    private static boolean isWorkflow(YamlNode root) {
        return root instanceof YamlNode.Mapping doc && doc.entry("kind").map(YamlNode.Entry::value)
                .filter(v -> v instanceof YamlNode.Scalar s && s.type() == YamlNode.ScalarType.STRING
                        && s.text().equals("Workflow")).isPresent();
    }

    private static Path directoryOf(String fileName) {
        try {
            return Path.of(fileName).getParent();
        } catch (InvalidPathException e) {
            return null;
        }
    }

    /** Reads a workload spec file that a workflow step names; a workflow there is not read, so files cannot loop. */
    private static WorkflowBinder.FileResult stepFile(Path file) {
        String text;
        try {
            text = load(file);
        } catch (GantryException e) {
            return new WorkflowBinder.FileResult(Optional.empty(), e.problems(), false);
        }
        String name = file.toString();
        if (YamlText.parse(name, text).root().filter(SpecReader::isWorkflow).isPresent()) {
            return new WorkflowBinder.FileResult(Optional.empty(), List.of(), true);
        }
        Result result = bind(name, text, Expect.WORKLOAD, Integer.MAX_VALUE);
        return new WorkflowBinder.FileResult(result.document().map(d -> ((SpecDocument.WorkloadSpec) d).workload()),
                result.problems(), false);
    }

    /** Spec fields are named without the {@code spec.} prefix, as everywhere else in spec problems. */
    private static Problem withoutSpecPrefix(Problem problem) {
        String path = problem.path();
        return path.startsWith("spec.") ? new Problem(problem.location(), path.substring(5), problem.message())
                : path.startsWith("spec[") ? new Problem(problem.location(), path.substring(4), problem.message())
                : problem;
    }

    private static String load(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw unreadable(file, "no such file");
        } catch (IOException e) {
            throw unreadable(file, Files.isDirectory(file) ? "it is a directory" : e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        }
    }

    private static GantryException unreadable(Path file, String why) {
        return GantryException.invalid(ErrorCode.SPEC_INVALID,
                List.of(Problem.of("", "cannot read workload spec " + file + ": " + why)));
    }
}
