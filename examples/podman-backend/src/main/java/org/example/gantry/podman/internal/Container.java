package org.example.gantry.podman.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One job's container as {@code podman ps} lists it ({@link PodmanCommands#LIST_FORMAT}).
 *
 * @param key the job's idempotency key, from its label
 * @param state podman's state: created, running, paused, stopping, exited, ...
 * @param exitCode the exit code, once exited
 * @param startedAt when it started, once it did
 * @param exitedAt when it exited, once it did
 */
public record Container(String key, String state, OptionalInt exitCode, Optional<Instant> startedAt,
                        Optional<Instant> exitedAt) {
    /** Podman's "never" is Go's zero time: year 1, as Unix seconds. */
    private static final long GO_ZERO_TIME = -62135596800L;

    /** The containers of {@code podman ps} output; a line not in the format is an error naming it. */
    public static List<Container> parseList(String output) {
        List<Container> containers = new ArrayList<>();
        for (String line : output.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] fields = line.split("\t", -1);
            if (fields.length != 5 || fields[0].isEmpty()) {
                throw new IllegalArgumentException("podman ps printed a line that is not KEY<TAB>STATE<TAB>EXIT"
                        + "<TAB>STARTED<TAB>EXITED: '" + line + "'");
            }
            String state = fields[1].trim().toLowerCase(java.util.Locale.ROOT);
            boolean exited = state.equals("exited") || state.equals("stopped");
            containers.add(new Container(fields[0], state,
                    exited ? OptionalInt.of(Integer.parseInt(fields[2].trim())) : OptionalInt.empty(),
                    time(fields[3]), exited ? time(fields[4]) : Optional.empty()));
        }
        return containers;
    }

    private static Optional<Instant> time(String seconds) {
        long value = Long.parseLong(seconds.trim());
        return value <= 0 || value == GO_ZERO_TIME ? Optional.empty() : Optional.of(Instant.ofEpochSecond(value));
    }
}
