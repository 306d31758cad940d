package dev.gantry.cli;

import dev.gantry.Runs;
import dev.gantry.model.RunEvent;
import dev.gantry.model.RunListener;
import dev.gantry.model.RunStatus;
import dev.gantry.model.StepState;
import dev.gantry.model.StepRecord;
import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * What a person sees while a run is driven, on standard error: on a terminal, the steps table redrawn in place with
 * the latest event and a progress line under it (elapsed time and how many jobs are active, waiting and done),
 * redrawn every second so that a long wait shows it is alive; otherwise (a pipe, a CI log) each event as one
 * timestamped line. Either way, a step whose job waits at the backend (PENDING or PROVISIONING, which can last long
 * when capacity is short) gets a {@link ProgressLine}: {@code step train: PENDING for 1m12s (waiting for capacity)},
 * ticking in the live view, and in plain mode a line when it starts waiting, then every 30 seconds at most. With
 * --quiet, nothing.
 */
final class RunProgress implements RunListener {
    /** Redraws at most this often, so a burst of events does not flicker. */
    private static final long REDRAW_NANOS = 200_000_000L;

    private final PrintWriter err;
    private final boolean live;
    private final boolean quiet;
    /** Plain mode: the line of each step whose job waits at the backend, by step name. */
    private final java.util.Map<String, ProgressLine> waiting = new java.util.HashMap<>();
    /** Since when each step's job has waited in its state ("step train: PENDING"), as this view first saw it. */
    private final java.util.Map<String, java.time.Instant> waitingSince = new java.util.HashMap<>();
    /**
     * A job waits at the backend for a moment after every submit, and the engine sees it start only at its next poll:
     * a wait is shown once it has lasted this long, so that only the waits worth watching get a line.
     */
    static final java.time.Duration WAIT_SHOWN_AFTER = java.time.Duration.ofSeconds(5);
    private final Runs runs;
    private final String runId;
    private int drawnLines;
    private long lastDraw;
    private String lastEvent = "";
    private final long started = System.nanoTime();
    private final java.util.concurrent.ScheduledExecutorService ticker;

    RunProgress(PrintWriter err, ProgressLine.Mode mode, Runs runs, String runId) {
        this.err = err;
        this.live = mode == ProgressLine.Mode.LIVE;
        this.quiet = mode == ProgressLine.Mode.QUIET;
        this.runs = runs;
        this.runId = runId;
        this.ticker = quiet ? null : java.util.concurrent.Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "gantry-live-view");
            thread.setDaemon(true);
            return thread;
        });
        if (live) {
            ticker.scheduleWithFixedDelay(() -> redraw(true), 1, 1, java.util.concurrent.TimeUnit.SECONDS);
        } else if (!quiet) {
            // A job's PENDING or PROVISIONING is seen when the engine polls it, not as an event: look every second.
            ticker.scheduleWithFixedDelay(this::plainWaiting, 1, 1, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    @Override
    public void event(RunEvent event) {
        if (quiet) {
            return;
        }
        if (!live) {
            err.println(RunView.line(event));
            err.flush();
            return;
        }
        lastEvent = RunView.line(event);
        redraw(false);
    }

    @Override
    public void stepChanged(StepRecord step) {
        if (live) {
            redraw(false);
        }
    }

    /** The last picture, whatever the time since the one before: called once the run ends or the wait does. */
    void finish() {
        if (live) {
            ticker.shutdownNow();
            redraw(true);
        } else if (!quiet) {
            ticker.shutdownNow();
            synchronized (this) {
                waiting.values().forEach(ProgressLine::close);
                waiting.clear();
            }
        }
    }

    /** A step whose job waits at the backend, with what it waits for. */
    record Waiting(String step, dev.gantry.api.backend.JobState state, String detail) {
        String what() {
            return "step " + step + ": " + state;
        }
    }

    /**
     * The steps whose latest attempt's job is PENDING or PROVISIONING at the backend, in the run's order; the detail
     * is the backend's own message when it gave one.
     */
    static java.util.List<Waiting> waiting(RunStatus status) {
        java.util.List<Waiting> result = new java.util.ArrayList<>();
        for (StepRecord step : status.steps()) {
            if (step.state() != StepState.SUBMITTED && step.state() != StepState.RUNNING) {
                continue;
            }
            java.util.List<dev.gantry.model.AttemptRecord> attempts = status.attemptsOf(step.name());
            if (attempts.isEmpty()) {
                continue;
            }
            dev.gantry.model.JobRecord job = status.jobs().get(attempts.get(attempts.size() - 1).jobId());
            if (job == null || job.state() != dev.gantry.api.backend.JobState.PENDING
                    && job.state() != dev.gantry.api.backend.JobState.PROVISIONING) {
                continue;
            }
            // "submitting" and "submitted" are Gantry's own words for a job the backend has said nothing of yet.
            boolean told = !job.message().isBlank() && !job.message().equals("submitting")
                    && !job.message().equals("submitted");
            String detail = told ? job.message()
                    : job.state() == dev.gantry.api.backend.JobState.PENDING ? "waiting for capacity"
                    : "waiting for its nodes to start";
            result.add(new Waiting(step.name(), job.state(), detail));
        }
        return result;
    }

    /** The waits that have lasted {@link #WAIT_SHOWN_AFTER}, each with since when this view has seen it. */
    private java.util.Map<Waiting, java.time.Instant> longWaits(RunStatus status, java.time.Instant now) {
        java.util.Map<Waiting, java.time.Instant> shown = new java.util.LinkedHashMap<>();
        java.util.Set<String> still = new java.util.HashSet<>();
        for (Waiting step : waiting(status)) {
            still.add(step.what());
            java.time.Instant since = waitingSince.computeIfAbsent(step.what(), what -> now);
            if (!now.isBefore(since.plus(WAIT_SHOWN_AFTER))) {
                shown.put(step, since);
            }
        }
        waitingSince.keySet().removeIf(what -> !still.contains(what));
        return shown;
    }

    /** Plain mode: starts, repeats and ends the lines of waiting steps. */
    private synchronized void plainWaiting() {
        java.util.Set<String> still = new java.util.HashSet<>();
        longWaits(runs.snapshot(runId), java.time.Instant.now()).forEach((step, since) -> {
            still.add(step.step());
            ProgressLine line = waiting.computeIfAbsent(step.step(), name -> new ProgressLine(err,
                    ProgressLine.Mode.PLAIN, java.time.Clock.systemUTC(), 80));
            line.step(step.what(), step.detail(), since);
            line.tick();
        });
        waiting.keySet().removeIf(name -> !still.contains(name));
    }

    /** "elapsed 1m5s: 2 active, 1 waiting, 1 done of 4". */
    private String progressLine(RunStatus status) {
        long active = status.steps().stream().filter(s -> s.state() == StepState.SUBMITTED
                || s.state() == StepState.RUNNING).count();
        long done = status.finishedSteps();
        return "elapsed " + JobView.duration(java.time.Duration.ofNanos(System.nanoTime() - started)) + ": " + active
                + " active, " + (status.steps().size() - active - done) + " waiting, " + done + " done of "
                + status.steps().size();
    }

    private synchronized void redraw(boolean force) {
        long now = System.nanoTime();
        if (!force && now - lastDraw < REDRAW_NANOS) {
            return;
        }
        lastDraw = now;
        StringWriter text = new StringWriter();
        PrintWriter frame = new PrintWriter(text);
        RunStatus status = runs.snapshot(runId);
        RunView.print(frame, status);
        frame.println(lastEvent);
        java.time.Instant at = java.time.Instant.now();
        longWaits(status, at).forEach((step, since) -> frame.println(ProgressLine.render(step.what(),
                java.time.Duration.between(since, at), step.detail())));
        frame.println(progressLine(status));
        frame.flush();
        String picture = text.toString();
        if (drawnLines > 0) {
            // Up to the first line drawn last time, then clear to the end of the screen.
            err.print("\033[" + drawnLines + "F\033[J");
        }
        err.print(picture);
        err.flush();
        drawnLines = (int) picture.chars().filter(c -> c == '\n').count();
    }
}
