package dev.gantry.backend.cyclecloud.internal.pbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.JobState;
import dev.gantry.testing.GoldenFiles;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PbsStateTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden");
    /** The job states of qstat(1B) and pbs_job_attributes(7B), as OpenPBS documents them. */
    private static final String DOCUMENTED = "BEFHMQRSTUWX";

    @Test
    void everyDocumentedLetterMapsAsTheGoldenTableSays() {
        List<String> table = DOCUMENTED.chars().mapToObj(c -> {
            PbsState state = PbsState.parse(String.valueOf((char) c)).orElseThrow(() -> new AssertionError(c));
            return String.format("%c %-14s %-8s %-7s %s", state.letter(), state.name(), state.jobState(),
                    state.kind(), state.meaning());
        }).toList();
        GOLDEN.assertLines("pbs/job-states.expected", table);
        assertEquals(DOCUMENTED.length(), PbsState.values().length);
        assertEquals(DOCUMENTED, Arrays.stream(PbsState.values()).map(s -> String.valueOf(s.letter()))
                .collect(Collectors.joining()));
    }

    @Test
    void exitStatusesReadWithPbsConventionsAsTheGoldenTableSays() {
        List<Integer> values = new ArrayList<>(List.of(0, 1, 3, 127, 137, 143, 255, 256, 265, 271));
        IntStream.rangeClosed(1, 31).forEach(n -> values.add(-n));
        values.add(-99);
        List<String> table = values.stream().map(value -> {
            PbsExitStatus status = new PbsExitStatus(value);
            return String.format("%4d %-9s %-8s %s", value, status.jobState(), status.isEviction() ? "eviction" : "-",
                    status.meaning());
        }).toList();
        GOLDEN.assertLines("pbs/exit-statuses.expected", table);
    }

    @Test
    void aFinishedJobIsReadFromItsSubstateAndExitStatus() {
        OptionalInt finished = OptionalInt.of(92);
        assertEquals(JobState.SUCCEEDED, PbsState.FINISHED.jobState(finished, exit(0)));
        assertEquals(JobState.FAILED, PbsState.FINISHED.jobState(finished, exit(1)));
        assertEquals(JobState.FAILED, PbsState.FINISHED.jobState(finished, exit(271)));
        assertEquals(JobState.PREEMPTED, PbsState.FINISHED.jobState(finished, exit(-20)));
        assertEquals(JobState.CANCELLED, PbsState.FINISHED.jobState(OptionalInt.of(91), exit(271)));
        assertEquals(JobState.CANCELLED, PbsState.FINISHED.jobState(OptionalInt.of(91), Optional.empty()));
        assertEquals(JobState.FAILED, PbsState.FINISHED.jobState(OptionalInt.of(93), exit(0)));
        assertEquals(JobState.FAILED, PbsState.FINISHED.jobState(OptionalInt.of(93), Optional.empty()));
        assertEquals(JobState.UNKNOWN, PbsState.MOVED.jobState(OptionalInt.of(94), Optional.empty()));
        assertEquals(JobState.SUCCEEDED, PbsState.EXPIRED.jobState(finished, exit(0)));
        // A job deleted while queued ends with neither.
        assertEquals(JobState.CANCELLED, PbsState.FINISHED.jobState(OptionalInt.empty(), Optional.empty()));
        // The others are what their letter says, whatever else is printed.
        assertEquals(JobState.PENDING, PbsState.QUEUED.jobState(OptionalInt.of(10), exit(-20)));
    }

    @Test
    void anEvictionIsNeverAFailure() {
        for (PbsExitStatus.JobExec code : PbsExitStatus.JobExec.values()) {
            PbsExitStatus status = new PbsExitStatus(code.code());
            if (status.isEviction()) {
                assertNotEquals(JobState.FAILED, status.jobState(), code.name());
            }
        }
        assertTrue(new PbsExitStatus(-20).isEviction());
        assertTrue(new PbsExitStatus(-14).isEviction());
        assertFalse(new PbsExitStatus(-3).isEviction());
        assertEquals(OptionalInt.of(15), new PbsExitStatus(271).signal());
        assertEquals(OptionalInt.of(9), new PbsExitStatus(137).signal());
        assertEquals(OptionalInt.empty(), new PbsExitStatus(3).signal());
    }

    @Test
    void unknownLettersAreNotGuessed() {
        for (String text : List.of("", " ", "C", "Z", "RR", "r", "running", "0")) {
            assertEquals(Optional.empty(), PbsState.parse(text), "'" + text + "'");
        }
        assertEquals(Optional.of(PbsState.RUNNING), PbsState.parse(" R "));
        assertEquals(Optional.empty(), new PbsExitStatus(-99).special());
    }

    private static Optional<PbsExitStatus> exit(int value) {
        return Optional.of(new PbsExitStatus(value));
    }
}
