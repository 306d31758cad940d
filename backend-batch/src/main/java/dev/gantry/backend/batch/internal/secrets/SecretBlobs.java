package dev.gantry.backend.batch.internal.secrets;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.SecretRef;
import dev.gantry.api.backend.Secret;
import dev.gantry.api.backend.SecretResolver;
import dev.gantry.backend.batch.internal.BatchSettings;
import dev.gantry.backend.batch.internal.remote.BlobStore;
import dev.gantry.backend.batch.internal.render.SecretsFile;
import dev.gantry.backend.batch.internal.render.TaskBody;
import dev.gantry.backend.batch.internal.render.TaskRef;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A task's secrets on their way to its node: each value is resolved at submit and written from memory, as the
 * secrets file, to one blob under {@code secrets.containerUrl}; the task names that blob as a resource file read with
 * the pool's identity ({@link TaskBody.SecretsBlob}), so no task definition carries a value. The status side deletes
 * the blob once the task has ended ({@link #delete}); gc deletes orphans under {@link #PREFIX}.
 */
public final class SecretBlobs {
    /** Where Gantry's secret blobs are in the container: {@code gantry-secrets/ACCOUNT/JOB/TASK}. */
    public static final String PREFIX = "gantry-secrets/";

    private final Optional<URI> container;
    private final SecretResolver resolver;
    private final Supplier<BlobStore> blobs;

    /**
     * @param blobs asked only when a task with secrets is first submitted (the optional module is needed then)
     */
    public SecretBlobs(Optional<URI> container, SecretResolver resolver, Supplier<BlobStore> blobs) {
        this.container = Objects.requireNonNull(container, "container");
        this.resolver = Objects.requireNonNull(resolver, "resolver");
        this.blobs = Objects.requireNonNull(blobs, "blobs");
    }

    /** The blob name of a task's secrets: derived from its ref, so a resubmit writes the same blob again. */
    public static String blobName(TaskRef ref) {
        return PREFIX + ref.account() + "/" + ref.jobId() + "/" + ref.taskId();
    }

    /**
     * Resolves the secrets and writes them to the task's blob; answers where the task reads it.
     *
     * @param identity the user-assigned identity of the task's pool; USAGE with the fix when there is none or no
     *     container is configured (validate refuses such a plan first)
     */
    public TaskBody.SecretsBlob put(TaskRef ref, Map<String, SecretRef> secrets, Optional<String> identity) {
        requireReadable(ref, identity);
        Map<String, Secret> resolved = new LinkedHashMap<>();
        secrets.forEach((name, secretRef) -> resolved.put(name, resolver.resolve(secretRef)));
        byte[] content = SecretsFile.render(resolved).getBytes(StandardCharsets.UTF_8);
        try {
            String url = blobs.get().put(container.get().toString(), blobName(ref), content);
            return new TaskBody.SecretsBlob(url, identity.get());
        } finally {
            Arrays.fill(content, (byte) 0);
        }
    }

    /**
     * Refuses, with the fix, a task with secrets that could never read them: no container is configured, or its
     * pool has no identity. The submit path asks before it makes the task's pool and job, which would otherwise be
     * made for a task that is never sent.
     *
     * @throws GantryException USAGE naming the settings that would carry the secrets
     */
    public void requireReadable(TaskRef ref, Optional<String> identity) {
        if (container.isEmpty() || identity.isEmpty()) {
            throw new GantryException(ErrorCode.USAGE, "task " + ref + " has secrets, which reach a Batch task only "
                    + "through a blob read with the pool's identity: set backends.batch."
                    + BatchSettings.SECRETS_CONTAINER_URL + " and backends.batch." + BatchSettings.POOL_IDENTITY
                    + " (a pool listed under pools[*] is used without an identity)");
        }
    }

    /** Deletes a task's secrets blob (by the name its entry keeps); false when it was already gone. */
    public boolean delete(String blobName) {
        if (container.isEmpty()) {
            return false;
        }
        return blobs.get().delete(container.get().toString(), blobName);
    }
}
