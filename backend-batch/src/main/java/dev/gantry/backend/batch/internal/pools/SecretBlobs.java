package dev.gantry.backend.batch.internal.pools;

import com.microsoft.azure.batch.protocol.BatchServiceClient;
import com.microsoft.azure.batch.protocol.models.BatchErrorException;
import com.microsoft.azure.batch.protocol.models.TaskGetOptions;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.IdleResource;
import dev.gantry.azure.storage.Blobs;
import dev.gantry.azure.storage.StoredBlob;
import dev.gantry.backend.batch.internal.BatchSettings;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The secrets blobs {@code gantry gc} deletes: a task's secrets blob is deleted once the task has ended, but a
 * process that stopped in between leaves it behind. A blob under {@code secrets.containerUrl} older than
 * {@code taskRetention} whose task Batch no longer has is an orphan (kind {@value #KIND}), reported and released
 * like an idle pool. Blob names are {@link #name(String, String) JOB/TASK}, so the task is found from the name.
 */
public final class SecretBlobs {
    public static final String KIND = "secret-blob";

    private final BatchSettings settings;
    private final BatchServiceClient batch;
    private final Blobs blobs;
    private final Clock clock;

    /**
     * @param batch the protocol client of the account whose tasks the blobs belong to
     * @param blobs gantry-azure's blob calls, with Gantry's Entra ID credential
     */
    public SecretBlobs(BatchSettings settings, BatchServiceClient batch, Blobs blobs, Clock clock) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.batch = Objects.requireNonNull(batch, "batch");
        this.blobs = Objects.requireNonNull(blobs, "blobs");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The name of a task's secrets blob: {@code JOB/TASK}; job ids start with the pool prefix. */
    public static String name(String jobId, String taskId) {
        return jobId + "/" + taskId;
    }

    /** Where these blobs are, as {@link IdleResource#location()} says it: the container's URL. */
    public Optional<String> location() {
        return settings.secretsContainer().map(URI::toString);
    }

    /** Orphaned secrets blobs; none when no secrets container is configured. */
    public List<IdleResource> idleResources() {
        if (location().isEmpty()) {
            return List.of();
        }
        List<IdleResource> orphans = new ArrayList<>();
        for (StoredBlob blob : blobs.list(location().get(), settings.poolPrefix())) {
            if (isOrphan(blob)) {
                orphans.add(new IdleResource(KIND, blob.name(), location(), "secrets blob of task " + blob.name()
                        + ", which Batch no longer has; older than taskRetention ("
                        + settings.taskRetention().toDays() + "d)", Optional.of(blob.lastModified()),
                        Optional.empty()));
            }
        }
        return orphans;
    }

    /** Deletes the blob after checking its task is still gone; false when the task is back (a resubmit). */
    public boolean release(IdleResource resource) {
        if (!KIND.equals(resource.kind()) || location().isEmpty() || !resource.location().equals(location())
                || !isTaskBlob(resource.id())) {
            throw new GantryException(ErrorCode.USAGE, "the batch backend does not hold " + resource.describe()
                    + " as a secrets blob of " + location().orElse("its (unset) secrets.containerUrl")
                    + "; list what it holds idle with: gantry gc --dry-run");
        }
        if (taskExists(resource.id())) {
            return false;
        }
        blobs.delete(location().get(), resource.id());
        return true;
    }

    /** A blob named JOB/TASK, old enough, whose task Batch no longer has; any other blob is left alone. */
    private boolean isOrphan(StoredBlob blob) {
        Duration age = Duration.between(blob.lastModified(), clock.instant());
        return isTaskBlob(blob.name()) && age.compareTo(settings.taskRetention()) >= 0 && !taskExists(blob.name());
    }

    private static boolean isTaskBlob(String name) {
        int slash = name.indexOf('/');
        return slash > 0 && slash == name.lastIndexOf('/') && slash < name.length() - 1;
    }

    /** Whether Batch still has the blob's task. */
    private boolean taskExists(String blobName) {
        int slash = blobName.indexOf('/');
        return task(blobName.substring(0, slash), blobName.substring(slash + 1));
    }

    /** {@code Task_Get} with only its id; false when the task or its job is gone. */
    private boolean task(String jobId, String taskId) {
        try {
            batch.tasks().get(jobId, taskId, new TaskGetOptions().withSelect("id"));
            return true;
        } catch (BatchErrorException e) {
            if (e.response() != null && e.response().code() == 404) {
                return false;
            }
            throw new GantryException(ErrorCode.REMOTE_ERROR, "Batch answered " + (e.response() == null ? 0
                    : e.response().code()) + " while reading task " + taskId + " of job " + jobId + ": "
                    + e.getMessage());
        }
    }
}
