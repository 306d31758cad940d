package dev.gantry.backend.cyclecloud.internal.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobRef;
import dev.gantry.backend.cyclecloud.internal.login.ClusterJobs;
import dev.gantry.testing.GoldenFiles;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SbatchDirectivesTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden/slurm");
    private static final String DIR = "/shared/gantry/jobs/job-train-7";

    private static SbatchDirectives twoNodeSpotTraining() {
        return new SbatchDirectives("gantry-train-7", Optional.of("gpu"), 2, 1, 8,
                SbatchDirectives.GpuRequest.GPUS_PER_NODE, 96, 1_843_200, Optional.of(Duration.ofHours(30)), DIR,
                true, true, List.of(new SbatchDirectives.Dependency(JobDependency.Condition.AFTER_SUCCESS, "41"),
                        new SbatchDirectives.Dependency(JobDependency.Condition.AFTER_ANY, "42_3")),
                Optional.of("ml-team"), Optional.of("high"), Optional.of("gantry-depends-on=job-prep,job-data"));
    }

    @Test
    void twoNodeSpotGpuTrainingWithDependencies() {
        GOLDEN.assertLines("two-node-spot-gpu.sbatch", twoNodeSpotTraining().lines());
    }

    @Test
    void oneNodeCpuJobOnTheDefaultPartitionWithGres() {
        SbatchDirectives cpu = new SbatchDirectives("gantry-fit", Optional.empty(), 1, 1, 0,
                SbatchDirectives.GpuRequest.GRES, 8, 0, Optional.empty(), "/home/azureuser/gantry/job-fit", false,
                false, List.of(), Optional.empty(), Optional.empty(), Optional.empty());
        GOLDEN.assertLines("one-node-cpu.sbatch", cpu.lines());
        SbatchDirectives gres = new SbatchDirectives("gantry-infer", Optional.of("gpu"), 1, 1, 1,
                SbatchDirectives.GpuRequest.GRES, 4, 0, Optional.empty(), "/home/azureuser/gantry/job-infer", false,
                false, List.of(), Optional.empty(), Optional.empty(), Optional.empty());
        assertTrue(gres.lines().contains("#SBATCH --gres=gpu:1"), gres.lines().toString());
    }

    @Test
    void theEnvironmentNeverTravelsThroughSlurmAndSpotJobsRequeue() {
        List<String> lines = twoNodeSpotTraining().lines();
        assertEquals("#SBATCH --export=NONE", lines.get(lines.size() - 1));
        assertTrue(lines.contains("#SBATCH --requeue"));
    }

    @Test
    void timeLimitsRoundUpToTheSecondAndNameDays() {
        assertEquals("00:00:01", SbatchDirectives.slurmTime(Duration.ofMillis(1)));
        assertEquals("01:30:00", SbatchDirectives.slurmTime(Duration.ofMinutes(90)));
        assertEquals("1-06:00:00", SbatchDirectives.slurmTime(Duration.ofHours(30)));
    }

    @Test
    void aValueThatWouldChangeTheLineIsRefused() {
        for (String bad : List.of("gpu --exclusive", "gpu\n#SBATCH --export=ALL", "a'b", "")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SbatchDirectives(
                    "gantry-x", Optional.of(bad), 1, 1, 0, SbatchDirectives.GpuRequest.GRES, 1, 0, Optional.empty(),
                    DIR, false, false, List.of(), Optional.empty(), Optional.empty(), Optional.empty()));
            assertTrue(e.getMessage().startsWith("partition '"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class,
                () -> new SbatchDirectives.Dependency(JobDependency.Condition.AFTER_ANY, "41;rm"));
        assertThrows(IllegalArgumentException.class, () -> new SbatchDirectives.Dependency(
                JobDependency.Condition.AFTER_ANY, "{recorded-id:job-a};rm"));
    }

    @Test
    void aDependencyMayNameTheIdRecordedInItsJobsDirectoryForTheSubmitToFillIn() {
        String placeholder = ClusterJobs.recordedIdOf(new JobRef("cyclecloud", "job-run.prep.1"));
        assertEquals("{recorded-id:job-run.prep.1}", placeholder);
        assertEquals("afterok:{recorded-id:job-run.prep.1}", new SbatchDirectives.Dependency(
                JobDependency.Condition.AFTER_SUCCESS, placeholder).render());
    }
}
