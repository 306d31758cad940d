package dev.gantry.backend.cyclecloud.internal.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.testing.GoldenFiles;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClusterFactsTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden/slurm");

    private static ClusterFacts probe(String golden) {
        return ClusterFacts.parse(GOLDEN.read("probe/" + golden));
    }

    /** A probe answer around the given sinfo lines, every other section as on a healthy cluster. */
    private static ClusterFacts sinfo(String... lines) {
        return ClusterFacts.parse("=sinfo\n" + String.join("\n", lines) + "\n=sinfo-status 0\n=pyxis\nno\n"
                + "=workdir\nwritable\n=config\n=end\n");
    }

    @Test
    void everyPartitionWithItsNodesCpusMemoryAndGpusInSinfosOrder() {
        ClusterFacts facts = probe("cyclecloud-three-partitions.out");
        assertEquals(List.of("hpc*", "gpu", "htc", "dynamic"), List.copyOf(facts.partitions().keySet()));
        assertEquals(new ClusterFacts.Partition("hpc*", true, 2, 8, 8000, 2, "gantry-c[1-2]"),
                facts.partitions().get("hpc*"));
        assertEquals(new ClusterFacts.Partition("htc", false, 10, 4, 16000, 0, "htc-[1-10]"),
                facts.partitions().get("htc"));
        assertEquals(new ClusterFacts.Partition("dynamic", true, 0, 0, 0, 0, ""), facts.partitions().get("dynamic"));
        assertEquals(Optional.empty(), facts.sinfoError());
    }

    @Test
    void linesOfOnePartitionMergeCountingEveryNodeAndKeepingTheLargest() {
        // sinfo splits a partition whose nodes differ (here: memory); CycleCloud's powered-down nodes count too.
        assertEquals(new ClusterFacts.Partition("gpu", true, 4, 96, 1_900_000, 8, "gpu-[1-2],gpu-[3-4]"),
                probe("cyclecloud-three-partitions.out").partitions().get("gpu"));
    }

    @Test
    void theDefaultPartitionIsTheStarredOneAndIsFoundByItsPlainName() {
        ClusterFacts facts = probe("cyclecloud-three-partitions.out");
        assertEquals("hpc*", facts.defaultPartition().orElseThrow().name());
        assertEquals(facts.defaultPartition(), facts.partition("hpc"));
        assertEquals("gpu", facts.partition("gpu").orElseThrow().name());
        assertEquals(Optional.empty(), facts.partition("GPU"), "Slurm partition names are case-sensitive");
        assertEquals(Optional.empty(), sinfo("gpu|up|4|96|1900000|gpu:8|gpu-[1-4]").defaultPartition());
    }

    @Test
    void pyxisWorkDirAndConfigLinesAreRead() {
        ClusterFacts facts = probe("cyclecloud-three-partitions.out");
        assertTrue(facts.pyxis());
        assertTrue(facts.workDirWritable());
        assertEquals(Map.of("GresTypes", "gpu", "JobCompLoc", "/var/log/slurm/jobcomp.log", "JobCompType",
                "jobcomp/filetxt", "MinJobAge", "300 sec", "SelectType", "select/cons_tres", "SLURM_VERSION",
                "23.02.7"), facts.config());
    }

    @Test
    void aFailingSinfoIsReportedWithItsMessageAndListsNoPartition() {
        ClusterFacts facts = probe("sinfo-failed.out");
        assertEquals(Optional.of("sinfo: error: Unable to contact slurm controller (connect failure) "
                + "slurm_load_partitions: Unable to contact slurm controller (connect failure)"), facts.sinfoError());
        assertEquals(Map.of(), facts.partitions());
        assertFalse(facts.pyxis());
        assertFalse(facts.workDirWritable());
        assertEquals(Map.of(), facts.config());
    }

    @Test
    void aPartitionLikeLineFromAFailingSinfoIsNotAPartition() {
        ClusterFacts facts = ClusterFacts.parse("=sinfo\nhpc*|up|2|8|8000|gpu:2|gantry-c[1-2]\n=sinfo-status 1\n"
                + "=end\n");
        assertEquals(Map.of(), facts.partitions());
        assertEquals(Optional.of("hpc*|up|2|8|8000|gpu:2|gantry-c[1-2]"), facts.sinfoError());
    }

    @Test
    void sinfoWarningsBesideThePartitionLinesAreSkipped() {
        ClusterFacts facts = sinfo("sinfo: warning: the slurm.conf of this host differs",
                "hpc*|up|2|8|8000|(null)|c[1-2]");
        assertEquals(List.of("hpc*"), List.copyOf(facts.partitions().keySet()));
        assertEquals(Optional.empty(), facts.sinfoError());
    }

    @Test
    void gpusPerNodeComeFromTheGpuGresInEveryForm() {
        assertEquals(2, ClusterFacts.gpus("gpu:2"));
        assertEquals(8, ClusterFacts.gpus("gpu:a100:8(S:0-1)"));
        assertEquals(4, ClusterFacts.gpus("gpu:4,mps:400"));
        assertEquals(0, ClusterFacts.gpus("(null)"));
        assertEquals(0, ClusterFacts.gpus("mps:400"));
        assertEquals(0, ClusterFacts.gpus("gpu"), "a GRES without a count declares none per node");
    }

    @Test
    void aMemorySizeSinfoSummarizesWithPlusIsItsNumber() {
        // Without --exact, sinfo groups nodes of one partition and prints the smallest size with '+'.
        assertEquals(8000, sinfo("hpc*|up|3|8|8000+|(null)|c[1-3]").partitions().get("hpc*").memoryMib());
    }

    @Test
    void aCpuCountSinfoSummarizesWithPlusIsLeftUnknown() {
        // 0 means unknown: ClusterCheck then does not hold the plan's CPUs against the smallest node's.
        assertEquals(0, sinfo("hpc*|up|3|8+|8000|(null)|c[1-3]").partitions().get("hpc*").cpus());
    }

    @Test
    void aCutShortAnswerIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> probe("cut-short.out"));
        assertTrue(e.getMessage().startsWith("the cluster probe's answer is cut short (no =end line): =sinfo\n"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ClusterFacts.parse(""));
    }
}
