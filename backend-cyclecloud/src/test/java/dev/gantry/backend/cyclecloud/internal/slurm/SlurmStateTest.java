package dev.gantry.backend.cyclecloud.internal.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.JobState;
import dev.gantry.backend.cyclecloud.internal.StateKind;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SlurmStateTest {
    /** The job states of Slurm's squeue(1) "JOB STATE CODES", long names and codes as the manual lists them. */
    private static final List<String> SQUEUE_MANUAL = List.of(
            "BF BOOT_FAIL", "CA CANCELLED", "CD COMPLETED", "CF CONFIGURING", "CG COMPLETING", "DL DEADLINE",
            "F FAILED", "NF NODE_FAIL", "OOM OUT_OF_MEMORY", "PD PENDING", "PR PREEMPTED", "R RUNNING",
            "RD RESV_DEL_HOLD", "RF REQUEUE_FED", "RH REQUEUE_HOLD", "RQ REQUEUED", "RS RESIZING", "RV REVOKED",
            "SI SIGNALING", "SE SPECIAL_EXIT", "SO STAGE_OUT", "ST STOPPED", "S SUSPENDED", "TO TIMEOUT");

    @Test
    void everyStateOfTheManualIsMappedByNameAndByCode() {
        for (String entry : SQUEUE_MANUAL) {
            String[] codeAndName = entry.split(" ");
            SlurmState byName = SlurmState.parse(codeAndName[1]).orElseThrow(() -> new AssertionError(entry));
            assertEquals(codeAndName[1], byName.name());
            assertEquals(codeAndName[0], byName.code(), entry);
            assertEquals(Optional.of(byName), SlurmState.parse(codeAndName[0]));
        }
    }

    @Test
    void theTableHoldsTheManualsStatesAndNoOthers() {
        Set<String> codes = Arrays.stream(SlurmState.values()).map(SlurmState::code).collect(Collectors.toSet());
        assertEquals(SlurmState.values().length, codes.size(), "codes are distinct");
        assertEquals(SQUEUE_MANUAL.size(), SlurmState.values().length);
    }

    @Test
    void anEvictionIsNeverAFailure() {
        for (SlurmState state : List.of(SlurmState.NODE_FAIL, SlurmState.BOOT_FAIL, SlurmState.PREEMPTED)) {
            assertEquals(JobState.PREEMPTED, state.jobState(), state.name());
            assertTrue(state.isEviction(), state.name());
        }
        for (SlurmState state : SlurmState.values()) {
            if (state.isEviction()) {
                assertNotEquals(JobState.FAILED, state.jobState(), state.name());
            }
        }
    }

    @Test
    void aRequeuedJobIsPendingAgainAndCountsAnEviction() {
        for (SlurmState state : List.of(SlurmState.REQUEUED, SlurmState.REQUEUE_HOLD, SlurmState.REQUEUE_FED)) {
            assertEquals(JobState.PENDING, state.jobState(), state.name());
            assertEquals(StateKind.REQUEUED, state.kind());
        }
        assertFalse(SlurmState.PENDING.isEviction());
    }

    @Test
    void endsAreTerminalAndTheRestAreNot() {
        for (SlurmState state : SlurmState.values()) {
            boolean ended = state.kind() == StateKind.DONE || state.kind() == StateKind.EVICTED;
            assertEquals(ended, state.jobState().isTerminal(), state.name());
        }
        assertEquals(JobState.SUCCEEDED, SlurmState.COMPLETED.jobState());
        assertEquals(JobState.FAILED, SlurmState.TIMEOUT.jobState());
        assertEquals(JobState.FAILED, SlurmState.OUT_OF_MEMORY.jobState());
        assertEquals(JobState.CANCELLED, SlurmState.CANCELLED.jobState());
        assertEquals(JobState.PROVISIONING, SlurmState.CONFIGURING.jobState());
        assertEquals(JobState.RUNNING, SlurmState.COMPLETING.jobState());
    }

    @Test
    void flagsCaseAndBlanksDoNotMatterButUnknownStatesAreNotGuessed() {
        assertEquals(Optional.of(SlurmState.CANCELLED), SlurmState.parse("CANCELLED by 1000"));
        assertEquals(Optional.of(SlurmState.RUNNING), SlurmState.parse(" running+ "));
        assertEquals(Optional.of(SlurmState.NODE_FAIL), SlurmState.parse("nf"));
        assertEquals(Optional.empty(), SlurmState.parse("LAUNCH_FAILED_SOMEDAY"));
        assertEquals(Optional.empty(), SlurmState.parse(""));
        assertEquals(Optional.empty(), SlurmState.parse("   "));
    }
}
