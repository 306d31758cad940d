package dev.gantry.backend.batch.internal.remote;

import java.util.Objects;

/**
 * Batch refused a call with one of the codes its caller said it expects ({@code PoolExists} after a lost reply,
 * {@code RequestBodyTooLarge}, ...): the caller decides what it means. Checked, so that no expected refusal is
 * forgotten; never shown to a user as it is.
 */
public final class Refused extends Exception {
    private final transient BatchRefusal refusal;

    public Refused(BatchRefusal refusal) {
        super(refusal.describe(), null, false, false);
        this.refusal = Objects.requireNonNull(refusal, "refusal");
    }

    public BatchRefusal refusal() {
        return refusal;
    }

    public String code() {
        return refusal.code();
    }
}
