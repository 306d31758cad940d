package dev.gantry.backend.cyclecloud.internal.pbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.JobDependency;
import dev.gantry.backend.cyclecloud.internal.DirectiveHeader;
import dev.gantry.testing.GoldenFiles;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PbsDirectivesTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden");
    private static final String DIR = "/shared/gantry/jobs/job-train-7";

    private static PbsDirectives twoNodeSpotTraining() {
        return new PbsDirectives("gantry-train-7", Optional.of("workq"), Optional.of("ml-team"), 2, 96, 8, 1_843_200,
                true, Optional.of(Duration.ofHours(30)), DIR, true,
                List.of(new PbsDirectives.Dependency(JobDependency.Condition.AFTER_SUCCESS, "41.pbs-server"),
                        new PbsDirectives.Dependency(JobDependency.Condition.AFTER_ANY, "42.pbs-server"),
                        new PbsDirectives.Dependency(JobDependency.Condition.AFTER_SUCCESS, "43[].pbs-server")));
    }

    @Test
    void twoNodeSpotGpuTrainingWithDependencies() {
        GOLDEN.assertLines("pbs/qsub/two-node-spot-gpu.pbs", twoNodeSpotTraining().lines());
    }

    @Test
    void oneNodeCpuJobOnTheDefaultQueue() {
        PbsDirectives fit = new PbsDirectives("gantry-fit", Optional.empty(), Optional.empty(), 1, 8, 0, 0, false,
                Optional.empty(), "/home/azureuser/gantry/job-fit", false, List.of());
        GOLDEN.assertLines("pbs/qsub/one-node-cpu.pbs", fit.lines());
    }

    @Test
    void theEnvironmentNeverTravelsThroughPbsAndSpotJobsAreRerunnable() {
        List<String> lines = twoNodeSpotTraining().lines();
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("#PBS -V") || l.startsWith("#PBS -v")),
                lines::toString);
        assertTrue(lines.contains("#PBS -r y"));
        assertTrue(lines.contains("#PBS -j n"));
    }

    @Test
    void gpusAreLeftOutWhenNoneAndPlacementFollowsNodesAndExclusivity() {
        List<String> cpu = new PbsDirectives("gantry-x", Optional.empty(), Optional.empty(), 1, 4, 0, 2048, true,
                Optional.empty(), DIR, false, List.of()).lines();
        assertTrue(cpu.contains("#PBS -l select=1:ncpus=4:mem=2048mb"), cpu::toString);
        assertTrue(cpu.contains("#PBS -l place=free:excl"), cpu::toString);
        List<String> shared = new PbsDirectives("gantry-x", Optional.empty(), Optional.empty(), 3, 4, 1, 0, false,
                Optional.empty(), DIR, false, List.of()).lines();
        assertTrue(shared.contains("#PBS -l select=3:ncpus=4:ngpus=1"), shared::toString);
        assertTrue(shared.contains("#PBS -l place=scatter"), shared::toString);
    }

    @Test
    void dependenciesAreGroupedByTypeAfterokFirst() {
        assertTrue(twoNodeSpotTraining().lines()
                .contains("#PBS -W depend=afterok:41.pbs-server:43[].pbs-server,afterany:42.pbs-server"));
        List<String> anyOnly = new PbsDirectives("gantry-x", Optional.empty(), Optional.empty(), 1, 1, 0, 0, false,
                Optional.empty(), DIR, false,
                List.of(new PbsDirectives.Dependency(JobDependency.Condition.AFTER_ANY, "7"))).lines();
        assertTrue(anyOnly.contains("#PBS -W depend=afterany:7"), anyOnly::toString);
    }

    @Test
    void walltimeRoundsUpToTheSecondAndKeepsHoursPastADay() {
        assertEquals("00:00:01", DirectiveHeader.clock(Duration.ofMillis(1)));
        assertEquals("30:00:00", DirectiveHeader.clock(Duration.ofHours(30)));
        assertEquals("100:00:00", DirectiveHeader.clock(Duration.ofHours(100)));
    }

    @Test
    void aValueThatWouldChangeTheLineIsRefusedNamingTheField() {
        for (String bad : List.of("ml team", "ml\n#PBS -V", "ml'team", "ml\"team", "")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new PbsDirectives(
                    "gantry-x", Optional.empty(), Optional.of(bad), 1, 1, 0, 0, false, Optional.empty(), DIR, false,
                    List.of()));
            assertTrue(e.getMessage().startsWith("account '"), e.getMessage());
        }
        for (String bad : List.of("gantry x", "gantry\nx", "-gantry", "gantry'x", "")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new PbsDirectives(
                    bad, Optional.empty(), Optional.empty(), 1, 1, 0, 0, false, Optional.empty(), DIR, false,
                    List.of()));
            assertTrue(e.getMessage().startsWith("name '"), e.getMessage());
        }
        IllegalArgumentException queue = assertThrows(IllegalArgumentException.class, () -> new PbsDirectives(
                "gantry-x", Optional.of("workq -V"), Optional.empty(), 1, 1, 0, 0, false, Optional.empty(), DIR,
                false, List.of()));
        assertTrue(queue.getMessage().startsWith("queue 'workq -V'"), queue.getMessage());
        IllegalArgumentException dir = assertThrows(IllegalArgumentException.class, () -> new PbsDirectives(
                "gantry-x", Optional.empty(), Optional.empty(), 1, 1, 0, 0, false, Optional.empty(), "/my jobs",
                false, List.of()));
        assertTrue(dir.getMessage().startsWith("jobDirectory '"), dir.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new PbsDirectives.Dependency(JobDependency.Condition.AFTER_ANY, "41;qdel 42"));
        assertThrows(IllegalArgumentException.class,
                () -> new PbsDirectives.Dependency(JobDependency.Condition.AFTER_ANY, "41.server:42.server"));
        assertThrows(IllegalArgumentException.class, () -> new PbsDirectives("a".repeat(237), Optional.empty(),
                Optional.empty(), 1, 1, 0, 0, false, Optional.empty(), DIR, false, List.of()));
    }
}
