package dev.gantry.backend.cyclecloud.internal.login;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One job's records in its directory on the cluster, as the status scripts' {@code J} line gives them
 * ({@code records.sh}): what the scheduler calls the job, when its last run started, how its ranks ended, the first
 * failure Gantry wrote, whether it was cancelled, and the dependency that kept it from running.
 *
 * @param jobId Gantry's id of the job
 * @param exists whether its directory exists
 * @param schedulerId the scheduler's job id, once the submit recorded it
 * @param started the last run's start
 * @param exit how the ranks ended, once they did
 * @param failure the first failure line Gantry's scripts wrote
 * @param cancelled whether {@code gantry cancel} marked it
 * @param unsatisfied the line a job wrote that never ran because a dependency it needed to succeed did not
 */
public record JobRecords(String jobId, boolean exists, Optional<String> schedulerId, Optional<Run> started,
                         Optional<Exit> exit, Optional<String> failure, boolean cancelled,
                         Optional<String> unsatisfied) {
    /** A run's start: run number (0 first, 1 after the first requeue, ...), time. */
    public record Run(int number, Instant at) {
    }

    /** How the ranks ended: code, time, run number. */
    public record Exit(int code, Instant at, int run) {
    }

    /** The fields of a {@code J} line after its tag; {@code -} first when the directory does not exist. */
    public static JobRecords parse(String[] f) {
        if (f[0].equals("-")) {
            return new JobRecords(f.length > 1 ? f[1] : "", false, Optional.empty(), Optional.empty(),
                    Optional.empty(), Optional.empty(), false, Optional.empty());
        }
        Optional<String> schedulerId = field(f, 1);
        Optional<Run> started = field(f, 2).flatMap(s -> {
            String[] w = s.split(" ");
            OptionalInt run = w.length >= 3 ? number(w[1]) : OptionalInt.empty();
            Optional<Instant> at = w.length >= 3 ? epoch(w[2]) : Optional.empty();
            return run.isPresent() && at.isPresent() ? Optional.of(new Run(run.getAsInt(), at.get()))
                    : Optional.empty();
        });
        Optional<Exit> exit = field(f, 3).flatMap(s -> {
            String[] w = s.split(" ");
            if (w.length < 3) {
                return Optional.empty();
            }
            OptionalInt code = number(w[0]);
            OptionalInt run = number(w[2]);
            Optional<Instant> at = epoch(w[1]);
            return code.isPresent() && run.isPresent() && at.isPresent()
                    ? Optional.of(new Exit(code.getAsInt(), at.get(), run.getAsInt())) : Optional.empty();
        });
        return new JobRecords(f[0], true, schedulerId, started, exit, field(f, 4), field(f, 5).isPresent(),
                field(f, 6));
    }

    /** The number of the last run that started: each one after the first is a requeue. */
    public int runs() {
        return Math.max(exit.map(Exit::run).orElse(0), started.map(Run::number).orElse(0));
    }

    private static Optional<String> field(String[] f, int i) {
        return i < f.length && !f[i].isBlank() ? Optional.of(f[i].strip()) : Optional.empty();
    }

    private static Optional<Instant> epoch(String text) {
        OptionalInt seconds = number(text);
        return seconds.isPresent() ? Optional.of(Instant.ofEpochSecond(seconds.getAsInt())) : Optional.empty();
    }

    /** A decimal integer, or empty. */
    public static OptionalInt number(String text) {
        try {
            return OptionalInt.of(Integer.parseInt(text.strip()));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }
}
