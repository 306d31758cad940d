package dev.gantry.backend.manual.internal.status;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.Architecture;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.JobEnvironment;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.hosts.jobs.JobVariables;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
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
        Workload workload = Workload.builder("train").phase(Phase.TRAINING).model(ModelClass.SMALL).command("true")
                .resources(Resources.builder().nodes(4).build()).build();
        Plan plan = Plan.builder(workload, new VmSize("Standard_D4s_v5", "D", 4, 16, Optional.empty(), false,
                Architecture.X64, Set.of("V2"))).build();
        Map<String, String> rank2 = new TreeMap<>(JobVariables.rank(Map.of(), "job-x", plan,
                SubmitOptions.withKey("k"), new JobEnvironment.Rendezvous(2, "10.0.0.4", 29500)));
        rank2.putAll(MultiHostJob.gpuVisibility(List.of(1, 3), true));
        assertEquals(Map.of("MASTER_ADDR", "10.0.0.4", "MASTER_PORT", "29500", "WORLD_SIZE", "4", "NODE_RANK", "2",
                "CUDA_VISIBLE_DEVICES", "1,3"), Map.of("MASTER_ADDR", rank2.get("MASTER_ADDR"), "MASTER_PORT",
                rank2.get("MASTER_PORT"), "WORLD_SIZE", rank2.get("WORLD_SIZE"), "NODE_RANK", rank2.get("NODE_RANK"),
                "CUDA_VISIBLE_DEVICES", rank2.get("CUDA_VISIBLE_DEVICES")));
        assertEquals("2", rank2.get("RANK"));
        assertEquals("4", rank2.get("GANTRY_NUM_NODES"));
        assertEquals("", MultiHostJob.gpuVisibility(List.of(), true).get("CUDA_VISIBLE_DEVICES"),
                "a CPU job on a GPU host sees no GPU");
        assertEquals(null, MultiHostJob.gpuVisibility(List.of(), false).get("CUDA_VISIBLE_DEVICES"));
    }
}
