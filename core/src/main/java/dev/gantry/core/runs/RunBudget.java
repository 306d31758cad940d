package dev.gantry.core.runs;

import dev.gantry.api.Budget;
import dev.gantry.model.AttemptRecord;
import dev.gantry.model.JobRecord;
import dev.gantry.model.Money;
import dev.gantry.model.RunStatus;
import dev.gantry.model.StepRecord;
import dev.gantry.model.WorkflowPlan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Predicate;

/**
 * The {@code budget.maxTotal} ceilings of a run and what each says at a poll, decided from the run's cost table
 * ({@link RunStatus}: each attempt's running time at the price it was placed at) alone, so that any process that
 * drives the run decides the same. A ceiling counts what was spent plus what the running jobs will cost by the next
 * poll, since that is the last moment the driver can stop them: it warns once at {@link #WARN_AT} of the ceiling and
 * stops at the ceiling.
 *
 * <p>Two kinds of ceiling: the workflow's ({@code spec.budget.maxTotal}), over every job of the run, and a step's
 * workload's, over the attempts of that one job (each matrix instance has its own, as each is its own workload).
 */
public final class RunBudget {
    /** The share of a ceiling at which the run's history and listeners are warned, once. */
    public static final double WARN_AT = 0.8;

    private RunBudget() {
    }

    /**
     * One ceiling: the whole run's, or one job's.
     *
     * @param job the job (a step or matrix instance) whose attempts it counts; empty for the whole run
     * @param maxTotal the ceiling in USD
     */
    public record Scope(Optional<String> job, double maxTotal) {
        /** Whether an attempt of {@code name} counts against this ceiling. */
        public boolean counts(String name) {
            return job.isEmpty() || job.get().equals(name);
        }

        /** How messages name it: "the run's budget" or "the budget of step train". */
        public String describe() {
            return job.map(name -> "the budget of step " + name).orElse("the run's budget");
        }
    }

    /**
     * What a ceiling's jobs cost: spent so far, and due by the next poll from the jobs running now.
     *
     * @param spent what every attempt counted has cost so far, in USD
     * @param due what the running attempts will cost by the next poll, in USD
     * @param running how many attempts are running
     */
    public record Spend(double spent, double due, int running) {
        /** {@return spent and due together: what the ceiling is compared with} */
        public double total() {
            return spent + due;
        }
    }

    /** What a ceiling says at this poll. */
    public sealed interface Verdict permits Within, Warning, Reached {
    }

    /** Below the warning, or warned already and below the ceiling: nothing to do. */
    public record Within() implements Verdict {
    }

    /**
     * At {@link #WARN_AT} of the ceiling or more, not warned before.
     *
     * @param detail the warning, one line, with the figures
     */
    public record Warning(String detail) implements Verdict {
    }

    /**
     * At the ceiling or beyond: what it counts is stopped.
     *
     * @param message {@code budget reached: $X of $Y}, the run's (or step's) end message
     * @param detail the message with the figures and the cost of each job counted, for the run's history
     */
    public record Reached(String message, String detail) implements Verdict {
    }

    /**
     * The ceilings of a planned run: the workflow's first, then each job's whose workload has one, in plan order.
     *
     * @param plan the run's plan
     * @return its ceilings; empty when nothing has a {@code maxTotal}
     */
    public static List<Scope> scopes(WorkflowPlan plan) {
        List<Scope> scopes = new ArrayList<>();
        maxTotal(plan.workflow().budget()).ifPresent(max -> scopes.add(new Scope(Optional.empty(), max)));
        for (WorkflowPlan.PlannedStep step : plan.steps()) {
            maxTotal(step.instance().workload().budget())
                    .ifPresent(max -> scopes.add(new Scope(Optional.of(step.instance().name()), max)));
        }
        return scopes;
    }

    /**
     * What the scope's jobs cost as of the status's time, and what those running will cost by the next poll.
     *
     * @param status the run's cost table
     * @param scope the ceiling whose jobs count
     * @param untilNextPoll how long until the driver looks again
     * @return the spend
     */
    public static Spend spend(RunStatus status, Scope scope, Duration untilNextPoll) {
        double spent = 0;
        double due = 0;
        int running = 0;
        double hours = untilNextPoll.toMillis() / 3_600_000.0;
        for (StepRecord step : status.steps()) {
            if (!scope.counts(step.name())) {
                continue;
            }
            spent += status.cost(step.name());
            for (AttemptRecord attempt : status.attemptsOf(step.name())) {
                if (running(status, attempt)) {
                    running++;
                    due += attempt.pricePerHour().orElse(0) * hours;
                }
            }
        }
        return new Spend(spent, due, running);
    }

    /**
     * What the ceiling says of this spend.
     *
     * @param scope the ceiling
     * @param spend what its jobs cost, with what is due by the next poll
     * @param warned whether the run's history already holds this ceiling's warning (a driver that took the run over
     *     does not warn again)
     * @param status the run's cost table, for the evidence a stop gives
     * @return within, a warning, or reached
     */
    public static Verdict judge(Scope scope, Spend spend, boolean warned, RunStatus status) {
        String figures = usd(spend.total()) + " of " + usd(scope.maxTotal()) + ", " + scope.describe() + " ("
                + usd(spend.spent()) + " spent, " + usd(spend.due()) + " due by the next poll from " + spend.running()
                + " running job" + (spend.running() == 1 ? "" : "s") + ")";
        if (spend.total() >= scope.maxTotal()) {
            String message = "budget reached: " + usd(spend.total()) + " of " + usd(scope.maxTotal());
            return new Reached(message, "budget reached: " + figures + "; " + (scope.job().isEmpty()
                    ? "cancelling the active jobs and skipping those not started" : "cancelling the step's job")
                    + "; cost by job: " + costTable(status, scope));
        }
        if (!warned && spend.total() >= WARN_AT * scope.maxTotal()) {
            return new Warning(Math.round(WARN_AT * 100) + "% of the budget: " + figures + "; at "
                    + usd(scope.maxTotal()) + " Gantry " + (scope.job().isEmpty()
                    ? "cancels the active jobs and ends the run FAILED" : "cancels the step's job and fails the step"));
        }
        return new Within();
    }

    /** Each counted job's cost so far, and its state: the evidence of a stop, on one line. */
    static String costTable(RunStatus status, Scope scope) {
        List<String> rows = new ArrayList<>();
        for (StepRecord step : status.steps()) {
            if (scope.counts(step.name()) && step.attempts() > 0) {
                rows.add(step.name() + " " + usd(status.cost(step.name())) + " (" + step.state().name()
                        .toLowerCase(java.util.Locale.ROOT) + ", " + step.attempts() + " attempt"
                        + (step.attempts() == 1 ? "" : "s") + ")");
            }
        }
        return rows.isEmpty() ? "none started" : String.join(", ", rows);
    }

    /** Whether the attempt's job is running and so costs money until it is stopped, as the cost table counts it. */
    private static boolean running(RunStatus status, AttemptRecord attempt) {
        JobRecord job = status.jobs().get(attempt.jobId());
        return job != null && job.startedAt().isPresent() && !job.state().isTerminal();
    }

    /**
     * The end message a {@code budget-reached} event's detail begins with, for a driver that takes over a run its
     * predecessor began to stop.
     *
     * @param detail the detail of a {@link Reached} verdict, as stored
     * @return its {@code budget reached: $X of $Y}
     */
    public static String messageOf(String detail) {
        int end = detail.indexOf(", ");
        return end < 0 ? detail : detail.substring(0, end);
    }

    /** The ceiling of a budget, if it has one. */
    public static OptionalDouble maxTotal(Optional<Budget> budget) {
        return budget.map(Budget::maxTotal).orElse(OptionalDouble.empty());
    }

    /** An amount in USD as messages write it: {@code $12.5}, at most four decimals. */
    public static String usd(double amount) {
        return "$" + Money.format(amount);
    }
}
