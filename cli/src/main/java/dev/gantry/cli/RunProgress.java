package dev.gantry.cli;

import dev.gantry.core.Runs;
import dev.gantry.core.runs.RunEvent;
import dev.gantry.core.runs.RunListener;
import dev.gantry.core.runs.RunStatus;
import dev.gantry.core.runs.StepState;
import dev.gantry.core.runs.StepRecord;
import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * What a person sees while a run is driven, on standard error: on a terminal, the steps table redrawn in place with
 * the latest event and a progress line under it (elapsed time and how many jobs are active, waiting and done),
 * redrawn every second so that a long wait shows it is alive; otherwise (a pipe, a CI log) each event as one
 * timestamped line.
 */
final class RunProgress implements RunListener {
    /** Redraws at most this often, so a burst of events does not flicker. */
    private static final long REDRAW_NANOS = 200_000_000L;

    private final PrintWriter err;
    private final boolean live;
    private final Runs runs;
    private final String runId;
    private int drawnLines;
    private long lastDraw;
    private String lastEvent = "";
    private final long started = System.nanoTime();
    private final java.util.concurrent.ScheduledExecutorService ticker;

    RunProgress(PrintWriter err, boolean live, Runs runs, String runId) {
        this.err = err;
        this.live = live;
        this.runs = runs;
        this.runId = runId;
        this.ticker = live ? java.util.concurrent.Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "gantry-live-view");
            thread.setDaemon(true);
            return thread;
        }) : null;
        if (live) {
            ticker.scheduleWithFixedDelay(() -> redraw(true), 1, 1, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    @Override
    public void event(RunEvent event) {
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
        }
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
