package dev.gantry.backend.cyclecloud.internal.gridengine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.JobState;
import dev.gantry.backend.cyclecloud.internal.StateKind;
import dev.gantry.testing.GoldenFiles;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GridEngineStateTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden");

    private static List<String> documentedStates() {
        return GOLDEN.read("gridengine/sge-status-states.txt").lines()
                .filter(line -> !line.isBlank() && !line.startsWith("#")).toList();
    }

    private static GridEngineState state(String letters) {
        return GridEngineState.parse(letters).orElseThrow(() -> new AssertionError("not parsed: " + letters));
    }

    @Test
    void everyStateOfSgeStatusMapsAsTheGoldenTableSays() {
        List<String> table = documentedStates().stream().map(letters -> {
            GridEngineState state = state(letters);
            return String.format("%-6s %-9s %-8s %-8s %s", letters, state.jobState(), state.kind(),
                    state.isEviction() ? "eviction" : "-", state.meaning("7"));
        }).toList();
        GOLDEN.assertLines("gridengine/sge-status-states.expected", table);
    }

    @Test
    void anErrorIsAFailureThatSaysHowToClearIt() {
        for (String letters : List.of("Eqw", "Ehqw", "EhRqw")) {
            assertEquals(JobState.FAILED, state(letters).jobState(), letters);
            assertTrue(state(letters).meaning("5").contains("qmod -cj 5"), letters);
        }
    }

    @Test
    void aDeletionIsACancellation() {
        for (String letters : List.of("dr", "dt", "dRr", "dRt", "ds", "dS", "dT", "dRs", "dRS", "dRT")) {
            assertEquals(JobState.CANCELLED, state(letters).jobState(), letters);
        }
    }

    @Test
    void aRequeueIsAnEvictionAndNeverAFailure() {
        for (String letters : List.of("Rq", "hRwq", "hRq")) {
            GridEngineState state = state(letters);
            assertEquals(JobState.PENDING, state.jobState(), letters);
            assertEquals(StateKind.REQUEUED, state.kind(), letters);
            assertTrue(state.isEviction(), letters);
        }
        // Running again after the requeue: restarted, counted once already.
        assertTrue(state("Rr").restarted());
        assertFalse(state("Rr").isEviction());
        assertEquals(JobState.RUNNING, state("Rr").jobState());
        for (String letters : documentedStates()) {
            if (state(letters).isEviction()) {
                assertNotEquals(JobState.FAILED, state(letters).jobState(), letters);
            }
        }
    }

    @Test
    void suspendedJobsAreStillRunningAndHeldOnesPending() {
        for (String letters : List.of("s", "ts", "S", "tS", "T", "tT", "Ss", "Rs", "RtS")) {
            assertEquals(JobState.RUNNING, state(letters).jobState(), letters);
        }
        for (String letters : List.of("qw", "hqw")) {
            assertEquals(JobState.PENDING, state(letters).jobState(), letters);
            assertEquals(StateKind.WAITING, state(letters).kind(), letters);
        }
        assertEquals(JobState.RUNNING, state("hr").jobState());
        assertEquals(EnumSet.of(GridEngineState.Flag.HOLD, GridEngineState.Flag.RESTARTED,
                GridEngineState.Flag.WAITING, GridEngineState.Flag.QUEUED), state("hRwq").flags());
    }

    @Test
    void unknownLettersAndPlacelessStatesAreNotGuessed() {
        for (String text : List.of("", "  ", "N", "P", "Nr", "qwx", "qqw", "h", "E", "d", "R", "running", "q w")) {
            assertEquals(Optional.empty(), GridEngineState.parse(text), "'" + text + "'");
        }
        assertEquals("hqw", GridEngineState.parse(" hqw ").orElseThrow().letters());
    }

    @Test
    void aStateIsItsLetters() {
        assertThrows(IllegalArgumentException.class,
                () -> new GridEngineState("qw", EnumSet.of(GridEngineState.Flag.RUNNING)));
        assertThrows(IllegalArgumentException.class,
                () -> new GridEngineState("qwq",
                        EnumSet.of(GridEngineState.Flag.QUEUED, GridEngineState.Flag.WAITING)));
    }
}
