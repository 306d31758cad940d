package dev.gantry.backend.cyclecloud.internal.gridengine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.JobDependency;
import dev.gantry.backend.cyclecloud.internal.DirectiveHeader;
import dev.gantry.testing.GoldenFiles;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QsubDirectivesTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden");
    private static final String DIR = "/home/gantryqa/jobs/train-7";

    /** The header Son of Grid Engine 8.1.9's qsub accepted and ran (see golden/gridengine/README.md). */
    private static QsubDirectives twoSlotSpotTraining() {
        return new QsubDirectives("gantry-train-7", Optional.of("all.q"), Optional.of("ml-team"), 2,
                Optional.of("smp"), Optional.of(Duration.ofHours(30)), 4096, "h_vmem", 2, "gpu", true, DIR, true,
                List.of(new QsubDirectives.Dependency(JobDependency.Condition.AFTER_SUCCESS, "41"),
                        new QsubDirectives.Dependency(JobDependency.Condition.AFTER_ANY, "42")));
    }

    @Test
    void twoSlotSpotGpuTrainingWithDependencies() {
        GOLDEN.assertLines("gridengine/qsub/two-slot-spot-gpu.sh", twoSlotSpotTraining().lines());
    }

    @Test
    void oneSlotCpuJobOnTheDefaultQueue() {
        QsubDirectives fit = new QsubDirectives("gantry-fit", Optional.empty(), Optional.empty(), 1,
                Optional.empty(), Optional.empty(), 0, "m_mem_free", 0, "gpu", false, "/shared/gantry/jobs/job-fit",
                false, List.of());
        GOLDEN.assertLines("gridengine/qsub/one-slot-cpu.sh", fit.lines());
    }

    @Test
    void theEnvironmentNeverTravelsThroughTheSchedulerAndSpotJobsAreRerunnable() {
        List<String> lines = twoSlotSpotTraining().lines();
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("#$ -V") || l.startsWith("#$ -v")), lines::toString);
        assertTrue(lines.contains("#$ -r y"));
        assertEquals("#$ -S /bin/bash", lines.get(lines.size() - 1));
        // Nothing that would change what qsub -terse prints.
        assertTrue(lines.stream().noneMatch(l -> l.matches("#\\$ -(sync|now|verify|terse)\\b.*")), lines::toString);
    }

    @Test
    void gridEngineHoldsForAnyEndSoAfterSuccessIsTheCallersToCheck() {
        assertEquals(Set.of(JobDependency.Condition.AFTER_ANY), QsubDirectives.NATIVE_CONDITIONS);
        QsubDirectives training = twoSlotSpotTraining();
        assertTrue(training.lines().contains("#$ -hold_jid 41,42"));
        assertEquals(List.of(new QsubDirectives.Dependency(JobDependency.Condition.AFTER_SUCCESS, "41")),
                training.dependenciesCheckedByCaller());
        assertTrue(new QsubDirectives.Dependency(JobDependency.Condition.AFTER_ANY, "42").isNative());
        assertFalse(new QsubDirectives.Dependency(JobDependency.Condition.AFTER_SUCCESS, "41").isNative());
    }

    @Test
    void timeLimitsRoundUpToTheSecondAndKeepHoursPastADay() {
        assertEquals("00:00:01", DirectiveHeader.clock(Duration.ofMillis(1)));
        assertEquals("01:30:00", DirectiveHeader.clock(Duration.ofMinutes(90)));
        assertEquals("30:00:00", DirectiveHeader.clock(Duration.ofHours(30)));
    }

    @Test
    void aValueThatWouldChangeTheLineIsRefusedNamingTheField() {
        for (String bad : List.of("all.q -V", "all.q\n#$ -V", "all'q", "all\"q", "$HOME", "")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> withQueue(bad));
            assertTrue(e.getMessage().startsWith("queue '"), e.getMessage());
        }
        for (String bad : List.of("gantry x", "gantry\nx", "gantry'x", "gantry:x", "gantry@x", "gantry/x", "7days")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> withName(bad));
            assertTrue(e.getMessage().startsWith("name '"), e.getMessage());
        }
        IllegalArgumentException project = assertThrows(IllegalArgumentException.class, () -> new QsubDirectives(
                "gantry-x", Optional.empty(), Optional.of("ml team"), 1, Optional.empty(), Optional.empty(), 0,
                "h_vmem", 0, "gpu", false, DIR, false, List.of()));
        assertTrue(project.getMessage().startsWith("project 'ml team'"), project.getMessage());
        IllegalArgumentException pe = assertThrows(IllegalArgumentException.class, () -> new QsubDirectives(
                "gantry-x", Optional.empty(), Optional.empty(), 4, Optional.of("mpi\n#$ -V"), Optional.empty(), 0,
                "h_vmem", 0, "gpu", false, DIR, false, List.of()));
        assertTrue(pe.getMessage().startsWith("parallelEnvironment '"), pe.getMessage());
        IllegalArgumentException dir = assertThrows(IllegalArgumentException.class, () -> new QsubDirectives(
                "gantry-x", Optional.empty(), Optional.empty(), 1, Optional.empty(), Optional.empty(), 0, "h_vmem",
                0, "gpu", false, "/home/my jobs", false, List.of()));
        assertTrue(dir.getMessage().startsWith("jobDirectory '"), dir.getMessage());
        IllegalArgumentException complex = assertThrows(IllegalArgumentException.class, () -> new QsubDirectives(
                "gantry-x", Optional.empty(), Optional.empty(), 1, Optional.empty(), Optional.empty(), 0, "h_vmem",
                1, "gpu=8,h_vmem", false, DIR, false, List.of()));
        assertTrue(complex.getMessage().startsWith("gpuComplex '"), complex.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new QsubDirectives.Dependency(JobDependency.Condition.AFTER_ANY, "41;qdel -u x"));
        assertThrows(IllegalArgumentException.class,
                () -> new QsubDirectives.Dependency(JobDependency.Condition.AFTER_ANY, "gantry-*"));
        assertEquals("{recorded-id:job-a}", new QsubDirectives.Dependency(JobDependency.Condition.AFTER_ANY,
                "{recorded-id:job-a}").jobNumber(), "the number the submit fills in from the job's directory");
        assertThrows(IllegalArgumentException.class,
                () -> new QsubDirectives.Dependency(JobDependency.Condition.AFTER_ANY, "{recorded-id:*}"));
    }

    @Test
    void severalSlotsNeedAParallelEnvironment() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new QsubDirectives(
                "gantry-x", Optional.empty(), Optional.empty(), 8, Optional.empty(), Optional.empty(), 0, "h_vmem", 0,
                "gpu", false, DIR, false, List.of()));
        assertEquals("8 slots need a parallel environment (-pe)", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new QsubDirectives("gantry-x", Optional.empty(),
                Optional.empty(), 1, Optional.empty(), Optional.empty(), 0, "h_vmem", 0, "gpu", false, "jobs/x", false,
                List.of()));
    }

    private static QsubDirectives withQueue(String queue) {
        return new QsubDirectives("gantry-x", Optional.of(queue), Optional.empty(), 1, Optional.empty(),
                Optional.empty(), 0, "h_vmem", 0, "gpu", false, DIR, false, List.of());
    }

    private static QsubDirectives withName(String name) {
        return new QsubDirectives(name, Optional.empty(), Optional.empty(), 1, Optional.empty(), Optional.empty(), 0,
                "h_vmem", 0, "gpu", false, DIR, false, List.of());
    }
}
