package dev.gantry.hosts.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.JobState;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scan script run by this machine's /bin/sh over job directories made by hand, and its parser. */
class HostScanTest {
    @TempDir
    Path work;

    private void write(String job, String file, String text) throws Exception {
        Files.createDirectories(work.resolve(job));
        Files.writeString(work.resolve(job).resolve(file), text);
    }

    private Map<String, HostScan.Entry> scan() throws Exception {
        Process p = new ProcessBuilder("/bin/sh", "-c", HostScan.SCRIPT, "sh", work.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(20, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return HostScan.parse(out);
    }

    @Test
    void everyJobDirectoryIsOneEntryWithItsFilesAndLiveness() throws Exception {
        write("job-done", "pid", "1\n");
        write("job-done", "started", "2026-01-01T00:00:00Z\n");
        write("job-done", "ended", "2026-01-01T00:01:00Z\n");
        write("job-done", "exit", "0\n");
        write("job-done", RankPlacement.FILE, new RankPlacement(1, List.of("a", "b"), List.of(0, 2), 4, 8).line());
        write("job-evicted", "pid", "1\n");
        write("job-evicted", "preempted", "2026-01-01T00:02:00Z\nspot eviction\tnotice\n");
        write("job-cancelled", "cancelled", "2026-01-01T00:03:00Z\ncancelled on request\n");
        write("job-recorded", "job.json", "{}");
        write("not-a-job", "exit", "0\n");
        Path running = work.resolve("job-run");
        Path prefixTwin = work.resolve("job-runs");
        Files.createDirectories(prefixTwin);
        // A process whose command line names the job directory, as the wrapper's does.
        Process alive = new ProcessBuilder("sh", "-c", "sleep 30", "gantry-job", running.toString()).start();
        try {
            write("job-run", "pid", alive.pid() + "\n");
            write("job-runs", "pid", alive.pid() + "\n"); // same pid, other directory: a reused id
            Map<String, HostScan.Entry> entries = scan();
            assertEquals(List.of("job-cancelled", "job-done", "job-evicted", "job-recorded", "job-run", "job-runs"),
                    entries.keySet().stream().sorted().toList());
            HostScan.Entry done = entries.get("job-done");
            assertEquals(JobState.SUCCEEDED, StatusMapping.map(done.snapshot()).state());
            assertEquals(OptionalInt.of(0), done.snapshot().exitCode());
            assertEquals(Optional.of(new RankPlacement(1, List.of("a", "b"), List.of(0, 2), 4, 8)), done.placement());
            assertEquals("evicted: spot eviction notice; resumable from its last checkpoint",
                    StatusMapping.map(entries.get("job-evicted").snapshot()).message());
            assertEquals(JobState.CANCELLED, StatusMapping.map(entries.get("job-cancelled").snapshot()).state());
            assertEquals(JobState.PENDING, StatusMapping.map(entries.get("job-recorded").snapshot()).state());
            assertTrue(entries.get("job-run").snapshot().alive());
            assertEquals(JobState.RUNNING, StatusMapping.map(entries.get("job-run").snapshot()).state());
            assertFalse(entries.get("job-runs").snapshot().alive(), "a pid that is not this job's process");
            assertEquals(JobState.FAILED, StatusMapping.map(entries.get("job-runs").snapshot()).state());
        } finally {
            alive.destroyForcibly();
        }
    }

    @Test
    void aMissingWorkDirectoryHasNoJobs() throws Exception {
        Files.delete(work);
        assertEquals(Map.of(), scan());
    }
}
