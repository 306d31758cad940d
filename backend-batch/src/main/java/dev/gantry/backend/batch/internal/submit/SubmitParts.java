package dev.gantry.backend.batch.internal.submit;

import dev.gantry.api.Plan;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.backend.batch.internal.BatchSettings;
import dev.gantry.backend.batch.internal.pools.PoolEnsurer;
import dev.gantry.backend.batch.internal.records.TaskEntries;
import dev.gantry.backend.batch.internal.remote.Accounts;
import dev.gantry.backend.batch.internal.remote.AzureModule;
import dev.gantry.backend.batch.internal.remote.BatchCalls;
import dev.gantry.backend.batch.internal.remote.BlobStore;
import dev.gantry.backend.batch.internal.remote.IdentityPools;
import dev.gantry.backend.batch.internal.render.TaskChunks;
import dev.gantry.backend.batch.internal.secrets.SecretBlobs;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The submit path wired for production, for the backend to hold: one of each per backend instance. The status side
 * shares {@link #accounts}, {@link #calls} and {@link #entries} (one connection per account, one retry policy, one
 * view of the state directory per process) and deletes secret blobs through {@link #secrets}.
 */
public record SubmitParts(Accounts accounts, BatchCalls calls, PoolEnsurer pools, SecretBlobs secrets,
                          TaskEntries entries, TaskSubmitter submitter) {
    /**
     * @param containerRunOptions the container run options of a plan (the hosts module's)
     */
    public static SubmitParts of(BatchSettings settings, BackendContext context,
                                 Function<Plan, List<String>> containerRunOptions) {
        return of(settings, context, containerRunOptions, Accounts.of(settings, context.secrets()),
                () -> AzureModule.identityPools("backends.batch." + BatchSettings.POOL_IDENTITY),
                () -> AzureModule.blobs("backends.batch." + BatchSettings.SECRETS_CONTAINER_URL));
    }

    /**
     * The submit path over the given connections and gantry-azure seams (tests: a fake's, with a test certificate or
     * a fake Resource Manager and blob service).
     *
     * @param identityPools where pools with an identity are made (asked only for those)
     * @param blobs where secrets blobs are written (asked only for a plan with secrets)
     */
    public static SubmitParts of(BatchSettings settings, BackendContext context,
                                 Function<Plan, List<String>> containerRunOptions, Accounts accounts,
                                 Supplier<IdentityPools> identityPools, Supplier<BlobStore> blobs) {
        return of(settings, context, containerRunOptions, accounts, identityPools, blobs,
                new BatchCalls(BatchCalls.Policy.defaults()), PoolEnsurer.DeletionWait.defaults());
    }

    /**
     * The same, with the retry policy given (tests: one that records its waits instead of sleeping them).
     *
     * @param calls the one retry and quota policy, for the status side too
     */
    public static SubmitParts of(BatchSettings settings, BackendContext context,
                                 Function<Plan, List<String>> containerRunOptions, Accounts accounts,
                                 Supplier<IdentityPools> identityPools, Supplier<BlobStore> blobs, BatchCalls calls) {
        return of(settings, context, containerRunOptions, accounts, identityPools, blobs, calls,
                PoolEnsurer.DeletionWait.defaults());
    }

    /**
     * As {@link #of(BatchSettings, BackendContext, Function, Accounts, Supplier, Supplier)}, waiting for a pool or job
     * being deleted as told (tests: a fake removes a pool in a fraction of a second, Batch in minutes).
     */
    public static SubmitParts of(BatchSettings settings, BackendContext context,
                                 Function<Plan, List<String>> containerRunOptions, Accounts accounts,
                                 Supplier<IdentityPools> identityPools, Supplier<BlobStore> blobs,
                                 PoolEnsurer.DeletionWait deletionWait) {
        return of(settings, context, containerRunOptions, accounts, identityPools, blobs,
                new BatchCalls(BatchCalls.Policy.defaults()), deletionWait);
    }

    /** The submit path with its retry policy and its wait for pools and jobs being deleted given. */
    public static SubmitParts of(BatchSettings settings, BackendContext context,
                                 Function<Plan, List<String>> containerRunOptions, Accounts accounts,
                                 Supplier<IdentityPools> identityPools, Supplier<BlobStore> blobs, BatchCalls calls,
                                 PoolEnsurer.DeletionWait deletionWait) {
        PoolEnsurer pools = new PoolEnsurer(settings, accounts, calls, identityPools, deletionWait);
        SecretBlobs secrets = new SecretBlobs(settings.secretsContainer(), context.secrets(), blobs);
        TaskEntries entries = TaskEntries.in(context.stateDirectory());
        TaskSubmitter submitter = new TaskSubmitter(settings, accounts, calls, pools, secrets, entries,
                containerRunOptions, TaskChunks::chunk, TaskSubmitter.DEFAULT_CHUNKS_IN_FLIGHT, context.clock());
        return new SubmitParts(accounts, calls, pools, secrets, entries, submitter);
    }
}
