package dev.gantry.cli;

import dev.gantry.model.Progress;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The progress of one long wait on standard error ({@code vm up}, {@code catalog refresh}, a run's step waiting for
 * its job to start), never on standard output, so that {@code --output json} leaves stdout to the JSON alone.
 * <ul>
 * <li>{@link Mode#LIVE} (standard error is a terminal): one line redrawn in place every second with the elapsed time,
 *     {@code creating 2 x Standard_E2as_v5 in eastus for 1m5s (1 of 2 created)}; only carriage return and erase-line,
 *     never colour, so NO_COLOR has nothing to turn off here.</li>
 * <li>{@link Mode#PLAIN} (a pipe, a CI log): a line, with the ISO-8601 UTC time first, when a step starts, and the same
 *     step again at most every {@link #PLAIN_REPEAT} while it lasts, so that a log shows a long wait is alive without a
 *     line a second. No carriage returns.</li>
 * <li>{@link Mode#QUIET} ({@code --quiet}): nothing.</li>
 * </ul>
 */
final class ProgressLine implements Progress, AutoCloseable {
    /** How often a plain line repeats a step that is still going on. */
    static final Duration PLAIN_REPEAT = Duration.ofSeconds(30);

    enum Mode { LIVE, PLAIN, QUIET }

    private final PrintWriter err;
    private final Mode mode;
    private final Clock clock;
    private final int width;
    private String what;
    private String detail = "";
    private Instant since;
    private Instant printed;
    private boolean drawn;
    private ScheduledExecutorService ticker;

    /**
     * @param width the terminal's columns: a live line longer than that would wrap, and a carriage return could then
     *     not take it back
     */
    ProgressLine(PrintWriter err, Mode mode, Clock clock, int width) {
        this.err = err;
        this.mode = mode;
        this.clock = clock;
        this.width = Math.max(20, width);
    }

    /** The line a verb shows: live on a terminal, plain elsewhere, none with --quiet. */
    static ProgressLine of(Verb verb) {
        return new ProgressLine(verb.env().err(), mode(verb), Clock.systemUTC(), columns(verb.env()));
    }

    static Mode mode(Verb verb) {
        return verb.root.quiet ? Mode.QUIET : verb.env().terminal() ? Mode.LIVE : Mode.PLAIN;
    }

    /** $COLUMNS when the shell exports it, else the 80 columns every terminal has. */
    static int columns(CliEnvironment env) {
        try {
            return Integer.parseInt(env.environment().getOrDefault("COLUMNS", "80").strip());
        } catch (NumberFormatException e) {
            return 80;
        }
    }

    /** Redraws (live) or repeats (plain) every second from now on, until {@link #close()}. */
    ProgressLine ticking() {
        if (mode != Mode.QUIET && ticker == null) {
            ticker = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "gantry-progress");
                thread.setDaemon(true);
                return thread;
            });
            ticker.scheduleWithFixedDelay(this::tick, 1, 1, TimeUnit.SECONDS);
        }
        return this;
    }

    @Override
    public void step(String what, String detail) {
        step(what, detail, null);
    }

    /** As {@link #step(String, String)}, for a step that began before it was shown: its time counts from then. */
    synchronized void step(String what, String detail, Instant began) {
        if (mode == Mode.QUIET) {
            return;
        }
        Instant now = clock.instant();
        boolean started = !what.equals(this.what);
        if (started) {
            this.what = what;
            since = began != null ? began : now;
        }
        this.detail = detail == null ? "" : detail;
        if (mode == Mode.LIVE) {
            draw(now);
        } else if (started) {
            plain(now);
        }
    }

    /** The passing of time: live, the elapsed time moves; plain, a step still going on is repeated now and then. */
    synchronized void tick() {
        if (what == null) {
            return;
        }
        Instant now = clock.instant();
        if (mode == Mode.LIVE) {
            draw(now);
        } else if (mode == Mode.PLAIN && !now.isBefore(printed.plus(PLAIN_REPEAT))) {
            plain(now);
        }
    }

    /** A line of its own (a notice), above the live line, which is drawn again under it. */
    synchronized void println(String line) {
        if (mode == Mode.LIVE && drawn) {
            err.print("\r\033[K");
            err.println(line);
            draw(clock.instant());
        } else {
            err.println(line);
            err.flush();
        }
    }

    /** The step ended (the operation returned or failed): the live line is erased, a plain one stays. */
    @Override
    public synchronized void close() {
        if (ticker != null) {
            ticker.shutdownNow();
            ticker = null;
        }
        if (mode == Mode.LIVE && drawn) {
            err.print("\r\033[K");
            err.flush();
            drawn = false;
        }
        what = null;
    }

    private void draw(Instant now) {
        String text = render(what, Duration.between(since, now), detail);
        if (text.length() >= width) {
            text = text.substring(0, width - 4) + "...";
        }
        err.print("\r\033[K" + text);
        err.flush();
        drawn = true;
    }

    private void plain(Instant now) {
        err.println(timestamped(now, render(what, Duration.between(since, now), detail)));
        err.flush();
        printed = now;
    }

    /** "step train: PENDING for 1m12s (waiting for capacity)"; no elapsed time in its first second. */
    static String render(String what, Duration elapsed, String detail) {
        StringBuilder text = new StringBuilder(what);
        if (elapsed.getSeconds() >= 1) {
            text.append(" for ").append(elapsed(elapsed));
        }
        if (detail != null && !detail.isEmpty()) {
            text.append(" (").append(detail).append(')');
        }
        return text.toString();
    }

    /** Whole seconds, as a ticking clock reads: "59s", "1m0s", "2h5m". */
    static String elapsed(Duration d) {
        long seconds = Math.max(0, d.getSeconds());
        if (seconds < 60) {
            return seconds + "s";
        }
        if (seconds < 3600) {
            return seconds / 60 + "m" + seconds % 60 + "s";
        }
        return seconds / 3600 + "h" + seconds % 3600 / 60 + "m";
    }

    /** "2026-12-03T17:40:00Z gantry: TEXT": the UTC time to the second, which sorts and greps. */
    static String timestamped(Instant at, String text) {
        return DateTimeFormatter.ISO_INSTANT.format(at.truncatedTo(ChronoUnit.SECONDS)) + " gantry: " + text;
    }
}
