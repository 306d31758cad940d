package dev.gantry.hosts.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StatusMappingTest {
    private static final Instant STARTED = Instant.parse("2026-01-02T03:04:05Z");
    private static final Instant ENDED = Instant.parse("2026-01-02T03:05:00Z");

    /** launched, pid, alive, exit, cancelled, preempted -> state, exit code, message. */
    static Stream<Arguments> table() {
        return Stream.of(
                row(false, null, false, null, false, null, JobState.PENDING, null,
                        "recorded but not started (the submitting process stopped first); submit again with the same "
                                + "idempotency key to start it"),
                row(true, null, false, null, false, null, JobState.PENDING, null, "starting"),
                row(true, 42L, true, null, false, null, JobState.RUNNING, null, "running as process group 42"),
                row(true, 42L, false, 0, false, null, JobState.SUCCEEDED, 0, "exited with code 0"),
                row(true, 42L, false, 3, false, null, JobState.FAILED, 3, "exited with code 3"),
                row(true, 42L, false, 127, false, null, JobState.FAILED, 127, "command not found: train.py"),
                row(true, 42L, false, 126, false, null, JobState.FAILED, 126,
                        "command not executable (permission denied?): train.py"),
                row(true, 42L, false, 137, false, null, JobState.FAILED, 137,
                        "exited with code 137 (killed by signal 9)"),
                row(true, 42L, false, null, false, null, JobState.FAILED, null,
                        "process ended without recording an exit code (host rebooted or killed?)"),
                row(true, 42L, true, null, true, null, JobState.CANCELLED, null, "cancelled on request"),
                row(true, 42L, false, null, true, null, JobState.CANCELLED, null, "cancelled on request"),
                row(true, 42L, false, 0, true, null, JobState.CANCELLED, 0, "cancelled on request"),
                row(false, null, false, null, true, null, JobState.CANCELLED, null, "cancelled on request"),
                row(true, 42L, false, null, false, "spot eviction", JobState.PREEMPTED, null,
                        "evicted: spot eviction; resumable from its last checkpoint"),
                row(true, 42L, false, 0, false, "", JobState.PREEMPTED, 0,
                        "evicted; resumable from its last checkpoint"));
    }

    private static Arguments row(boolean launched, Long pid, boolean alive, Integer exit, boolean cancelled,
                                 String preempted, JobState state, Integer code, String message) {
        JobSnapshot snapshot = new JobSnapshot("train.py", launched,
                pid == null ? OptionalLong.empty() : OptionalLong.of(pid), alive,
                exit == null ? OptionalInt.empty() : OptionalInt.of(exit), cancelled, Optional.ofNullable(preempted),
                Optional.of(STARTED), Optional.of(ENDED));
        return Arguments.of(snapshot, state, code == null ? OptionalInt.empty() : OptionalInt.of(code), message);
    }

    @ParameterizedTest
    @MethodSource("table")
    void mapsFilesToStatus(JobSnapshot snapshot, JobState state, OptionalInt exitCode, String message) {
        JobStatus status = StatusMapping.map(snapshot);
        assertEquals(state, status.state());
        assertEquals(exitCode, status.exitCode());
        assertEquals(message, status.message());
        assertEquals(Optional.of(STARTED), status.startedAt());
        assertEquals(state.isTerminal() ? Optional.of(ENDED) : Optional.empty(), status.endedAt());
    }

    /** On a spot host only the vanished job reads differently: evicted, not failed. */
    @ParameterizedTest
    @MethodSource("table")
    void aSpotHostChangesOnlyTheVanishedJob(JobSnapshot snapshot, JobState state, OptionalInt exitCode,
                                            String message) {
        JobStatus status = StatusMapping.map(snapshot, true);
        boolean vanished = snapshot.launched() && snapshot.pid().isPresent() && !snapshot.alive()
                && snapshot.exitCode().isEmpty() && !snapshot.cancelled() && snapshot.preempted().isEmpty();
        if (vanished) {
            assertEquals(JobState.PREEMPTED, status.state());
            assertEquals(OptionalInt.empty(), status.exitCode());
            assertEquals("process ended without recording an exit code on a spot VM: taken as an eviction; "
                    + "resumable from its last checkpoint", status.message());
        } else {
            assertEquals(StatusMapping.map(snapshot, false), status);
            assertEquals(state, status.state());
        }
    }

    @org.junit.jupiter.api.Test
    void theTableHasAVanishedJob() {
        assertEquals(1, table().filter(row -> {
            JobSnapshot s = (JobSnapshot) row.get()[0];
            return s.launched() && s.pid().isPresent() && !s.alive() && s.exitCode().isEmpty() && !s.cancelled()
                    && s.preempted().isEmpty();
        }).count(), "the spot case above needs the vanished row");
    }
}
