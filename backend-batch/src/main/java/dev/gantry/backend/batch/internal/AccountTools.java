package dev.gantry.backend.batch.internal;

import dev.gantry.api.backend.IdleResource;
import dev.gantry.backend.batch.internal.logs.TaskLogs;
import dev.gantry.backend.batch.internal.pools.IdlePools;
import dev.gantry.backend.batch.internal.pools.OrphanedSecrets;
import dev.gantry.backend.batch.internal.remote.AccountCalls;
import dev.gantry.backend.batch.internal.status.TaskCancel;
import dev.gantry.backend.batch.internal.status.TaskStatuses;
import dev.gantry.backend.batch.internal.validate.AccountReads;
import dev.gantry.backend.batch.internal.validate.SupportedImages;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The per-account components over one account's connection (status, logs, cancel, validate's reads, gc), made once
 * when the account is first used. Each makes its calls through the account's {@link AccountCalls}, one request at a
 * time within the one retry policy.
 */
final class AccountTools {
    final BatchAccountSettings account;
    final TaskStatuses statuses;
    final TaskLogs logs;
    final TaskCancel cancel;
    final AccountReads reads;
    private final IdlePools idlePools;
    private final Optional<OrphanedSecrets> orphans;

    AccountTools(BatchAccountSettings account, BatchSettings settings, AccountCalls calls, AzureReach azure,
                 Path stateDirectory, Clock clock, Duration logPoll) {
        this.account = account;
        this.statuses = new TaskStatuses(calls, clock, TaskStatuses.DEFAULT_CLOCK_SKEW);
        this.logs = new TaskLogs(calls, logPoll);
        this.cancel = new TaskCancel(calls);
        this.reads = new AccountReads(account, calls, azure.management().apply(account),
                SupportedImages.of(stateDirectory, account.url().getHost(), clock, calls),
                region -> azure.usages().apply(account).apply(region));
        this.idlePools = new IdlePools(account, settings, calls, azure.management().apply(account), clock);
        // Not through a lambda taking the blob calls: linking it loads gantry-azure's Blobs, which a shared-key setup
        // without secrets may not have (WithoutTheAzureModuleTest).
        var blobCalls = azure.blobCalls().get();
        this.orphans = blobCalls.isEmpty() ? Optional.empty()
                : Optional.of(new OrphanedSecrets(account.name(), settings, calls, blobCalls.get(), clock));
    }

    List<IdleResource> idleResources() {
        List<IdleResource> idle = new ArrayList<>(idlePools.idleResources());
        orphans.ifPresent(o -> idle.addAll(o.idleResources()));
        return idle;
    }

    /** Whether the resource is this account's: a pool or node at its host, or a secrets blob of its tasks. */
    boolean holds(IdleResource resource) {
        if (resource.kind().equals(OrphanedSecrets.KIND)) {
            return orphans.isPresent() && resource.id().startsWith(OrphanedSecrets.PREFIX + account.name() + "/");
        }
        return resource.location().equals(Optional.of(idlePools.location()));
    }

    boolean release(IdleResource resource) {
        return resource.kind().equals(OrphanedSecrets.KIND) ? orphans.orElseThrow().release(resource)
                : idlePools.release(resource);
    }
}
