package dev.gantry.api.backend;

/**
 * Where a job is in its life. An eviction is never FAILED: on a backend that requeues it the job is PENDING or RUNNING
 * again with {@link JobStatus#evictions()} raised, on one that cannot it ends PREEMPTED (see
 * {@link EvictionHandling}).
 */
public enum JobState {
    /** Accepted, waiting for capacity or its turn. */
    PENDING,
    /** Capacity is being prepared (VMs booting, image pulling). */
    PROVISIONING,
    /** The workload's command is running. */
    RUNNING,
    /** Ended with exit code 0. */
    SUCCEEDED,
    /** Ended with a non-zero exit code or could not start. */
    FAILED,
    /** Stopped on request. */
    CANCELLED,
    /**
     * Its capacity was evicted (Spot) or vanished and the orchestrator does not run it again; terminal, and resumable
     * from the last checkpoint by a new attempt.
     */
    PREEMPTED,
    /** The backend cannot tell right now (e.g. the host is unreachable). */
    UNKNOWN;

    /** {@return true for states a job never leaves: SUCCEEDED, FAILED, CANCELLED and PREEMPTED} */
    public boolean isTerminal() {
        return this == SUCCEEDED || this == FAILED || this == CANCELLED || this == PREEMPTED;
    }
}
