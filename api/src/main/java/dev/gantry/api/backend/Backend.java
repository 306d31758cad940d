package dev.gantry.api.backend;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A configured backend: turns plans into jobs on one orchestrator. Backends never decide hardware (the plan did)
 * and never print: they return values or throw {@link dev.gantry.api.GantryException}.
 */
public interface Backend extends AutoCloseable {
    /** The provider name this backend was created by. */
    String name();

    Capabilities capabilities();

    /** Problems that would stop this plan from running here; empty when it can run. Contacts nothing expensive. */
    List<Problem> validate(Plan plan);

    /**
     * Starts the plan's workload. Retrying with the same idempotency key returns the same job and never starts a
     * second one, also after a lost reply or a crash between the remote call and its answer.
     */
    JobRef submit(Plan plan, SubmitOptions options);

    /** The status of one job; {@link dev.gantry.api.ErrorCode#JOB_NOT_FOUND} when the backend does not know it. */
    JobStatus status(JobRef job);

    /**
     * The status of many jobs in one call. Backends should answer with one query per host or service, not one per
     * job; this default only loops and is there for plugins that cannot do better. Unknown jobs map to UNKNOWN.
     */
    default Map<JobRef, JobStatus> statuses(Collection<JobRef> jobs) {
        Map<JobRef, JobStatus> result = new LinkedHashMap<>();
        for (JobRef job : jobs) {
            result.put(job, status(job));
        }
        return result;
    }

    /**
     * Delivers the job's output to the sink. With {@link LogOptions#follow()} it returns once the job has ended and
     * its output is drained; interrupting the calling thread stops it early.
     */
    void logs(JobRef job, LogOptions options, LogSink sink) throws InterruptedException;

    /** Stops the job on every node; it then reports CANCELLED. Cancelling an ended job does nothing. */
    void cancel(JobRef job);

    /**
     * Probes the backend's hosts for what plans need (drivers, GPUs, container runtime, InfiniBand, CPUs, memory,
     * disk) and checks them against the plan, or against their own hardware without one. Backends without hosts of
     * their own answer BACKEND_UNAVAILABLE.
     */
    default List<HostReport> doctor(Optional<Plan> plan) {
        throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "backend '" + name() + "' has no hosts to probe");
    }

    @Override
    void close();
}
