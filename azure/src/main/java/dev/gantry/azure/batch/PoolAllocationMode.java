package dev.gantry.azure.batch;

import java.util.Locale;

/**
 * Where a Batch account's pool nodes live. Only {@link #USER_SUBSCRIPTION} accounts can have Spot (low-priority)
 * nodes since Batch-managed low-priority nodes were retired on 30 September 2025.
 */
public enum PoolAllocationMode {
    /** Nodes in Batch's own subscriptions, counted against the account's core quotas. */
    BATCH_SERVICE("BatchService"),
    /** Nodes in the account owner's subscription, counted against its regional and family vCPU quotas. */
    USER_SUBSCRIPTION("UserSubscription");

    private final String armValue;

    PoolAllocationMode(String armValue) {
        this.armValue = armValue;
    }

    public String armValue() {
        return armValue;
    }

    /** The mode Resource Manager names ({@code BatchService}, {@code UserSubscription}), in any case. */
    static PoolAllocationMode ofArm(String value) {
        for (PoolAllocationMode mode : values()) {
            if (mode.armValue.toLowerCase(Locale.ROOT).equals(value == null ? "" : value.toLowerCase(Locale.ROOT))) {
                return mode;
            }
        }
        // Resource Manager leaves it out for accounts created before the property existed: Batch-managed.
        return BATCH_SERVICE;
    }
}
