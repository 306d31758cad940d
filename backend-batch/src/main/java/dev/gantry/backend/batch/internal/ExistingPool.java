package dev.gantry.backend.batch.internal;

import java.util.Objects;

/**
 * A pool someone else made, which Gantry uses for plans of its VM size but never resizes or deletes.
 *
 * @param vmSize the VM size its plans ask for, as Azure spells it ({@code Standard_NC24ads_A100_v4})
 * @param id the pool's id in the Batch account
 */
public record ExistingPool(String vmSize, String id) {
    public ExistingPool {
        Objects.requireNonNull(vmSize, "vmSize");
        Objects.requireNonNull(id, "id");
    }
}
