package dev.gantry.backend.cyclecloud.internal.cyclecloud;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.Problem;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class ClusterLayoutTest {
    private static final ClusterLayout SLURM = Goldens.layout("hpc-prod", Goldens.SLURM);
    private static final ClusterLayout SPOT = Goldens.layout("spot-mix", Goldens.SPOT);
    private static final ClusterLayout MULTI = Goldens.layout("multi", Goldens.MULTIPLE);

    @Test
    void eachSizeMapsToThePartitionOfTheArrayThatStartsItWhateverTheCase() {
        assertEquals(Optional.of("hpc"), SLURM.partitionFor("Standard_HB120rs_v3", false));
        assertEquals(Optional.of("hpc"), SLURM.partitionFor("STANDARD_HB120RS_V3", false));
        assertEquals(Optional.of("htc"), SLURM.partitionFor("standard_f4s_v2", false));
        assertEquals(Optional.of("gpu"), SLURM.partitionFor("Standard_ND96asr_v4", false));
        assertEquals(Optional.of("dynamic"), SLURM.partitionFor("Standard_F2s_v2", false));
        assertEquals(Optional.of("compute"), MULTI.partitionFor("Standard_HC44rs", false));
        assertEquals(Optional.of("gpu"), MULTI.partitionFor("Standard_NC48ads_A100_v4", false));
        assertEquals(Optional.empty(), SLURM.partitionFor("Standard_ND96amsr_A100_v4", false));
    }

    @Test
    void anArrayWithoutASlurmPartitionTakesNoJobs() {
        // Standard_D4s_v5 is in login (slurm.autoscale false) and in dynamic: only dynamic takes jobs.
        assertEquals(Optional.of("dynamic"), SLURM.partitionFor("Standard_D4s_v5", false));
        ClusterLayout loginOnly = layout(array("login", Optional.empty(), false, bucket("Standard_D4s_v5", 2, 0)));
        assertEquals(Optional.empty(), loginOnly.partitionFor("Standard_D4s_v5", false));
        assertEquals(List.of(Problem.of("vmSize", "CycleCloud cluster 'c' cannot start on-demand Standard_D4s_v5: node"
                + " array 'login' starts it but serves no Slurm partition (its slurm.autoscale is false); its node "
                + "arrays: login (no Slurm partition): Standard_D4s_v5; add a node array, or a MachineType on one, "
                + "that starts Standard_D4s_v5 on-demand in CycleCloud (for Slurm, then run azslurm scale on the "
                + "scheduler node), or plan with a size the cluster has")),
                loginOnly.problems("Standard_D4s_v5", false, 1));
    }

    @Test
    void spotPlansGoToSpotArraysAndOnDemandPlansToOnDemandOnes() {
        assertEquals(Optional.of("gpu"), SPOT.partitionFor("Standard_NC24ads_A100_v4", false));
        assertEquals(Optional.of("gpu-spot"), SPOT.partitionFor("Standard_NC24ads_A100_v4", true));
        assertEquals(Optional.of("hpcspot"), SPOT.partitionFor("Standard_HB120rs_v3", true));
        assertEquals(Optional.empty(), SPOT.partitionFor("Standard_HB120rs_v3", false));
        assertEquals(Optional.empty(), SLURM.partitionFor("Standard_HB120rs_v3", true));
    }

    @Test
    void anInvalidBucketStartsNothing() {
        assertEquals(Optional.empty(), SPOT.partitionFor("Standard_F2s_v2", false));
        assertEquals(List.of(Problem.of("vmSize", "CycleCloud cluster 'spot-mix' cannot start on-demand "
                + "Standard_F2s_v2: node array 'htc' has Standard_F2s_v2 only in a bucket CycleCloud marks invalid "
                + "(DisabledMachineType), which keeps existing nodes and starts none; its node arrays: gpu: "
                + "Standard_NC24ads_A100_v4; gpuspot (Spot): Standard_NC24ads_A100_v4; hpcspot (Spot): "
                + "Standard_HB120rs_v3; htc: Standard_F4s_v2; add a node array, or a MachineType on one, that starts "
                + "Standard_F2s_v2 on-demand in CycleCloud (for Slurm, then run azslurm scale on the scheduler node), "
                + "or plan with a size the cluster has")), SPOT.problems("Standard_F2s_v2", false, 1));
    }

    @Test
    void whenSeveralArraysQualifyTheOneThatCanStartTheMostWinsThenThePartitionName() {
        NodeArray small = array("a-small", Optional.of("zeta"), false, bucket("Standard_D8s_v5", 10, 3));
        NodeArray large = array("b-large", Optional.of("alpha"), false, bucket("Standard_D8s_v5", 10, 5));
        assertEquals(Optional.of("alpha"), layout(small, large).partitionFor("Standard_D8s_v5", false));
        assertEquals(Optional.of("alpha"), layout(large, small).partitionFor("Standard_D8s_v5", false));
        NodeArray even = array("c-even", Optional.of("zeta"), false, bucket("Standard_D8s_v5", 10, 5));
        assertEquals(Optional.of("alpha"), layout(even, large).partitionFor("Standard_D8s_v5", false));
        assertEquals(Optional.of("alpha"), layout(large, even).partitionFor("Standard_D8s_v5", false));
    }

    @Test
    void aSizeNoArrayHasNamesTheSizeTheArraysTheirSizesAndTheFix() {
        assertEquals(List.of(Problem.of("vmSize", "no node array of CycleCloud cluster 'hpc-prod' starts "
                + "Standard_ND96amsr_A100_v4; its node arrays: hpc: Standard_HB120rs_v3; htc: Standard_F4s_v2; gpu: "
                + "Standard_ND96asr_v4; dynamic: Standard_F2s_v2, Standard_D4s_v5; login (no Slurm partition): "
                + "Standard_D4s_v5; add a node array, or a MachineType on one, that starts Standard_ND96amsr_A100_v4 "
                + "on-demand in CycleCloud (for Slurm, then run azslurm scale on the scheduler node), or plan with a "
                + "size the cluster has")), SLURM.problems("Standard_ND96amsr_A100_v4", false, 1));
    }

    @Test
    void aSizeOnlyTheOtherPricingHasSaysSo() {
        assertEquals(List.of(Problem.of("vmSize", "CycleCloud cluster 'spot-mix' cannot start on-demand "
                + "Standard_HB120rs_v3: node array 'hpcspot' starts it as Spot only; its node arrays: gpu: "
                + "Standard_NC24ads_A100_v4; gpuspot (Spot): Standard_NC24ads_A100_v4; hpcspot (Spot): "
                + "Standard_HB120rs_v3; htc: Standard_F4s_v2; add a node array, or a MachineType on one, that starts "
                + "Standard_HB120rs_v3 on-demand in CycleCloud (for Slurm, then run azslurm scale on the scheduler "
                + "node), or plan with a size the cluster has")), SPOT.problems("Standard_HB120rs_v3", false, 2));
        List<Problem> spotOnOnDemand = SLURM.problems("Standard_F4s_v2", true, 1);
        assertEquals(1, spotOnOnDemand.size());
        assertEquals("vmSize", spotOnOnDemand.get(0).path());
        assertEquals(true, spotOnOnDemand.get(0).message().startsWith("CycleCloud cluster 'hpc-prod' cannot start "
                + "Spot Standard_F4s_v2: node array 'htc' starts it on-demand only; "), spotOnOnDemand.get(0).message());
        assertEquals(true, spotOnOnDemand.get(0).message().contains("that starts Standard_F4s_v2 as Spot in "
                + "CycleCloud"), spotOnOnDemand.get(0).message());
    }

    @Test
    void aPlanLargerThanTheArrayCanEverHoldIsAProblem() {
        assertEquals(List.of(), SLURM.problems("Standard_ND96asr_v4", false, 4));
        assertEquals(List.of(Problem.of("vmSize", "the plan needs 5 nodes of Standard_ND96asr_v4, but node array "
                + "'gpu' (partition gpu) of CycleCloud cluster 'hpc-prod' can hold at most 4; raise the node array's "
                + "MaxCount in CycleCloud (and the cluster's, if that is lower), or plan at most 4 nodes")),
                SLURM.problems("Standard_ND96asr_v4", false, 5));
    }

    @Test
    void anArrayAtItsMaxCountWarnsThatTheJobWaits() {
        assertEquals(List.of("node array 'gpu' (partition gpu) of CycleCloud cluster 'hpc-prod' can start only 0 "
                + "more Standard_ND96asr_v4 now, and the plan needs 1: 4 of at most 4 are running (the node array's or "
                + "the cluster's MaxCount); the job waits until nodes free up, unless you raise the node array's "
                + "MaxCount in CycleCloud or the vCPU quota for the VM family in the region"),
                SLURM.warnings("Standard_ND96asr_v4", false, 1));
    }

    @Test
    void aQuotaLimitedSizeWarnsWithTheQuota() {
        assertEquals(List.of(), MULTI.warnings("Standard_NC48ads_A100_v4", false, 1));
        assertEquals(List.of("node array 'gpu' (partition gpu) of CycleCloud cluster 'multi' can start only 1 more "
                + "Standard_NC48ads_A100_v4 now, and the plan needs 2: 0 of at most 5 are running, and CycleCloud can "
                + "start 1 more (the family's quota allows 2 VMs of this size in the region); the job waits until nodes"
                + " free up, unless you raise the node array's MaxCount in CycleCloud or the vCPU quota for the VM "
                + "family in the region"), MULTI.warnings("Standard_NC48ads_A100_v4", false, 2));
    }

    @Test
    void aPlanThatFitsHasNeitherProblemsNorWarnings() {
        assertEquals(List.of(), SLURM.problems("Standard_HB120rs_v3", false, 14));
        assertEquals(List.of(), SLURM.warnings("Standard_HB120rs_v3", false, 14));
        assertEquals(1, SLURM.warnings("Standard_HB120rs_v3", false, 15).size());
        assertEquals(List.of(), SPOT.problems("standard_nc24ads_a100_v4", true, 16));
        assertEquals(List.of(), SPOT.warnings("standard_nc24ads_a100_v4", true, 16));
        // No warning where there is a problem: the problem says it all.
        assertEquals(List.of(), SLURM.warnings("Standard_ND96amsr_A100_v4", false, 1));
    }

    @Test
    void aClusterWithoutNodeArraysSaysSo() {
        assertEquals(List.of(Problem.of("vmSize", "CycleCloud cluster 'c' has no node arrays, so it cannot start "
                + "on-demand Standard_D4s_v5; add a node array, or a MachineType on one, that starts Standard_D4s_v5 "
                + "on-demand in CycleCloud (for Slurm, then run azslurm scale on the scheduler node), or plan with a "
                + "size the cluster has")), layout().problems("Standard_D4s_v5", false, 1));
    }

    private static ClusterLayout layout(NodeArray... arrays) {
        return new ClusterLayout("c", Optional.of("Started"), Optional.of("Started"), 100, 1000, List.of(arrays));
    }

    private static NodeArray array(String name, Optional<String> partition, boolean spot, NodeArray.Bucket bucket) {
        return new NodeArray(name, partition, spot, true, 10, 1000, List.of(bucket));
    }

    private static NodeArray.Bucket bucket(String size, long maxCount, long available) {
        return new NodeArray.Bucket(size, true, Optional.empty(), maxCount, maxCount - available, available, 100, 8,
                32.0, OptionalInt.of(0), false);
    }
}
