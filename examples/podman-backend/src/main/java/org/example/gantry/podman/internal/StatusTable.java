package org.example.gantry.podman.internal;

import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A job's status from its container and its records: every podman state in one table.
 *
 * <table>
 *   <caption>podman's state to the job's</caption>
 *   <tr><th>container</th><th>job</th></tr>
 *   <tr><td>none, a start failure recorded</td><td>FAILED, podman's exit code and error</td></tr>
 *   <tr><td>created, configured, initialized</td><td>PENDING (CANCELLED once cancelled)</td></tr>
 *   <tr><td>running, paused, stopping</td><td>RUNNING</td></tr>
 *   <tr><td>exited or stopped, evicted before it ended</td><td>PREEMPTED, the eviction counted</td></tr>
 *   <tr><td>exited or stopped, cancelled before it ended</td><td>CANCELLED</td></tr>
 *   <tr><td>exited or stopped with 0, else non-zero</td><td>SUCCEEDED, else FAILED with the code</td></tr>
 *   <tr><td>removing, or a state podman adds later</td><td>UNKNOWN, naming it</td></tr>
 * </table>
 */
public final class StatusTable {
    /** podman's exit code for a command that was found but could not be run, and one that was not found. */
    static final int NOT_EXECUTABLE = 126;
    static final int NOT_FOUND = 127;

    private StatusTable() {
    }

    /** The status of a job with this container (empty: none exists) and these records. */
    public static JobStatus of(Optional<Container> container, JobRecords.Record record) {
        if (record.startFailure().isPresent()) {
            JobRecords.StartFailure failure = record.startFailure().get();
            return new JobStatus(JobState.FAILED, OptionalInt.of(failure.exitCode()), "the container did not start"
                    + meaning(failure.exitCode()) + ": " + failure.message(), Optional.empty(),
                    container.flatMap(Container::exitedAt));
        }
        Container c = container.orElseThrow();
        JobStatus status = switch (c.state()) {
            case "created", "configured", "initialized" -> record.cancelledAt().isPresent()
                    ? new JobStatus(JobState.CANCELLED, OptionalInt.empty(), "cancelled before it started",
                            Optional.empty(), record.cancelledAt())
                    : running(c, JobState.PENDING, "the container is being started");
            case "running", "paused", "stopping" -> running(c, JobState.RUNNING, "the container is " + c.state());
            case "exited", "stopped" -> exited(c, record);
            default -> running(c, JobState.UNKNOWN, "podman reports the container as '" + c.state() + "'");
        };
        return record.eviction().filter(e -> status.state() == JobState.PREEMPTED)
                .map(status::withEviction).orElse(status);
    }

    private static JobStatus exited(Container c, JobRecords.Record record) {
        int code = c.exitCode().orElse(-1);
        if (record.eviction().isPresent() && before(record.eviction().get().at(), c)) {
            return ended(c, JobState.PREEMPTED, "evicted: " + record.eviction().get().reason());
        }
        if (record.cancelledAt().isPresent() && before(record.cancelledAt().get(), c)) {
            return ended(c, JobState.CANCELLED, "cancelled");
        }
        if (code == 0) {
            return ended(c, JobState.SUCCEEDED, "exited with code 0");
        }
        return ended(c, JobState.FAILED, "exited with code " + code + meaning(code));
    }

    /** Whether Gantry stopped the job before it ended by itself (podman keeps whole seconds). */
    private static boolean before(Instant stoppedAt, Container c) {
        return c.exitedAt().map(exited -> !exited.isBefore(stoppedAt.truncatedTo(ChronoUnit.SECONDS)))
                .orElse(true);
    }

    private static String meaning(int code) {
        if (code == NOT_FOUND) {
            return " (command not found)";
        }
        if (code == NOT_EXECUTABLE) {
            return " (command not executable)";
        }
        return code > 128 && code < 160 ? " (killed by signal " + (code - 128) + ")" : "";
    }

    private static JobStatus running(Container c, JobState state, String message) {
        return new JobStatus(state, OptionalInt.empty(), message, c.startedAt(), Optional.empty());
    }

    private static JobStatus ended(Container c, JobState state, String message) {
        return new JobStatus(state, c.exitCode(), message, c.startedAt(), c.exitedAt());
    }
}
