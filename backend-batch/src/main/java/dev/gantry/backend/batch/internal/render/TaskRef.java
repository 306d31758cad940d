package dev.gantry.backend.batch.internal.render;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where a Gantry job is in Batch, and its {@code JobRef.id} (and {@code GANTRY_JOB_ID}):
 * {@code ACCOUNT.JOB.TASK}. A {@code .} appears in none of the three: account names are letters and digits, and
 * Gantry's job and task ids are drawn from letters, digits, '-' and '_'.
 *
 * @param account the account's name
 * @param jobId the Batch job (one per pool)
 * @param taskId the task, {@code JobNames.caseInsensitiveId(idempotencyKey, 64)}
 */
public record TaskRef(String account, String jobId, String taskId) {
    private static final Pattern PART = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    public TaskRef {
        check("account", account);
        check("jobId", jobId);
        check("taskId", taskId);
    }

    /** {@code ACCOUNT.JOB.TASK}. */
    public String id() {
        return account + "." + jobId + "." + taskId;
    }

    /** The reference an id names, or empty when it is not of the form {@code ACCOUNT.JOB.TASK}. */
    public static Optional<TaskRef> parse(String id) {
        String[] parts = id.split("\\.", -1);
        if (parts.length != 3 || !PART.matcher(parts[0]).matches() || !PART.matcher(parts[1]).matches()
                || !PART.matcher(parts[2]).matches()) {
            return Optional.empty();
        }
        return Optional.of(new TaskRef(parts[0], parts[1], parts[2]));
    }

    private static void check(String field, String value) {
        Objects.requireNonNull(value, field);
        if (!PART.matcher(value).matches()) {
            throw new IllegalArgumentException(field + " must be 1-64 letters, digits, '-' or '_', got '" + value + "'");
        }
    }

    @Override
    public String toString() {
        return id();
    }
}
