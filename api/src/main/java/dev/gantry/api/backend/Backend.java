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
import java.util.OptionalLong;

/**
 * A configured backend: turns plans into jobs on one orchestrator. Backends never decide hardware (the plan did)
 * and never print: they return values or throw {@link dev.gantry.api.GantryException}.
 */
public interface Backend extends AutoCloseable {
    /** {@return the name of the provider this backend was created by, e.g. {@code manual}} */
    String name();

    /**
     * What this backend can do as configured now, which may be less than its provider's (containers only where the
     * cluster has a container runtime, Spot only where hosts can be evicted). Core and the conformance kit go by
     * this. A capability the provider declares is turned off only for a reason a probe established: when the probe
     * cannot run (the cluster cannot be reached), this throws its error (BACKEND_UNAVAILABLE) rather than answer no.
     *
     * @return the capabilities as configured now
     * @throws GantryException {@link ErrorCode#BACKEND_UNAVAILABLE} when a probe the answer depends on cannot run
     */
    Capabilities capabilities();

    /**
     * Problems that would stop this plan from running here. Contacts nothing expensive.
     *
     * @param plan the plan to check
     * @return every problem found, each naming the plan's field; empty when it can run
     */
    List<Problem> validate(Plan plan);

    /**
     * Starts the plan's workload. Retrying with the same idempotency key returns the same job and never starts a
     * second one, also after a lost reply or a crash between the remote call and its answer.
     *
     * <p>The job's environment holds the workload's variables and secrets, then the {@link JobEnvironment}
     * contract for each node. A backend with {@link Capabilities#nativeDependencies()} starts the job only once
     * {@link SubmitOptions#dependencies()} are satisfied, and never when one of them cannot be any more (it then
     * ends the job CANCELLED, with a message naming the dependency); other backends may ignore dependencies, since
     * core submits only jobs whose dependencies are satisfied.
     *
     * <p>The caller has validated the plan ({@link #validate}) once, before it recorded anything: a backend need not
     * validate it again here, and refuses (PLAN_REJECTED) what only the submit can find out, once per job: what its
     * orchestrator refuses, or capacity that was free at validate and is taken now.
     *
     * @param plan what to run and where
     * @param options the idempotency key, labels, dependencies and array settings of this submit
     * @return the reference to the job, the same for every retry with the same key
     * @throws GantryException {@link ErrorCode#PLAN_REJECTED} for what the orchestrator refuses,
     *     {@link ErrorCode#BACKEND_UNAVAILABLE} when it cannot be reached
     */
    JobRef submit(Plan plan, SubmitOptions options);

    /**
     * Starts many jobs, in order, each exactly as {@link #submit} would (SPI v2): the references come back in the
     * submissions' order. A backend whose orchestrator takes many jobs in one request (one command on a cluster's
     * login node, one batch call) overrides this to save a round trip per job; this default loops. When one
     * submission fails the call throws, and the ones before it may have started: retrying with the same keys returns
     * those and starts the rest, since every submission carries its own idempotency key.
     *
     * @param submissions the plans and their options, in the order to start them
     * @return one reference per submission, in the same order
     * @throws GantryException as {@link #submit} does, for the first submission that fails
     */
    default List<JobRef> submitAll(List<Submission> submissions) {
        List<JobRef> refs = new java.util.ArrayList<>(submissions.size());
        for (Submission submission : submissions) {
            refs.add(submit(submission.plan(), submission.options()));
        }
        return refs;
    }

    /**
     * The status of one job; {@link dev.gantry.api.ErrorCode#JOB_NOT_FOUND} when the backend does not know it. An
     * eviction is never FAILED: see {@link EvictionHandling} for what this backend reports.
     *
     * @param job the job, as {@link #submit} returned it
     * @return its status now
     * @throws GantryException {@link ErrorCode#JOB_NOT_FOUND} when the backend does not know it
     */
    JobStatus status(JobRef job);

    /**
     * The status of many jobs in one call. Backends should answer with one query per host or service, not one per
     * job; this default only loops and is there for plugins that cannot do better. Unknown jobs map to UNKNOWN.
     *
     * @param jobs the jobs to look up
     * @return the status of each job, in the order given
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
     *
     * @param job the job
     * @param options which streams and nodes, from where, and whether to follow
     * @param sink where each line goes, called on the calling thread
     * @throws InterruptedException when the calling thread is interrupted while following
     * @throws GantryException {@link ErrorCode#JOB_NOT_FOUND} when the backend does not know the job
     */
    void logs(JobRef job, LogOptions options, LogSink sink) throws InterruptedException;

    /**
     * Stops the job on every node; it then reports CANCELLED. Cancelling an ended job does nothing.
     *
     * @param job the job to stop
     * @throws GantryException {@link ErrorCode#JOB_NOT_FOUND} when the backend does not know it
     */
    void cancel(JobRef job);

    /**
     * Probes the backend's hosts for what plans need (drivers, GPUs, container runtime, InfiniBand, CPUs, memory,
     * disk) and checks them against the plan, or against their own hardware without one. Backends without hosts of
     * their own answer BACKEND_UNAVAILABLE.
     *
     * @param plan the plan the hosts must suit, or empty to check them against their own hardware
     * @return one report per host
     * @throws GantryException {@link ErrorCode#BACKEND_UNAVAILABLE} for a backend without hosts of its own
     */
    default List<HostReport> doctor(Optional<Plan> plan) {
        throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "backend '" + name() + "' has no hosts to probe");
    }

    /**
     * How many remote calls (commands over SSH, HTTP requests, scheduler commands) this backend has made since it was
     * created, for operators, benchmarks and the conformance kit's cost checks; empty for a backend that does not
     * count them (SPI v2).
     *
     * @return the number of remote calls so far, or empty when not counted
     */
    default OptionalLong remoteCalls() {
        return OptionalLong.empty();
    }

    /**
     * What this backend created that is idle and costs money, or holds quota, until it is released (SPI v2): for
     * example a pool whose job has had no task to run for the configured idle timeout. Only what the backend itself
     * created and can tell is idle; never anything a job is using, and never what the user set up (existing pools,
     * hosts). It looks and changes nothing. By default none: a backend without such resources need not override it.
     *
     * @return the idle resources; empty when there are none
     */
    default List<IdleResource> idleResources() {
        return List.of();
    }

    /**
     * Releases (deletes, removes, scales away) one resource that {@link #idleResources()} reported, after checking
     * again that it is still idle, since a job may have been submitted to it meanwhile (SPI v2). Releasing one that is
     * already gone does nothing. Afterwards {@link #idleResources()} no longer reports it.
     *
     * @param resource one that {@link #idleResources()} reported
     * @return true when it was released or already gone; false when it was in use again and was kept
     * @throws GantryException {@link ErrorCode#USAGE} for a resource this backend does not hold (by default every
     *     one, since the default reports none); the backend's own error when the release failed
     */
    default boolean release(IdleResource resource) {
        throw new GantryException(ErrorCode.USAGE, "backend '" + name() + "' reports no idle resources, so it cannot "
                + "release " + resource.describe() + "; list what it holds idle with: gantry gc --dry-run");
    }

    /**
     * Releases what this instance holds: its connections (SSH sessions, HTTP clients), threads and open files. Jobs
     * outlive the instance that submitted them: close never cancels, stops, forgets or loses a job or its logs, so a
     * backend created later over the same configuration and state directory (the next Gantry process, after a
     * restart or a crash) answers status, logs and cancel for every job this one submitted, and returns the same job
     * for a submit retried with the same idempotency key. Keep what identifies a job where that later instance finds
     * it (the orchestrator, {@link BackendContext#stateDirectory()}), never only in this object. The conformance kit's
     * restart cases check it. Close releases nothing the backend created on its orchestrator either (pools, nodes):
     * that is {@link #release}'s, which {@code gantry gc} calls.
     */
    @Override
    void close();
}
