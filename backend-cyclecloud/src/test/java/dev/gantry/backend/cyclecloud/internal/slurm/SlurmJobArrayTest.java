package dev.gantry.backend.cyclecloud.internal.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.JobDependency;
import dev.gantry.backend.cyclecloud.internal.login.BatchSubmit;
import dev.gantry.testing.GoldenFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlurmJobArrayTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden/slurm");
    private static final String WORK = "/shared/gantry/jobs";

    @TempDir
    Path temp;

    private static SbatchDirectives directives(String id, String partition, boolean spot,
                                               List<SbatchDirectives.Dependency> dependencies) {
        return new SbatchDirectives(id, Optional.of(partition), 1, 1, 1, SbatchDirectives.GpuRequest.GPUS_PER_NODE,
                8, 4096, Optional.of(Duration.ofHours(2)), WORK + "/" + id, false, spot, dependencies,
                Optional.empty(), Optional.empty(), Optional.empty());
    }

    private static SlurmBatchScript script(String id, String partition, List<String> command) {
        return new SlurmBatchScript(directives(id, partition, true, List.of()), id, WORK + "/" + id, "", Optional.of(
                "/shared/home/alice"), command, Optional.empty());
    }

    private static SlurmBatchScript script(String id) {
        return script(id, "gpu", List.of("python3", "sweep.py", "--trial", "it's $(id)"));
    }

    private static BatchSubmit.JobFiles files(SlurmBatchScript script) {
        return new BatchSubmit.JobFiles(script.jobId(), script.jobDirectory(), new byte[0], script.head(),
                script.tail());
    }

    private static List<BatchSubmit.Batch> batches(List<SlurmBatchScript> scripts, boolean arrays) {
        return SlurmJobArray.batches(scripts.stream().map(SlurmJobArrayTest::files).toList(), scripts, WORK, arrays);
    }

    private static List<String> ids(BatchSubmit.Batch batch) {
        return batch.jobs().stream().map(BatchSubmit.JobFiles::id).toList();
    }

    @Test
    void threeJobsThatDifferOnlyInTheirKeyAreOneArrayScript() {
        List<SlurmBatchScript> scripts = List.of(script("job-sweep-0"), script("job-sweep-1"), script("job-sweep-2"));
        List<BatchSubmit.Batch> batches = batches(scripts, true);
        assertEquals(1, batches.size());
        assertEquals(List.of("job-sweep-0", "job-sweep-1", "job-sweep-2"), ids(batches.get(0)));
        String text = batches.get(0).arrayScript().orElseThrow();
        GOLDEN.assertMatches("array-three-tasks.sh", text);
        assertFalse(text.contains("--job-name"), "the submit names the array: " + text);
        assertTrue(text.contains("#SBATCH --output=" + WORK + "/arrays/slurm-%A_%a.out\n"), text);
        // The tasks share the header, the body and the srun line of a single job's script.
        assertTrue(text.endsWith(SlurmBatchScript.common() + scripts.get(0).tail()), text);
        for (String line : scripts.get(0).directives().lines()) {
            if (!line.matches("#SBATCH --(job-name|output|error|chdir)=.*")) {
                assertTrue(text.contains(line + "\n"), line);
            }
        }
    }

    @Test
    void jobsOfAnotherShapeOrCommandOrWithDependenciesBreakTheRunAndKeepTheirOrder() {
        SlurmBatchScript waiting = new SlurmBatchScript(directives("job-d", "gpu", true,
                List.of(new SbatchDirectives.Dependency(JobDependency.Condition.AFTER_SUCCESS, "7_1"))), "job-d",
                WORK + "/job-d", "", Optional.of("/shared/home/alice"), script("job-d").command(), Optional.empty());
        List<SlurmBatchScript> scripts = List.of(script("job-a"), script("job-b"), script("job-c", "hpc",
                script("job-c").command()), waiting, script("job-e"), script("job-f", "gpu", List.of("other")),
                script("job-g"), script("job-h"));
        List<BatchSubmit.Batch> batches = batches(scripts, true);
        List<String> order = new ArrayList<>();
        batches.forEach(b -> order.addAll(ids(b)));
        assertEquals(scripts.stream().map(SlurmBatchScript::jobId).toList(), order);
        assertEquals(List.of("job-a", "job-b"), ids(batches.get(0)));
        assertTrue(batches.get(0).arrayScript().isPresent());
        assertEquals(List.of("job-c", "job-d", "job-e", "job-f"), ids(batches.get(1)));
        assertTrue(batches.get(1).arrayScript().isEmpty());
        assertEquals(List.of("job-g", "job-h"), ids(batches.get(2)));
        assertTrue(batches.get(2).arrayScript().isPresent());
    }

    @Test
    void aLongFanOutIsArraysOfAtMostABatchAndWithoutArraysOneSubmitEach() {
        List<SlurmBatchScript> scripts = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            scripts.add(script("job-k" + i));
        }
        List<BatchSubmit.Batch> arrays = batches(scripts, true);
        assertEquals(List.of(100, 100, 50), arrays.stream().map(b -> b.jobs().size()).toList());
        assertTrue(arrays.stream().allMatch(b -> b.arrayScript().isPresent()));
        assertTrue(arrays.get(2).arrayScript().get().contains("49) job_dir=" + WORK + "/job-k249 ;;\n"));
        List<BatchSubmit.Batch> each = batches(scripts, false);
        assertEquals(List.of(100, 100, 50), each.stream().map(b -> b.jobs().size()).toList());
        assertTrue(each.stream().allMatch(b -> b.arrayScript().isEmpty()));
    }

    @Test
    void aTaskRunsInItsOwnJobDirectoryWithItsOutputThereAndAnUnknownTaskRunsNothing() throws Exception {
        Path work = Files.createDirectories(temp.resolve("work"));
        List<String> directories = List.of(work.resolve("job-a").toString(), work.resolve("job-b").toString());
        for (String dir : directories) {
            Files.createDirectories(Path.of(dir));
        }
        // The array's own lines, with a body that shows where it runs in place of the real one.
        SlurmJobArray array = new SlurmJobArray(directives("job-a", "gpu", true, List.of()), work + "/arrays",
                directories, "", "cd \"$job_dir\" || exit 9\npwd\necho \"$job_dir\" >&2\n", "");
        Path file = work.resolve("array.sh");
        Files.writeString(file, array.text());
        assertEquals(0, run(file, "1", "51").exitCode);
        assertEquals(work.resolve("job-b") + "\n", Files.readString(work.resolve("job-b/slurm-51.out")));
        assertEquals(work.resolve("job-b") + "\n", Files.readString(work.resolve("job-b/slurm-51.err")));
        assertFalse(Files.exists(work.resolve("job-a/slurm-51.out")));
        Result unknown = run(file, "2", "52");
        assertEquals(1, unknown.exitCode);
        assertEquals("gantry: task 2 is not one of this array's\n", unknown.output);
    }

    @Test
    void anArrayHasTwoTasksAtLeast() {
        assertThrows(IllegalArgumentException.class, () -> new SlurmJobArray(directives("job-a", "gpu", true,
                List.of()), WORK + "/arrays", List.of(WORK + "/job-a"), "", "", ""));
    }

    @Test
    void theArrayShapeIgnoresOnlyTheNameAndTheDirectory() {
        SbatchDirectives a = directives("job-a", "gpu", true, List.of());
        assertTrue(a.sameArrayShape(directives("job-b", "gpu", true, List.of())));
        assertFalse(a.sameArrayShape(directives("job-b", "gpu", false, List.of())));
        assertFalse(a.sameArrayShape(directives("job-b", "hpc", true, List.of())));
        SbatchDirectives waiting = directives("job-b", "gpu", true,
                List.of(new SbatchDirectives.Dependency(JobDependency.Condition.AFTER_ANY, "9")));
        assertFalse(waiting.sameArrayShape(waiting), "a job with dependencies goes on its own");
    }

    private record Result(int exitCode, String output) {
    }

    private Result run(Path script, String task, String jobId) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("/bin/bash", script.toString()).directory(temp.toFile())
                .redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().put("PATH", "/usr/bin:/bin");
        builder.environment().put("SLURM_ARRAY_TASK_ID", task);
        builder.environment().put("SLURM_JOB_ID", jobId);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(20, TimeUnit.SECONDS), output);
        return new Result(process.exitValue(), output);
    }
}
