package dev.gantry.runs.engine;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.EvictionHandling;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A backend whose jobs stand where the test puts them: it keeps each job's status by idempotency key, records every
 * submit (with its options and plan) and counts status calls, as the engine's rules need to be seen.
 */
final class ScriptedBackend implements Backend {
    /** Status by idempotency key (the job id). */
    final Map<String, JobStatus> jobs = new LinkedHashMap<>();
    final Map<String, Plan> plans = new LinkedHashMap<>();
    final List<SubmitOptions> submits = new ArrayList<>();
    final List<String> cancelled = new ArrayList<>();
    int statusCalls;
    List<Problem> problems = List.of();
    /** Every plan {@link #validate} was asked about, in order. */
    final List<Plan> validated = new ArrayList<>();
    /** The plan of every submit, in order, also of a submit again with a known key (beside {@link #submits}). */
    final List<Plan> submittedPlans = new ArrayList<>();
    /** The next submit makes its job, then fails as a lost reply or a killed process would leave it. */
    RuntimeException failAfterCreating;
    /** The size of each {@link #submitAll} call, in order. */
    final List<Integer> batches = new ArrayList<>();
    /** Keys whose every submit is refused before anything is made (the orchestrator refuses that one job). */
    final Map<String, GantryException> refusedKeys = new LinkedHashMap<>();
    /** The next submit fails before it makes anything. */
    GantryException refuseNext;
    EvictionHandling evictions = EvictionHandling.ENDS_PREEMPTED;
    /** What each job printed on standard output, by idempotency key. */
    final Map<String, List<String>> output = new LinkedHashMap<>();
    /** Whether it orders jobs itself from their dependencies (as Slurm does). */
    boolean nativeDependencies;
    /** Whether it runs each job in its plan's region (as a Batch pool made there would). */
    boolean placesByRegion;

    @Override
    public String name() {
        return "scripted";
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.builder().spot(true).gpuVendors(Set.of(GpuVendor.NVIDIA)).evictions(evictions)
                .nativeDependencies(nativeDependencies).placesByRegion(placesByRegion).build();
    }

    @Override
    public List<Problem> validate(Plan plan) {
        validated.add(plan);
        return problems;
    }

    @Override
    public synchronized JobRef submit(Plan plan, SubmitOptions options) {
        submits.add(options);
        submittedPlans.add(plan);
        if (refuseNext != null) {
            GantryException e = refuseNext;
            refuseNext = null;
            throw e;
        }
        String key = options.idempotencyKey();
        if (refusedKeys.containsKey(key)) {
            throw refusedKeys.get(key);
        }
        if (!jobs.containsKey(key)) {
            jobs.put(key, JobStatus.of(JobState.PENDING, "queued"));
            plans.put(key, plan);
        }
        if (failAfterCreating != null) {
            RuntimeException e = failAfterCreating;
            failAfterCreating = null;
            throw e;
        }
        return new JobRef("scripted", "n-" + key);
    }

    @Override
    public synchronized List<JobRef> submitAll(List<Submission> submissions) {
        batches.add(submissions.size());
        return Backend.super.submitAll(submissions);
    }

    /** How many jobs the backend made (a second submit with a known key makes none). */
    synchronized int made() {
        return jobs.size();
    }

    synchronized void set(String key, JobStatus status) {
        if (!jobs.containsKey(key)) {
            throw new IllegalStateException("no job " + key + "; jobs: " + jobs.keySet());
        }
        jobs.put(key, status);
    }

    synchronized void set(String key, JobState state) {
        set(key, JobStatus.of(state, state == JobState.FAILED ? "exit 3" : ""));
    }

    /** Every job not ended yet now in {@code state}. */
    synchronized void setAllOpen(JobState state) {
        jobs.replaceAll((key, status) -> status.state().isTerminal() ? status : JobStatus.of(state, ""));
    }

    @Override
    public synchronized JobStatus status(JobRef job) {
        JobStatus status = jobs.get(job.id().substring(2));
        if (status == null) {
            throw new GantryException(ErrorCode.JOB_NOT_FOUND, "no job " + job.id());
        }
        return status;
    }

    /** The status calls so far, read safely from another thread. */
    synchronized int statusCallsSoFar() {
        return statusCalls;
    }

    /** How many of the next status calls fail as an unreachable host would. */
    int failStatuses;

    @Override
    public synchronized Map<JobRef, JobStatus> statuses(Collection<JobRef> refs) {
        statusCalls++;
        if (failStatuses > 0) {
            failStatuses--;
            throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "login node 10.0.0.4 does not answer");
        }
        Map<JobRef, JobStatus> result = new LinkedHashMap<>();
        refs.forEach(ref -> result.put(ref, status(ref)));
        return result;
    }

    @Override
    public void logs(JobRef job, LogOptions options, LogSink sink) {
        if (options.stdout()) {
            output.getOrDefault(job.id().substring(2), List.of())
                    .forEach(text -> sink.accept(new dev.gantry.api.backend.LogLine(
                            dev.gantry.api.backend.LogLine.Stream.STDOUT, 0, text)));
        }
    }

    @Override
    public synchronized void cancel(JobRef job) {
        String key = job.id().substring(2);
        cancelled.add(key);
        jobs.computeIfPresent(key, (k, s) -> s.state().isTerminal() ? s : JobStatus.of(JobState.CANCELLED, "asked"));
    }

    @Override
    public void close() {
    }
}
