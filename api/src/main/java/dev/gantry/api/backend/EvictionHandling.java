package dev.gantry.api.backend;

/**
 * What happens to a job when its capacity is evicted, so that core knows whether to wait or to resubmit.
 *
 * <p>Either way an eviction is never {@link JobState#FAILED}: a failure is the workload's own doing, an eviction is
 * the capacity's, and only the latter is recovered from a checkpoint.
 */
public enum EvictionHandling {
    /**
     * The orchestrator runs the job again by itself (Slurm {@code --requeue}, a Kubernetes {@code podFailurePolicy}
     * that ignores {@code DisruptionTarget}, Azure Batch requeueing a task whose Spot node was preempted). The job
     * reports {@link JobState#PENDING} or {@link JobState#RUNNING} again with {@link JobStatus#evictions()} raised and
     * {@link JobStatus#lastEviction()} set; it is the same job, under the same reference. Core counts these and may
     * cancel the job to move it to on-demand capacity, but never resubmits it while it is requeued.
     */
    REQUEUES,
    /**
     * The orchestrator cannot run the job again: the job ends {@link JobState#PREEMPTED}, which is terminal, with
     * {@link JobStatus#evictions()} at least 1. Core resumes it by submitting a new attempt
     * ({@link SubmitOptions#attempt()} raised, {@link SubmitOptions#resume()} set) from the last checkpoint.
     */
    ENDS_PREEMPTED
}
