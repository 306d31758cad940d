package dev.gantry.backend.cyclecloud.internal;

/**
 * How a scheduler's job state counts for tracking, whatever the scheduler: still to start, started, ended, or an
 * eviction on either side (ended by one, or back in the queue after one).
 */
public enum StateKind {
    WAITING, ACTIVE, DONE, EVICTED, REQUEUED;

    /** Whether reaching a state of this kind is an eviction (the job's count of evictions rises). */
    public boolean isEviction() {
        return this == EVICTED || this == REQUEUED;
    }
}
