package dev.gantry.runs.engine;

import dev.gantry.model.AttemptOutcome;
import dev.gantry.model.AttemptRecord;
import dev.gantry.model.RetryPolicy;
import dev.gantry.model.RunEvent;
import dev.gantry.core.runs.SpotMoves;
import dev.gantry.core.runs.StepOutputs;
import dev.gantry.model.StepRecord;
import dev.gantry.model.StepState;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.Eviction;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.model.JobRecord;
import dev.gantry.runs.jobs.JobService;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Applies what one job's latest record says to its step: running, done, failed (and retried while the step has
 * retries left), evicted (and resumed by a new attempt, or moved to on-demand capacity), timed out. Every rule can be
 * applied again to the same records with the same result, since a killed driver's successor looks at them again.
 *
 * <p>An UNKNOWN state changes nothing: a backend that cannot tell for a while (a host unreachable) is no reason to
 * submit a job a second time.
 */
final class StepObserver {
    private final RunPass pass;
    private final JobService jobs;
    private final SpotMoves moves;
    private final RunNotifier notifier;

    StepObserver(RunPass pass, JobService jobs, SpotMoves moves, RunNotifier notifier) {
        this.pass = pass;
        this.jobs = jobs;
        this.moves = moves;
        this.notifier = notifier;
    }

    void observe(StepRecord step, AttemptRecord attempt, JobRecord job) {
        if (job.evictions() > attempt.evictions() && !job.state().isTerminal()) {
            step = requeued(step, attempt, job);
            attempt = pass.current(step.name()).orElseThrow();
            if (step.state() == StepState.RETRY_WAIT) {
                return; // moved to on-demand capacity
            }
        }
        switch (job.state()) {
            case PENDING, PROVISIONING -> moveTo(step, StepState.SUBMITTED, job);
            case RUNNING -> {
                if (!timedOut(step, attempt, job)) {
                    moveTo(step, StepState.RUNNING, job);
                }
            }
            case SUCCEEDED -> {
                if (!published(step, attempt, job)) {
                    return;
                }
                pass.updateAttempt(attempt.ended(AttemptOutcome.SUCCEEDED));
                pass.setStep(step, StepState.SUCCEEDED, Optional.empty(), "attempt " + attempt.number()
                        + " succeeded");
                pass.event(step.name(), RunEvent.ENDED, "SUCCEEDED (attempt " + attempt.number() + ")");
            }
            case FAILED -> ended(step, attempt, AttemptOutcome.FAILED, "attempt " + attempt.number() + " failed"
                    + job.exitCode().stream().mapToObj(c -> " with exit code " + c).findFirst().orElse("")
                    + (job.message().isBlank() ? "" : ": " + job.message()));
            case CANCELLED -> cancelled(step, attempt, job);
            case PREEMPTED -> preempted(step, attempt, job);
            case UNKNOWN -> {
                String reason = "the backend cannot tell where job " + job.id() + " stands: " + job.message();
                if (!step.reason().equals(Optional.of(reason))) {
                    pass.setStep(step, step.state(), step.nextAttemptAt(), reason);
                }
            }
            default -> throw new IllegalStateException("unhandled job state " + job.state());
        }
    }

    /**
     * Records the outputs the step declares, read from its job's standard output. A declared output the job did not
     * publish fails the attempt: the steps after it would run without their input.
     *
     * @return whether the step may be recorded SUCCEEDED
     */
    private boolean published(StepRecord step, AttemptRecord attempt, JobRecord job) {
        List<String> declared = pass.planned(step.name()).step().outputs();
        if (declared.isEmpty()) {
            return true;
        }
        List<String> lines = new ArrayList<>();
        try {
            jobs.logs(job.id(), new LogOptions(false, OptionalInt.empty(), true, false), line -> lines.add(line.text()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (GantryException e) {
            // Its output cannot be read now (a host not answering): the step is looked at again next poll.
            pass.setStep(step, step.state(), step.nextAttemptAt(), "succeeded; its outputs cannot be read yet: "
                    + e.getMessage());
            return false;
        }
        Map<String, String> values = StepOutputs.parse(lines);
        List<String> missing = declared.stream().filter(name -> !values.containsKey(name)).toList();
        if (!missing.isEmpty()) {
            ended(step, attempt, AttemptOutcome.FAILED, "attempt " + attempt.number() + " exited 0 but published no "
                    + String.join(", ", missing) + "; a step publishes an output by printing '" + StepOutputs.MARKER
                    + missing.get(0) + "=VALUE' on standard output or by writing '" + missing.get(0)
                    + "=VALUE' to the file $" + StepOutputs.FILE_VARIABLE);
            return false;
        }
        declared.forEach(name -> pass.event(step.name(), RunEvent.OUTPUT, name + "=" + values.get(name)));
        return true;
    }

    /**
     * The attempt ended as {@code outcome}. A failure is retried while the step has retries left, after the retry
     * policy's wait; a cancel from outside ends the step CANCELLED (the workflow's {@code onFailure} then applies).
     */
    void ended(StepRecord step, AttemptRecord attempt, AttemptOutcome outcome, String why) {
        pass.updateAttempt(attempt.ended(outcome));
        if (outcome == AttemptOutcome.CANCELLED) {
            pass.setStep(step, StepState.CANCELLED, Optional.empty(), why);
            pass.event(step.name(), RunEvent.ENDED, "CANCELLED: " + why);
            return;
        }
        RetryPolicy retries = pass.planned(step.name()).step().retries();
        // This attempt counts, whether or not an earlier look recorded its outcome already.
        int failures = 1 + (int) pass.earlier(step.name()).stream().filter(a -> a.number() > step.retryBase())
                .filter(a -> a.outcome().map(AttemptOutcome::failure).orElse(false)).count();
        if (failures <= retries.count()) {
            Instant at = pass.now.plus(retries.delayBefore(failures));
            pass.setStep(step, StepState.RETRY_WAIT, Optional.of(at), why + "; retry " + failures + " of "
                    + retries.count() + " at " + at);
            pass.event(step.name(), RunEvent.RETRY, why + "; retry " + failures + " of " + retries.count()
                    + " in " + dev.gantry.api.Durations.format(retries.delayBefore(failures)));
        } else {
            pass.setStep(step, StepState.FAILED, Optional.empty(), why + (retries.count() > 0 ? " (no retries left"
                    + " of " + retries.count() + ")" : ""));
            pass.event(step.name(), RunEvent.ENDED, "FAILED: " + why);
        }
    }

    /**
     * Cancelled, but not by this run: by someone, or by the orchestrator because a job it was told to wait for did
     * not succeed (native dependencies). The latter is a skip, as it would have been had Gantry sequenced the step.
     */
    private void cancelled(StepRecord step, AttemptRecord attempt, JobRecord job) {
        for (String name : pass.planned(step.name()).step().dependsOn()) {
            boolean failed = pass.step(name).instances().stream().map(i -> pass.steps.get(i.name()).state())
                    .anyMatch(s -> s == StepState.FAILED || s == StepState.CANCELLED || s == StepState.SKIPPED);
            if (failed) {
                pass.updateAttempt(attempt.ended(AttemptOutcome.CANCELLED));
                String why = "step " + name + " did not succeed, so the orchestrator never started job " + job.id();
                pass.setStep(step, StepState.SKIPPED, Optional.empty(), why);
                pass.event(step.name(), RunEvent.SKIPPED, why);
                return;
            }
        }
        ended(step, attempt, AttemptOutcome.CANCELLED, "attempt " + attempt.number() + " was cancelled outside this "
                + "run" + (job.message().isBlank() ? "" : ": " + job.message()));
    }

    private void moveTo(StepRecord step, StepState state, JobRecord job) {
        if (step.state() != state) {
            pass.setStep(step, state, Optional.empty(), job.message().isBlank() ? state.name().toLowerCase()
                    : job.message());
            pass.event(step.name(), RunEvent.STATE, job.state() + (job.message().isBlank() ? ""
                    : ": " + job.message()));
        }
    }

    /** Ran past the step's timeout, counted from when the job started (or was submitted, if not known). */
    private boolean timedOut(StepRecord step, AttemptRecord attempt, JobRecord job) {
        Optional<Duration> timeout = pass.planned(step.name()).step().timeout();
        if (timeout.isEmpty()) {
            return false;
        }
        Instant since = job.startedAt().orElse(attempt.createdAt());
        if (!pass.now.isAfter(since.plus(timeout.get()))) {
            return false;
        }
        String why = "attempt " + attempt.number() + " ran past the step's timeout of "
                + dev.gantry.api.Durations.format(timeout.get());
        pass.event(step.name(), RunEvent.TIMED_OUT, why + "; cancelling job " + job.id());
        pass.flush();
        jobs.cancel(job.id());
        ended(step, attempt, AttemptOutcome.TIMED_OUT, why);
        return true;
    }

    /**
     * The orchestrator lost the job's capacity and runs it again (a requeue): the eviction is counted; once the step
     * was evicted as often as allowed, the job is cancelled and the step's next attempt runs on on-demand capacity.
     */
    private StepRecord requeued(StepRecord step, AttemptRecord attempt, JobRecord job) {
        int before = step.evictions() - attempt.evictions();
        AttemptRecord counted = attempt.withEvictions(job.evictions());
        pass.updateAttempt(counted);
        Eviction eviction = job.lastEviction().orElseThrow();
        StepRecord updated = pass.saveStep(step.evicted(before + counted.evictions(), step.state(),
                step.nextAttemptAt(), "evicted (" + eviction.reason() + "); the orchestrator runs it again", pass.now));
        pass.event(step.name(), RunEvent.EVICTED, eviction.reason() + " at " + eviction.at() + "; requeued by the "
                + "orchestrator, " + updated.evictions() + " eviction(s) so far");
        notifier.evicted(step.runId(), step.name(), eviction, true);
        if (attempt.spot() && moves.toOnDemand(updated.evictions())) {
            String why = "evicted " + updated.evictions() + " times on Spot; moving to on-demand capacity";
            pass.event(step.name(), RunEvent.CANCELLING, why + ": cancelling job " + job.id());
            pass.flush();
            jobs.cancel(job.id());
            pass.updateAttempt(counted.ended(AttemptOutcome.MOVED));
            return pass.setStep(updated, StepState.RETRY_WAIT, Optional.of(pass.now), why);
        }
        return updated;
    }

    /** The job ended PREEMPTED: the next attempt is submitted at once, resuming from the checkpoint. */
    private void preempted(StepRecord step, AttemptRecord attempt, JobRecord job) {
        int count = Math.max(1, job.evictions());
        int before = step.evictions() - attempt.evictions();
        pass.updateAttempt(attempt.withEvictions(count).ended(AttemptOutcome.PREEMPTED));
        Eviction eviction = job.lastEviction().orElseGet(() -> new Eviction(pass.now, job.message()));
        int total = before + count;
        boolean checkpoint = pass.planned(step.name()).plan().workload().checkpoint().isPresent();
        boolean moving = attempt.spot() && moves.toOnDemand(total);
        String why = "attempt " + attempt.number() + " was evicted (" + eviction.reason() + "); attempt "
                + (attempt.number() + 1)
                + (checkpoint ? " resumes from the checkpoint" : " starts over (no checkpoint)")
                + (moving ? " on on-demand capacity" : "");
        pass.saveStep(step.evicted(total, StepState.RETRY_WAIT, Optional.of(pass.now), why, pass.now));
        pass.event(step.name(), RunEvent.EVICTED, why + "; " + total + " eviction(s) so far");
        notifier.evicted(step.runId(), step.name(), eviction, false);
    }
}
