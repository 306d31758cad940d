package dev.gantry.cli;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.LogLine;
import dev.gantry.Runs;
import dev.gantry.model.RunEvent;
import dev.gantry.model.RunListener;
import dev.gantry.model.RunRecord;
import dev.gantry.model.RunState;
import dev.gantry.model.RunStatus;
import java.time.Duration;
import java.util.List;

/**
 * Drives a run from this terminal until it ends, showing its progress, or, when another live process drives it,
 * follows its history; then prints where it ended. Shared by {@code gantry run WORKFLOW} and {@code gantry attach}.
 */
final class Attach {
    /** How often a follower looks for new events of a run another process drives. */
    private static final Duration FOLLOW_POLL = Duration.ofSeconds(1);

    private Attach() {
    }

    /**
     * @param logs whether the steps' output is shown too, each line after its step's name (standard output, or
     *     standard error in JSON mode); the progress is then plain lines, even on a terminal
     * @return the exit code: 0 when the run succeeded, 1 when it failed, was cancelled or is still running
     */
    static int drive(Verb verb, Runs runs, String runId, Duration timeout, boolean logs) throws InterruptedException {
        ProgressLine.Mode mode = ProgressLine.mode(verb);
        if (mode == ProgressLine.Mode.LIVE && (verb.output.json() || logs)) {
            mode = ProgressLine.Mode.PLAIN;
        }
        RunProgress progress = new RunProgress(verb.env().err(), mode, runs, runId);
        List<RunListener> listeners = logs ? List.of(progress, new StepOutput(verb)) : List.of(progress);
        RunRecord run;
        try {
            run = runs.drive(runId, timeout, listeners);
        } catch (GantryException e) {
            if (e.code() != ErrorCode.USAGE || runs.driver(runId).isEmpty()) {
                throw e;
            }
            verb.env().err().println("gantry: " + e.getMessage().split(";")[0] + "; following it");
            run = follow(verb, runs, runId, timeout);
        }
        progress.finish();
        return report(verb, runs, run);
    }

    /** Prints the run's events as another process records them, until the run ends or the time runs out. */
    private static RunRecord follow(Verb verb, Runs runs, String runId, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long seen = 0;
        while (true) {
            for (RunEvent event : runs.historyAfter(runId, seen)) {
                seen = event.sequence();
                if (!verb.output.json() && !verb.root.quiet) {
                    verb.env().err().println(RunView.line(event));
                }
            }
            verb.env().err().flush();
            RunRecord run = runs.find(runId);
            if (run.state().finished() || System.nanoTime() >= deadline) {
                return run;
            }
            if (runs.driver(runId).isEmpty()) {
                // Its driver is gone (killed, or it gave up): drive it from here.
                return runs.drive(runId, Duration.ofNanos(Math.max(1, deadline - System.nanoTime())), List.of());
            }
            Thread.sleep(FOLLOW_POLL.toMillis());
        }
    }

    /** Each line a step prints, after the step's name. */
    private record StepOutput(Verb verb) implements RunListener {
        @Override
        public boolean wantsLogs() {
            return true;
        }

        @Override
        public void logLine(String runId, String step, LogLine line) {
            boolean toErr = line.stream() == LogLine.Stream.STDERR || verb.output.json();
            java.io.PrintWriter stream = toErr ? verb.env().err() : verb.env().out();
            synchronized (stream) {
                stream.println(step + " | " + line.text());
                stream.flush();
            }
        }
    }

    static int report(Verb verb, Runs runs, RunRecord run) {
        RunStatus status = runs.statusWithBudget(run.id());
        if (verb.output.json()) {
            Json.print(verb.env().out(), RunView.json(status));
        } else {
            RunView.print(verb.env().out(), status);
        }
        verb.env().out().flush();
        return status.run().state() == RunState.SUCCEEDED ? Main.OK : Main.RUNTIME_FAILURE;
    }
}
