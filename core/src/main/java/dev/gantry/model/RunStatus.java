package dev.gantry.model;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A run as it stands: its record, each step, each attempt and the job record of each attempt, as of {@code at}.
 * Cost comes from the price recorded with each attempt when it was placed, so a report stays right after the catalog
 * changes.
 *
 * @param run the run's record
 * @param steps each step as it stands, in the order they first ran
 * @param attempts every attempt of every step
 * @param jobs the job record of each attempt, by job id
 * @param at the time this status describes; a job still running counts up to it
 * @param maxTotal the run's budget ({@code spec.budget.maxTotal} of its workflow) in USD, when known; empty when it
 *     has none or its spec cannot be read
 */
public record RunStatus(RunRecord run, List<StepRecord> steps, List<AttemptRecord> attempts,
        Map<String, JobRecord> jobs, Instant at, OptionalDouble maxTotal) {

    /**
     * Copies the lists and the map.
     *
     * @param run the run
     * @param steps the steps, copied
     * @param attempts the attempts, copied
     * @param jobs the job records, copied
     * @param at the time of the status
     * @param maxTotal the run's budget in USD, or empty
     * @throws NullPointerException when a component or an element is null
     */
    public RunStatus {
        Objects.requireNonNull(run, "run");
        steps = List.copyOf(steps);
        attempts = List.copyOf(attempts);
        jobs = Map.copyOf(jobs);
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(maxTotal, "maxTotal");
    }

    /**
     * A status without the run's budget.
     *
     * @param run the run
     * @param steps the steps, copied
     * @param attempts the attempts, copied
     * @param jobs the job records, copied
     * @param at the time of the status
     * @throws NullPointerException when a component or an element is null
     */
    public RunStatus(RunRecord run, List<StepRecord> steps, List<AttemptRecord> attempts, Map<String, JobRecord> jobs,
            Instant at) {
        this(run, steps, attempts, jobs, at, OptionalDouble.empty());
    }

    /**
     * The step's attempts, oldest first.
     *
     * @param step the step's or matrix instance's name
     * @return its attempts by number; empty when none
     */
    public List<AttemptRecord> attemptsOf(String step) {
        return attempts.stream().filter(a -> a.step().equals(step))
                .sorted((a, b) -> Integer.compare(a.number(), b.number())).toList();
    }

    /**
     * The step's latest attempt, if it had one.
     *
     * @param step the step's name
     * @return the attempt with the highest number; empty when none
     */
    public Optional<AttemptRecord> latest(String step) {
        List<AttemptRecord> list = attemptsOf(step);
        return list.isEmpty() ? Optional.empty() : Optional.of(list.get(list.size() - 1));
    }

    /**
     * How long the step's jobs have run, over all its attempts, as far as the backend said when they started.
     *
     * @param step the step's name
     * @return the total running time; zero for jobs that never started
     */
    public Duration elapsed(String step) {
        return attemptsOf(step).stream().map(this::ran).reduce(Duration.ZERO, Duration::plus);
    }

    /**
     * What the step has cost so far: each attempt's running time at the price it was placed at.
     *
     * @param step the step's name
     * @return the cost in the catalog's currency (USD), all nodes; attempts without a price count 0
     */
    public double cost(String step) {
        return attemptsOf(step).stream().mapToDouble(this::cost).sum();
    }

    /** {@return what the run has cost so far, over every attempt of every step, in USD} */
    public double cost() {
        return attempts.stream().mapToDouble(this::cost).sum();
    }

    /** {@return how many of the run's steps are done (succeeded, failed, cancelled or skipped)} */
    public long finishedSteps() {
        return steps.stream().filter(s -> s.state().finished()).count();
    }

    private double cost(AttemptRecord attempt) {
        return attempt.pricePerHour().orElse(0) * ran(attempt).toMillis() / 3_600_000.0;
    }

    private Duration ran(AttemptRecord attempt) {
        JobRecord job = jobs.get(attempt.jobId());
        if (job == null || job.startedAt().isEmpty()) {
            return Duration.ZERO;
        }
        Instant end = job.endedAt().orElse(job.state().isTerminal() ? job.updatedAt() : at);
        Duration ran = Duration.between(job.startedAt().get(), end);
        return ran.isNegative() ? Duration.ZERO : ran;
    }

    /** {@return the steps by name, in the order given} */
    public Map<String, StepRecord> stepsByName() {
        Map<String, StepRecord> byName = new LinkedHashMap<>();
        steps.forEach(s -> byName.put(s.name(), s));
        return byName;
    }
}
