package dev.gantry.backend.manual.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class MultiHostJobTest {
    private static MultiHostJob.Rank rank(int k, JobState state, String message) {
        return new MultiHostJob.Rank(k, "h" + k, new JobStatus(state,
                state == JobState.FAILED ? OptionalInt.of(3) : OptionalInt.empty(), message, Optional.empty(),
                Optional.empty()));
    }

    @Test
    void theFirstFailedRankFailsTheJobAndTheRunningOnesAreStopped() {
        List<MultiHostJob.Rank> ranks = List.of(rank(0, JobState.RUNNING, "running"),
                rank(1, JobState.CANCELLED, "cancelled"), rank(2, JobState.FAILED, "exited with code 3"),
                rank(3, JobState.RUNNING, "running"));
        JobStatus status = MultiHostJob.aggregate(ranks);
        assertEquals(JobState.FAILED, status.state());
        assertEquals("rank 2 on h2: exited with code 3", status.message());
        assertEquals(OptionalInt.of(3), status.exitCode());
        assertEquals(List.of(0, 3), MultiHostJob.toStop(ranks).stream().map(MultiHostJob.Rank::rank).toList());
    }

    @Test
    void evictionOutranksCancelAndSuccessNeedsEveryRank() {
        assertEquals(JobState.PREEMPTED, MultiHostJob.aggregate(List.of(rank(0, JobState.CANCELLED, "c"),
                rank(1, JobState.PREEMPTED, "evicted"))).state());
        assertEquals(JobState.RUNNING, MultiHostJob.aggregate(List.of(rank(0, JobState.SUCCEEDED, "ok"),
                rank(1, JobState.RUNNING, "r"))).state());
        assertEquals(List.of(), MultiHostJob.toStop(List.of(rank(0, JobState.SUCCEEDED, "ok"),
                rank(1, JobState.RUNNING, "r"))), "a rank that succeeded first breaks nothing");
        assertEquals("all 2 ranks exited with code 0", MultiHostJob.aggregate(List.of(
                rank(0, JobState.SUCCEEDED, "ok"), rank(1, JobState.SUCCEEDED, "ok"))).message());
    }

    @Test
    void aSingleRankIsTheJob() {
        MultiHostJob.Rank only = rank(0, JobState.FAILED, "command not found: trian.py");
        assertEquals(only.status(), MultiHostJob.aggregate(List.of(only)));
    }

    @Test
    void rendezvousAndDevices() {
        assertEquals(Map.of("MASTER_ADDR", "10.0.0.4", "MASTER_PORT", "29500", "WORLD_SIZE", "4", "NODE_RANK", "2",
                "CUDA_VISIBLE_DEVICES", "1,3"), MultiHostJob.environment(2, 4, "10.0.0.4", 29500, List.of(1, 3), true));
        assertEquals("", MultiHostJob.environment(0, 1, "a", 1, List.of(), true).get("CUDA_VISIBLE_DEVICES"),
                "a CPU job on a GPU host sees no GPU");
        assertEquals(null, MultiHostJob.environment(0, 1, "a", 1, List.of(), false).get("CUDA_VISIBLE_DEVICES"));
    }
}
