package org.example.gantry.podman.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.backend.Eviction;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** podman ps's lines, and every podman state in the status table. */
class StatusTableTest {
    private static final JobRecords.Record NOTHING = new JobRecords.Record(Optional.empty(), Optional.empty(),
            Optional.empty());
    /** As podman 4.3 listed a running, a never started and an exited container (Go's zero time for "never"). */
    private static final String PS = """
            k-run\trunning\t0\t1796493182\t-62135596800
            k-created\tcreated\t0\t-62135596800\t-62135596800
            k-exit4\texited\t4\t1796493182\t1796493185
            """;

    @Test
    void podmanPsLinesAreParsed() {
        List<Container> containers = Container.parseList(PS);
        assertEquals(new Container("k-run", "running", OptionalInt.empty(),
                Optional.of(Instant.ofEpochSecond(1796493182)), Optional.empty()), containers.get(0));
        assertEquals(new Container("k-created", "created", OptionalInt.empty(), Optional.empty(), Optional.empty()),
                containers.get(1));
        assertEquals(new Container("k-exit4", "exited", OptionalInt.of(4),
                Optional.of(Instant.ofEpochSecond(1796493182)), Optional.of(Instant.ofEpochSecond(1796493185))),
                containers.get(2));
    }

    @Test
    void aLineInAnotherFormatIsAnErrorQuotingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Container.parseList("k running 0\n"));
        assertEquals("podman ps printed a line that is not KEY<TAB>STATE<TAB>EXIT<TAB>STARTED<TAB>EXITED:"
                + " 'k running 0'", e.getMessage());
    }

    @Test
    void everyPodmanStateMapsToAJobState() {
        assertEquals(JobState.PENDING, state("created", 0, NOTHING));
        assertEquals(JobState.PENDING, state("initialized", 0, NOTHING));
        assertEquals(JobState.RUNNING, state("running", 0, NOTHING));
        assertEquals(JobState.RUNNING, state("paused", 0, NOTHING));
        assertEquals(JobState.RUNNING, state("stopping", 0, NOTHING));
        assertEquals(JobState.SUCCEEDED, state("exited", 0, NOTHING));
        assertEquals(JobState.FAILED, state("exited", 3, NOTHING));
        assertEquals(JobState.FAILED, state("stopped", 1, NOTHING));
        assertEquals(JobState.UNKNOWN, state("removing", 0, NOTHING));
    }

    @Test
    void aFailureSaysWhatItsCodeMeans() {
        assertEquals("exited with code 127 (command not found)", status("exited", 127, NOTHING).message());
        assertEquals("exited with code 137 (killed by signal 9)", status("exited", 137, NOTHING).message());
    }

    @Test
    void cancelledOrEvictedBeforeItEndedIsCancelledOrPreemptedAfterwardsNot() {
        Instant exited = Instant.ofEpochSecond(1000);
        JobRecords.Record cancelledBefore = new JobRecords.Record(Optional.of(exited.minusMillis(300)),
                Optional.empty(), Optional.empty());
        JobRecords.Record cancelledAfter = new JobRecords.Record(Optional.of(exited.plusSeconds(2)),
                Optional.empty(), Optional.empty());
        assertEquals(JobState.CANCELLED, state("exited", 143, cancelledBefore));
        assertEquals(JobState.SUCCEEDED, state("exited", 0, cancelledAfter));
        assertEquals(JobState.CANCELLED, state("created", 0, cancelledAfter));

        Eviction eviction = new Eviction(exited.minusMillis(10), "host drained");
        JobStatus evicted = status("exited", 137, new JobRecords.Record(Optional.empty(), Optional.of(eviction),
                Optional.empty()));
        assertEquals(JobState.PREEMPTED, evicted.state());
        assertEquals(1, evicted.evictions());
        assertEquals(Optional.of(eviction), evicted.lastEviction());
        assertEquals("evicted: host drained", evicted.message());
    }

    @Test
    void aContainerThatNeverStartedFailedWithPodmansError() {
        JobStatus status = StatusTable.of(Optional.empty(), new JobRecords.Record(Optional.empty(), Optional.empty(),
                Optional.of(new JobRecords.StartFailure(127, "Error: exec: \"nosuch\": executable file not found"))));
        assertEquals(JobState.FAILED, status.state());
        assertEquals(OptionalInt.of(127), status.exitCode());
        assertEquals("the container did not start (command not found): Error: exec: \"nosuch\": executable file not"
                + " found", status.message());
    }

    private static JobState state(String podmanState, int code, JobRecords.Record record) {
        return status(podmanState, code, record).state();
    }

    private static JobStatus status(String podmanState, int code, JobRecords.Record record) {
        boolean exited = podmanState.equals("exited") || podmanState.equals("stopped");
        Container container = new Container("k", podmanState, exited ? OptionalInt.of(code) : OptionalInt.empty(),
                Optional.of(Instant.ofEpochSecond(990)), exited ? Optional.of(Instant.ofEpochSecond(1000))
                : Optional.empty());
        return StatusTable.of(Optional.of(container), record);
    }
}
