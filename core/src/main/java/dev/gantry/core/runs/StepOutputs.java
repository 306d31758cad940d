package dev.gantry.core.runs;

import dev.gantry.api.Workload;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Values a step hands to later steps. A step declares their names ({@code outputs: [MODEL_URI]}) and publishes each by
 * printing a line {@code gantry-output NAME=VALUE} on standard output, or by writing a line {@code NAME=VALUE} to the
 * file {@code $GANTRY_OUTPUTS} (the last one of a name wins): every backend returns a job's output, so this works the
 * same everywhere. A later step that depends on it uses a value in its environment as
 * {@code ${steps.STEP.outputs.NAME}}, replaced when its job is submitted.
 */
public final class StepOutputs {
    /** How a line that publishes an output starts. */
    public static final String MARKER = "gantry-output ";
    /** The variable naming the file a step may write its outputs to, one {@code NAME=VALUE} a line. */
    public static final String FILE_VARIABLE = "GANTRY_OUTPUTS";
    /**
     * Runs the step's program (its argv, verbatim, as the positional parameters) with {@code $GANTRY_OUTPUTS} naming
     * a new private file, then prints each {@code NAME=VALUE} line of that file as an output line and exits with the
     * program's code. The program runs as a child so that the file is read after it ended; a SIGTERM or SIGINT (a
     * cancel, an eviction, a container's stop) is passed on to it, so a program that checkpoints on SIGTERM still
     * does, and the wait goes on until it really ended.
     */
    static final String COLLECT = """
            GANTRY_OUTPUTS=$(mktemp "${TMPDIR:-/tmp}/gantry-outputs.XXXXXX") || exit 70
            export GANTRY_OUTPUTS
            "$@" &
            child=$!
            trap 'kill -TERM "$child" 2>/dev/null' TERM
            trap 'kill -INT "$child" 2>/dev/null' INT
            wait "$child"
            code=$?
            while kill -0 "$child" 2>/dev/null; do wait "$child"; code=$?; done
            while IFS= read -r line || [ -n "$line" ]; do
              case $line in ?*=*) printf 'gantry-output %s\n' "$line" ;; esac
            done < "$GANTRY_OUTPUTS"
            rm -f -- "$GANTRY_OUTPUTS"
            exit "$code"
            """;
    private static final Pattern REFERENCE = Pattern.compile(
            "\\$\\{steps\\.([a-z0-9]([a-z0-9-]*[a-z0-9])?)\\.outputs\\.([A-Za-z_][A-Za-z0-9_]*)}");
    private static final Pattern ANY = Pattern.compile("\\$\\{steps\\.[^}]*}?");

    /** One use of an output in a workload's environment. */
    public record Reference(String env, String step, String output) {
    }

    private StepOutputs() {
    }

    /** The outputs a job's standard output publishes, by name; the last line of a name wins. */
    public static Map<String, String> parse(List<String> lines) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : lines) {
            if (line.startsWith(MARKER)) {
                String rest = line.substring(MARKER.length());
                int eq = rest.indexOf('=');
                if (eq > 0 && Workload.isValidEnvName(rest.substring(0, eq))) {
                    values.put(rest.substring(0, eq), rest.substring(eq + 1));
                }
            }
        }
        return values;
    }

    /** Every {@code ${steps.STEP.outputs.NAME}} in the workload's environment values. */
    public static List<Reference> references(Workload workload) {
        List<Reference> found = new ArrayList<>();
        workload.env().forEach((env, value) -> {
            Matcher m = REFERENCE.matcher(value);
            while (m.find()) {
                found.add(new Reference(env, m.group(1), m.group(3)));
            }
        });
        return found;
    }

    /** The first {@code ${steps....}} of the environment that is not a well-formed reference, if any. */
    public static Optional<String> malformed(Workload workload) {
        for (String value : workload.env().values()) {
            Matcher any = ANY.matcher(value);
            while (any.find()) {
                if (!REFERENCE.matcher(any.group()).matches()) {
                    return Optional.of(any.group());
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The workload with every reference replaced by its value.
     *
     * @param values the value of a step's output, by step and name; empty when the step did not publish it
     * @throws IllegalStateException naming the first reference that has no value
     */
    public static Workload resolve(Workload workload, BiFunction<String, String, Optional<String>> values) {
        if (references(workload).isEmpty()) {
            return workload;
        }
        Map<String, String> env = new LinkedHashMap<>();
        workload.env().forEach((name, value) -> {
            Matcher m = REFERENCE.matcher(value);
            StringBuilder resolved = new StringBuilder();
            while (m.find()) {
                String step = m.group(1);
                String output = m.group(3);
                String replacement = values.apply(step, output).orElseThrow(() -> new IllegalStateException(
                        "step " + step + " published no output " + output + " for " + name));
                m.appendReplacement(resolved, Matcher.quoteReplacement(replacement));
            }
            m.appendTail(resolved);
            env.put(name, resolved.toString());
        });
        return workload.toBuilder().env(env).build();
    }

    /**
     * The workload run under {@link #COLLECT}, for a step that declares outputs: its program may then write them to
     * {@code $GANTRY_OUTPUTS} as well as print them. It needs {@code /bin/sh} where it runs (in its container image,
     * for a container step).
     */
    public static Workload collecting(Workload workload) {
        List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c", COLLECT, "gantry-outputs"));
        argv.addAll(workload.command());
        return workload.toBuilder().command(argv).build();
    }
}
