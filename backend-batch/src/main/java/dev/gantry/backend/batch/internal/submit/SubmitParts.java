package dev.gantry.backend.batch.internal.submit;

import dev.gantry.api.Plan;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.backend.batch.internal.BatchSettings;
import dev.gantry.backend.batch.internal.pools.PoolEnsurer;
import dev.gantry.backend.batch.internal.records.TaskEntries;
import dev.gantry.backend.batch.internal.remote.Accounts;
import dev.gantry.backend.batch.internal.remote.AzureModule;
import dev.gantry.backend.batch.internal.remote.BatchCalls;
import dev.gantry.backend.batch.internal.render.TaskChunks;
import dev.gantry.backend.batch.internal.secrets.SecretBlobs;
import java.util.List;
import java.util.function.Function;

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
        Accounts accounts = Accounts.of(settings, context.secrets());
        BatchCalls calls = new BatchCalls(BatchCalls.Policy.defaults());
        PoolEnsurer pools = new PoolEnsurer(settings, accounts, calls,
                () -> AzureModule.identityPools("backends.batch." + BatchSettings.POOL_IDENTITY),
                PoolEnsurer.DeletionWait.defaults());
        SecretBlobs secrets = new SecretBlobs(settings.secretsContainer(), context.secrets(),
                () -> AzureModule.blobs("backends.batch." + BatchSettings.SECRETS_CONTAINER_URL));
        TaskEntries entries = TaskEntries.in(context.stateDirectory());
        TaskSubmitter submitter = new TaskSubmitter(settings, accounts, calls, pools, secrets, entries,
                containerRunOptions, TaskChunks::chunk, TaskSubmitter.DEFAULT_CHUNKS_IN_FLIGHT, context.clock());
        return new SubmitParts(accounts, calls, pools, secrets, entries, submitter);
    }
}
