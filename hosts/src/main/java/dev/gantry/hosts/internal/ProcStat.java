package dev.gantry.hosts.internal;

import java.util.Optional;

/**
 * The fields of Linux's {@code /proc/PID/stat} that tell whether a process still runs: zombies (state Z) have ended
 * but stay listed, and keep their process group signalable, until their parent reaps them. Containers whose PID 1
 * reaps nothing keep them forever, so "kill -0 succeeds" does not mean "still running".
 */
public record ProcStat(char state, long processGroup) {
    /** Parses one stat line; the command name is in parentheses and may itself contain spaces and parentheses. */
    public static Optional<ProcStat> parse(String line) {
        int close = line.lastIndexOf(')');
        if (close < 0 || close + 2 >= line.length()) {
            return Optional.empty();
        }
        String[] fields = line.substring(close + 2).trim().split(" ");
        if (fields.length < 3 || fields[0].length() != 1) {
            return Optional.empty();
        }
        try {
            return Optional.of(new ProcStat(fields[0].charAt(0), Long.parseLong(fields[2])));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    public boolean zombie() {
        return state == 'Z' || state == 'X';
    }
}
