package dev.gantry.backend.batch.internal.pools;

import com.microsoft.azure.batch.protocol.models.TaskGetOptions;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.IdleResource;
import dev.gantry.azure.storage.Blobs;
import dev.gantry.azure.storage.StoredBlob;
import dev.gantry.backend.batch.internal.BatchSettings;
import dev.gantry.backend.batch.internal.remote.AccountCalls;
import dev.gantry.backend.batch.internal.secrets.SecretBlobs;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The secrets blobs {@code gantry gc} deletes: a task's secrets blob is deleted once the task has ended, but a
 * process that stopped in between leaves it behind. A blob of this account's tasks under {@code secrets.containerUrl}
 * older than {@code taskRetention} whose task Batch no longer has is an orphan (kind {@value #KIND}), reported and
 * released like an idle pool. Blob names are {@link #name PREFIX/ACCOUNT/JOB/TASK}, so the task is found from the
 * name; any other blob in the container is left alone.
 */
public final class OrphanedSecrets {
    public static final String KIND = "secret-blob";
    /** Where the submit path writes a task's secrets. */
    public static final String PREFIX = SecretBlobs.PREFIX;

    private final String accountName;
    private final BatchSettings settings;
    private final AccountCalls calls;
    private final Blobs blobs;
    private final Clock clock;

    /**
     * @param accountName the account's name, as task refs carry it
     * @param calls the account's calls, each through the one retry policy
     * @param blobs gantry-azure's blob calls, with Gantry's Entra ID credential
     */
    public OrphanedSecrets(String accountName, BatchSettings settings, AccountCalls calls, Blobs blobs,
            Clock clock) {
        this.accountName = Objects.requireNonNull(accountName, "accountName");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.calls = Objects.requireNonNull(calls, "calls");
        this.blobs = Objects.requireNonNull(blobs, "blobs");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The name of a task's secrets blob, as the submit path writes it. */
    public static String name(String accountName, String jobId, String taskId) {
        return PREFIX + accountName + "/" + jobId + "/" + taskId;
    }

    /** Where these blobs are, as {@link IdleResource#location()} says it: the container's URL. */
    public Optional<String> location() {
        return settings.secretsContainer().map(URI::toString);
    }

    /** Orphaned secrets blobs of this account's tasks; none when no secrets container is configured. */
    public List<IdleResource> idleResources() {
        if (location().isEmpty()) {
            return List.of();
        }
        List<IdleResource> orphans = new ArrayList<>();
        for (StoredBlob blob : blobs.list(location().get(), PREFIX + accountName + "/")) {
            Optional<String[]> task = task(blob.name());
            Duration age = Duration.between(blob.lastModified(), clock.instant());
            if (task.isPresent() && age.compareTo(settings.taskRetention()) >= 0 && !taskExists(task.get())) {
                orphans.add(new IdleResource(KIND, blob.name(), location(), "secrets blob of task " + task.get()[1]
                        + " of job " + task.get()[0] + ", which Batch no longer has; older than taskRetention ("
                        + settings.taskRetention().toDays() + "d)", Optional.of(blob.lastModified()),
                        Optional.empty()));
            }
        }
        return orphans;
    }

    /** Deletes the blob after checking its task is still gone; false when the task is back (a resubmit). */
    public boolean release(IdleResource resource) {
        Optional<String[]> task = task(resource.id());
        if (!KIND.equals(resource.kind()) || location().isEmpty() || !resource.location().equals(location())
                || task.isEmpty()) {
            throw new GantryException(ErrorCode.USAGE, "the batch backend does not hold " + resource.describe()
                    + " as a secrets blob of account " + accountName + " in " + location()
                    .orElse("its (unset) secrets.containerUrl") + "; list what it holds idle with: gantry gc "
                    + "--dry-run");
        }
        if (taskExists(task.get())) {
            return false;
        }
        blobs.delete(location().get(), resource.id());
        return true;
    }

    /** The job and task of a blob named {@code PREFIX/ACCOUNT/JOB/TASK} of this account; empty for any other. */
    private Optional<String[]> task(String blobName) {
        String head = PREFIX + accountName + "/";
        if (!blobName.startsWith(head)) {
            return Optional.empty();
        }
        String[] parts = blobName.substring(head.length()).split("/", -1);
        return parts.length == 2 && !parts[0].isEmpty() && !parts[1].isEmpty() ? Optional.of(parts)
                : Optional.empty();
    }

    /** {@code Task_Get} with only its id; false when the task or its job is gone. */
    private boolean taskExists(String[] jobAndTask) {
        return calls.callOrEmpty("reading task " + jobAndTask[1] + " of job " + jobAndTask[0],
                AccountCalls.notFound(), batch -> batch.tasks().get(jobAndTask[0], jobAndTask[1],
                        new TaskGetOptions().withSelect("id"))).isPresent();
    }
}
