package dev.gantry.backend.batch.internal.pools;

import com.microsoft.azure.batch.protocol.models.CloudJob;
import com.microsoft.azure.batch.protocol.models.CloudPool;
import com.microsoft.azure.batch.protocol.models.JobState;
import com.microsoft.azure.batch.protocol.models.MetadataItem;
import com.microsoft.azure.batch.protocol.models.PoolAddParameter;
import com.microsoft.azure.batch.protocol.models.PoolGetOptions;
import com.microsoft.azure.batch.protocol.models.PoolState;
import com.microsoft.azure.batch.protocol.models.UserAssignedIdentity;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.backend.batch.internal.BatchAccountSettings;
import dev.gantry.backend.batch.internal.BatchSettings;
import dev.gantry.backend.batch.internal.ExistingPool;
import dev.gantry.backend.batch.internal.remote.Accounts;
import dev.gantry.backend.batch.internal.remote.BatchCalls;
import dev.gantry.backend.batch.internal.remote.IdentityPools;
import dev.gantry.backend.batch.internal.remote.Refused;
import dev.gantry.backend.batch.internal.render.JobBody;
import dev.gantry.backend.batch.internal.render.PoolBody;
import dev.gantry.backend.batch.internal.render.PoolKey;
import dev.gantry.backend.batch.internal.render.PoolMetadata;
import dev.gantry.backend.batch.internal.rest.BatchConnection;
import dev.gantry.http.Sleeper;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Makes sure a plan's pool and its one job exist, once per group per process:
 * <ul>
 *   <li>an existing pool of {@code pools[*]} is used as it is (never added, resized or deleted);</li>
 *   <li>a pool with an identity is made through Resource Manager ({@link IdentityPools}), any other by a data-plane
 *       pool add ({@link PoolBody});</li>
 *   <li>{@code PoolExists} (a lost reply, another process) adopts the pool when its metadata is Gantry's and carries
 *       the digest wanted; otherwise the plan is refused, naming the pool;</li>
 *   <li>{@code PoolBeingDeleted} (gc removed an idle pool of the same id), or Resource Manager's {@code Deleting}
 *       for a pool with an identity, is waited out within a bound;</li>
 *   <li>the job ({@link JobBody}) likewise: {@code JobExists} adopted when it is Gantry's and on that pool.</li>
 * </ul>
 */
public final class PoolEnsurer {
    private static final Set<String> POOL_ADD_EXPECTED = Set.of("PoolExists", "PoolBeingDeleted");
    private static final Set<String> JOB_ADD_EXPECTED = Set.of("JobExists", "JobBeingDeleted");

    /**
     * How long a pool or job being deleted is waited for before the submit gives up.
     *
     * @param poll the wait between tries
     * @param tries the most tries, the first included
     */
    public record DeletionWait(Duration poll, int tries, Sleeper sleeper) {
        public DeletionWait {
            Objects.requireNonNull(poll, "poll");
            Objects.requireNonNull(sleeper, "sleeper");
            if (tries < 1) {
                throw new IllegalArgumentException("tries must be at least 1, not " + tries);
            }
        }

        /** Batch removes a pool's nodes, then the pool, in minutes: ten minutes, polled every 15 s. */
        public static DeletionWait defaults() {
            return new DeletionWait(Duration.ofSeconds(15), 40, Sleeper.THREAD);
        }
    }

    private final BatchSettings settings;
    private final Accounts accounts;
    private final BatchCalls calls;
    private final Supplier<IdentityPools> identityPools;
    private final DeletionWait deletionWait;
    private final Map<String, Boolean> ensured = new ConcurrentHashMap<>();
    private final Map<String, Object> locks = new ConcurrentHashMap<>();
    private final Map<String, Optional<String>> existingIdentities = new ConcurrentHashMap<>();

    /**
     * @param identityPools asked only when a pool with an identity is first made
     */
    public PoolEnsurer(BatchSettings settings, Accounts accounts, BatchCalls calls,
                       Supplier<IdentityPools> identityPools, DeletionWait deletionWait) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.accounts = Objects.requireNonNull(accounts, "accounts");
        this.calls = Objects.requireNonNull(calls, "calls");
        this.identityPools = Objects.requireNonNull(identityPools, "identityPools");
        this.deletionWait = Objects.requireNonNull(deletionWait, "deletionWait");
    }

    /** Where a plan's tasks go: contacts nothing. */
    public PoolTarget target(Plan plan) {
        BatchAccountSettings account = accounts.forRegion(plan.region());
        Optional<ExistingPool> existing = settings.existingPool(plan.vmSize().name());
        // An existing pool carries whatever identity it was made with; Gantry's own carry poolIdentity.
        Optional<String> identity = existing.isPresent() ? Optional.empty() : settings.poolIdentity();
        PoolKey key = PoolKey.of(account.name(), plan, plan.boot().shellScript(), identity);
        if (existing.isPresent()) {
            String poolId = existing.get().id();
            return new PoolTarget(account, key, poolId, existingPoolJobId(settings.poolPrefix(), poolId), true,
                    identity);
        }
        String poolId = key.poolId(settings.poolPrefix());
        return new PoolTarget(account, key, poolId, key.jobId(settings.poolPrefix()), false, identity);
    }

    /**
     * Makes sure the target's pool and job exist; the first call per group per process talks to Batch, later ones
     * return at once.
     *
     * @param plan a plan of the group (its image, boot and container make the pool)
     */
    public void ensure(PoolTarget target, Plan plan) {
        if (ensured.containsKey(target.groupKey())) {
            return;
        }
        synchronized (locks.computeIfAbsent(target.groupKey(), k -> new Object())) {
            if (ensured.containsKey(target.groupKey())) {
                return;
            }
            BatchConnection connection = accounts.connection(target.account());
            if (!target.existing()) {
                ensurePool(connection, target, plan);
            }
            ensureJob(connection, target);
            ensured.put(target.groupKey(), true);
        }
    }

    /**
     * The user-assigned identity an existing pool ({@code pools[*]}) carries, read once per process (one pool GET with
     * only the identity selected): its tasks read their secrets blob with it. The target's own for Gantry's pools.
     */
    public Optional<String> identity(PoolTarget target) {
        if (!target.existing()) {
            return target.identity();
        }
        return existingIdentities.computeIfAbsent(target.groupKey(), k -> {
            CloudPool pool = calls.on(accounts.connection(target.account())).call("reading the identity of pool "
                    + target.poolId(), batch -> batch.pools().get(target.poolId(),
                            new PoolGetOptions().withSelect("id,identity")));
            return pool.identity() == null || pool.identity().userAssignedIdentities() == null
                    ? Optional.empty()
                    : pool.identity().userAssignedIdentities().stream().map(UserAssignedIdentity::resourceId)
                            .findFirst();
        });
    }

    /** Forgets that the group was ensured (its job was found missing): the next {@link #ensure} checks again. */
    public void forget(PoolTarget target) {
        ensured.remove(target.groupKey());
    }

    private void ensurePool(BatchConnection connection, PoolTarget target, Plan plan) {
        PoolAddParameter body = PoolBody.render(target.key(), target.poolId(), plan, plan.boot().shellScript(),
                settings.maxNodesPerPool());
        if (target.identity().isPresent()) {
            ensureIdentityPool(target, body);
            return;
        }
        String what = "adding pool " + target.poolId() + " to Batch account " + target.account().name();
        for (int attempt = 1; ; attempt++) {
            try {
                calls.on(connection).call(what, POOL_ADD_EXPECTED, batch -> {
                    batch.pools().add(body);
                    return null;
                });
                return;
            } catch (Refused refused) {
                if (refused.code().equals("PoolExists")) {
                    CloudPool pool = calls.on(connection).call("reading pool " + target.poolId(),
                            batch -> batch.pools().get(target.poolId()));
                    if (pool.state() != PoolState.DELETING) {
                        adopt(target, metadata(pool.metadata()));
                        return;
                    }
                }
                waitForDeletion("pool " + target.poolId(), attempt, refused);
            }
        }
    }

    private void ensureIdentityPool(PoolTarget target, PoolAddParameter body) {
        String resourceId = target.account().resourceId().orElseThrow(() -> new GantryException(ErrorCode.USAGE,
                "pools with an identity (" + BatchSettings.POOL_IDENTITY + ") are made through Resource Manager, "
                        + "which needs the account's Resource Manager id: set backends.batch.accounts[*]."
                        + BatchAccountSettings.RESOURCE_ID + " for the account of region "
                        + target.account().region()));
        for (int attempt = 1; ; attempt++) {
            try {
                adopt(target, identityPools.get().createOrFind(resourceId, body, target.identity().orElseThrow()));
                return;
            } catch (Refused refused) {
                if (!refused.code().equals("PoolBeingDeleted")) {
                    throw BatchCalls.failure("adding pool " + target.poolId() + " through Resource Manager",
                            refused.refusal());
                }
                waitForDeletion("pool " + target.poolId(), attempt, refused);
            }
        }
    }

    /** The pool found is used only when Gantry made it for this very key. */
    private static void adopt(PoolTarget target, Map<String, String> metadata) {
        String wanted = PoolMetadata.digest(target.key());
        boolean gantrys = PoolMetadata.OWNER_VALUE.equals(metadata.get(PoolMetadata.OWNER));
        if (!gantrys || !wanted.equals(metadata.get(PoolMetadata.DIGEST))) {
            throw new GantryException(ErrorCode.USAGE, "Batch account " + target.account().name() + " already has "
                    + "a pool " + target.poolId() + ", " + (gantrys ? "made by Gantry for another configuration "
                    + "(its " + PoolMetadata.DIGEST + " is " + metadata.get(PoolMetadata.DIGEST) + ", this plan "
                    + "needs " + wanted + ")" : "not made by Gantry (no " + PoolMetadata.OWNER + " metadata)")
                    + "; Gantry never changes a pool it did not make for the plan: delete that pool (az batch pool "
                    + "delete --pool-id " + target.poolId() + ") or set another " + BatchSettings.POOL_PREFIX);
        }
    }

    private void ensureJob(BatchConnection connection, PoolTarget target) {
        String what = "adding job " + target.jobId() + " to Batch account " + target.account().name();
        for (int attempt = 1; ; attempt++) {
            try {
                calls.on(connection).call(what, JOB_ADD_EXPECTED, batch -> {
                    batch.jobs().add(JobBody.render(target.jobId(), target.poolId(), target.key()));
                    return null;
                });
                return;
            } catch (Refused refused) {
                if (refused.code().equals("JobExists")) {
                    CloudJob job = calls.on(connection).call("reading job " + target.jobId(),
                            batch -> batch.jobs().get(target.jobId()));
                    if (job.state() == JobState.ACTIVE) {
                        adoptJob(target, job);
                        return;
                    }
                    if (job.state() != JobState.DELETING) {
                        throw new GantryException(ErrorCode.REMOTE_ERROR, "job " + target.jobId() + " of Batch "
                                + "account " + target.account().name() + " is " + job.state() + " and takes no "
                                + "tasks; run gantry gc to remove it with its pool, then submit again");
                    }
                }
                waitForDeletion("job " + target.jobId(), attempt, refused);
            }
        }
    }

    private static void adoptJob(PoolTarget target, CloudJob job) {
        String poolId = job.poolInfo() == null ? null : job.poolInfo().poolId();
        if (!PoolMetadata.isGantrys(job.metadata()) || !target.poolId().equalsIgnoreCase(String.valueOf(poolId))) {
            throw new GantryException(ErrorCode.USAGE, "Batch account " + target.account().name() + " already has "
                    + "a job " + target.jobId() + " that Gantry did not make for pool " + target.poolId() + " (it "
                    + "runs on pool " + poolId + "); delete that job (az batch job delete --job-id "
                    + target.jobId() + ") or set another " + BatchSettings.POOL_PREFIX);
        }
    }

    private void waitForDeletion(String what, int attempt, Refused refused) {
        if (attempt >= deletionWait.tries()) {
            throw new GantryException(ErrorCode.REMOTE_ERROR, what + " is still being deleted after "
                    + deletionWait.poll().multipliedBy(attempt - 1L).toSeconds() + " s (" + refused.getMessage()
                    + "); try again once Batch has removed it");
        }
        try {
            deletionWait.sleeper().sleep(deletionWait.poll());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GantryException(ErrorCode.REMOTE_ERROR, "interrupted while waiting for " + what
                    + " to be deleted", e);
        }
    }

    private static Map<String, String> metadata(List<MetadataItem> items) {
        Map<String, String> metadata = new java.util.LinkedHashMap<>();
        for (MetadataItem item : items == null ? List.<MetadataItem>of() : items) {
            metadata.put(item.name(), item.value());
        }
        return metadata;
    }

    /**
     * The job of an existing pool: the prefix and the pool's id (pools and jobs are separate id spaces in Batch, and
     * the prefix keeps Gantry's job apart from the owner's), cut with a hash when over 64 characters.
     */
    static String existingPoolJobId(String prefix, String poolId) {
        String id = prefix + poolId;
        if (id.length() <= PoolKey.MAX_ID) {
            return id;
        }
        String hash = sha256(poolId).substring(0, 12);
        return id.substring(0, PoolKey.MAX_ID - hash.length() - 1) + "-" + hash;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
