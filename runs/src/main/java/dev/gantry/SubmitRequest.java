package dev.gantry;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.SubmitOptions;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link Gantry#submit(SubmitRequest)} submits: a plan, and optionally the idempotency key that becomes the job
 * id, the spec file the plan came from and labels for the job. Immutable: each named method returns a new request, and
 * checks its value at once, failing with USAGE naming the field, the value, the rule and the fix.
 *
 * <pre>{@code
 * JobRecord job = gantry.submit(SubmitRequest.of(plan)
 *         .idempotencyKey("nightly-2026-11-29")
 *         .specFile(Path.of("train.yaml"))
 *         .label("team", "search"));
 * }</pre>
 *
 * <p>Labels are the workload's: they are added to the plan's workload labels ({@code metadata.labels}; on the same
 * key the request's value wins), follow the same rule, reach the backend with the plan and are kept in the job's
 * record ({@link dev.gantry.model.JobRecord#labels()}), where {@link Gantry#jobs()} and {@code gantry status --output
 * json} show them; {@code gantry run --label KEY=VALUE} gives them on the command line.
 */
public final class SubmitRequest {
    private final Plan plan;
    private final Optional<String> idempotencyKey;
    private final Optional<Path> specFile;
    private final Map<String, String> labels;

    private SubmitRequest(Plan plan, Optional<String> idempotencyKey, Optional<Path> specFile,
            Map<String, String> labels) {
        this.plan = plan;
        this.idempotencyKey = idempotencyKey;
        this.specFile = specFile;
        this.labels = Collections.unmodifiableMap(labels);
    }

    /**
     * A request to submit {@code plan} under a fresh job id, with no spec file and no labels of its own.
     *
     * @param plan what to run, as {@link Gantry#plan} made it
     * @return the request
     * @throws NullPointerException when {@code plan} is null
     */
    public static SubmitRequest of(Plan plan) {
        return new SubmitRequest(Objects.requireNonNull(plan, "plan"), Optional.empty(), Optional.empty(), Map.of());
    }

    /**
     * This request with {@code key} as its idempotency key, which is also the job id: submitting the same key again
     * returns the same job instead of starting a second one.
     *
     * @param key the key, {@link SubmitOptions#KEY_RULE}
     * @return a new request with that key
     * @throws GantryException USAGE when the key is blank or holds characters a job id cannot carry
     */
    public SubmitRequest idempotencyKey(String key) {
        if (key == null || key.isBlank()) {
            throw usage("idempotencyKey", "must not be blank, got " + (key == null ? "null" : "'" + key + "'")
                    + "; leave it unset for a fresh job id, or give one that names this submit (for example "
                    + "nightly-2026-11-29)");
        }
        if (!SubmitOptions.isValidKey(key)) {
            throw usage("idempotencyKey", "'" + key + "' is not a job id: it must be " + SubmitOptions.KEY_RULE
                    + "; replace the other characters (for example with '-') or shorten it");
        }
        return new SubmitRequest(plan, Optional.of(key), specFile, labels);
    }

    /**
     * This request recording {@code file} as the spec the plan came from (shown with the job, for example).
     *
     * @param file the spec file, recorded as given
     * @return a new request with that spec file
     * @throws NullPointerException when {@code file} is null
     */
    public SubmitRequest specFile(Path file) {
        return new SubmitRequest(plan, idempotencyKey, Optional.of(Objects.requireNonNull(file, "specFile")), labels);
    }

    /**
     * This request with these labels added to those given before (a later value wins on the same key).
     *
     * @throws GantryException USAGE when a key or a value is null or breaks the workload's label rule
     *     ({@link Workload#labelProblems})
     * @param values the labels to add, in the order to keep them
     * @return a new request with the merged labels
     */
    public SubmitRequest labels(Map<String, String> values) {
        if (values == null) {
            throw usage("labels", "must not be null; give an empty map for no labels");
        }
        Map<String, String> merged = new LinkedHashMap<>(labels);
        values.forEach((key, value) -> {
            if (key == null || value == null) {
                throw usage("labels." + key, "a label's key and value must not be null, got " + key + "=" + value
                        + "; leave the label out instead");
            }
            merged.put(key, value);
        });
        List<Problem> problems = Workload.labelProblems("labels", merged);
        if (!problems.isEmpty()) {
            throw new GantryException(ErrorCode.USAGE, "submit request: " + String.join("; ", problems.stream()
                    .map(Problem::toString).toList()) + "; rename the key or shorten the value", problems, null);
        }
        return new SubmitRequest(plan, idempotencyKey, specFile, merged);
    }

    /**
     * This request with one more label; see {@link #labels(Map)}.
     *
     * @param key the label's key
     * @param value its value
     * @return a new request with the label added
     * @throws GantryException USAGE as {@link #labels(Map)} throws it
     */
    public SubmitRequest label(String key, String value) {
        Map<String, String> one = new LinkedHashMap<>();
        one.put(key, value);
        return labels(one);
    }

    /** {@return the plan to submit, without the request's labels} */
    public Plan plan() {
        return plan;
    }

    /** {@return the idempotency key, which becomes the job id; empty for a fresh id} */
    public Optional<String> idempotencyKey() {
        return idempotencyKey;
    }

    /** {@return the spec file the plan came from; empty when none was given} */
    public Optional<Path> specFile() {
        return specFile;
    }

    /** {@return the labels this request adds to the workload's own, in the order given; unmodifiable} */
    public Map<String, String> labels() {
        return labels;
    }

    /** The plan as submitted: its workload carries the request's labels over its own. */
    Plan labelledPlan() {
        if (labels.isEmpty()) {
            return plan;
        }
        return plan.withWorkload(plan.workload().toBuilder().labels(labels).build());
    }

    @Override
    public String toString() {
        return "SubmitRequest[workload=" + plan.workload().name() + ", idempotencyKey=" + idempotencyKey
                + ", specFile=" + specFile + ", labels=" + labels + "]";
    }

    private static GantryException usage(String field, String message) {
        Problem problem = Problem.of(field, message);
        return new GantryException(ErrorCode.USAGE, "submit request: " + problem, List.of(problem), null);
    }
}
