package dev.gantry.backend.batch.internal.pools;

import dev.gantry.backend.batch.internal.BatchAccountSettings;
import dev.gantry.backend.batch.internal.render.PoolKey;
import java.util.Objects;
import java.util.Optional;

/**
 * The pool and job a plan's tasks go to.
 *
 * @param account the account of the plan's region
 * @param key the pool's key (for an existing pool too: its digest marks the job)
 * @param poolId the pool: Gantry's ({@link PoolKey#poolId}) or an existing one from {@code pools[*]}
 * @param jobId the pool's one Gantry job
 * @param existing whether the pool is someone else's, used as it is (never made, resized or deleted)
 * @param identity the user-assigned identity the pool's nodes carry, if any (secrets are read with it)
 */
public record PoolTarget(BatchAccountSettings account, PoolKey key, String poolId, String jobId, boolean existing,
                         Optional<String> identity) {
    public PoolTarget {
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(poolId, "poolId");
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(identity, "identity");
    }

    /** {@code account/pool}: one group of a submitAll, ensured once per process. */
    public String groupKey() {
        return account.name() + "/" + poolId;
    }
}
