package dev.gantry.core.spec;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.SourceLocation;
import dev.gantry.api.Workload;
import dev.gantry.core.spec.yaml.Binder;
import dev.gantry.core.spec.yaml.YamlText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Reads workload specs ({@code apiVersion: gantry.dev/v1}, {@code kind: Workload}) from YAML. Every problem of a
 * document is reported at once, each with file, line, column and field path, as
 * {@code train.yaml:12:5: resources.gpus: must be between 0 and 16, got -1}. Stateless and thread-safe.
 */
public final class SpecReader {

    public SpecReader() {
    }

    /**
     * Reads and validates a spec file.
     *
     * @throws GantryException {@link ErrorCode#SPEC_INVALID} with every located problem, one per line of the message
     */
    public Workload read(Path file) {
        return read(file.toString(), load(file));
    }

    /** Reads and validates spec text; {@code fileName} is what problems name as the file. */
    public Workload read(String fileName, String yamlText) {
        Result result = bind(fileName, yamlText);
        if (!result.problems().isEmpty()) {
            throw GantryException.invalid(ErrorCode.SPEC_INVALID, result.problems());
        }
        return result.workload().orElseThrow();
    }

    /** Every problem of a spec file, sorted by line and column; empty when it is valid. */
    public List<Problem> validate(Path file) {
        String text;
        try {
            text = load(file);
        } catch (GantryException e) {
            return e.problems();
        }
        return validate(file.toString(), text);
    }

    /** Every problem of spec text, sorted by line and column; empty when it is valid. */
    public List<Problem> validate(String fileName, String yamlText) {
        return bind(fileName, yamlText).problems();
    }

    private record Result(Optional<Workload> workload, List<Problem> problems) {
    }

    private static Result bind(String fileName, String yamlText) {
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
        Optional<Workload> workload = new WorkloadBinder(binder).bind(parsed.root().get());
        List<Problem> problems = binder.problems();
        return new Result(problems.isEmpty() ? workload : Optional.empty(), problems);
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
