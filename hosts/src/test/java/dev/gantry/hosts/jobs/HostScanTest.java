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

    /**
     * While the job's launch execs (setsid, then the loader, then the wrapper) the kernel shows no command line for
     * a moment. A process with none stands in for that moment here: Perl's {@code $0 = ""} empties it.
     */
    @Test
    void aProcessWithoutACommandLineIsTheJobOnlyWhileItLeadsItsOwnSession() throws Exception {
        Process leader = new ProcessBuilder("setsid", "perl", "-e", "$0 = \"\"; sleep 30").start();
        Process other = new ProcessBuilder("perl", "-e", "$0 = \"\"; sleep 30").start();
        try {
            awaitEmptyCommandLine(leader);
            awaitEmptyCommandLine(other);
            assertEquals(String.valueOf(leader.pid()), sessionOf(leader.pid()), "setsid made it a session leader");
            write("job-execing", "launched", "2026-01-01T00:00:00Z\n");
            write("job-execing", "pid", leader.pid() + "\n");
            write("job-reused", "pid", other.pid() + "\n");
            write("job-exiting", "pid", leader.pid() + "\n");
            write("job-exiting", "exit", "3\n");
            Map<String, HostScan.Entry> entries = scan();
            assertTrue(entries.get("job-execing").snapshot().alive(), "a session leader between two execs");
            assertEquals(JobState.RUNNING, StatusMapping.map(entries.get("job-execing").snapshot(), true).state());
            assertFalse(entries.get("job-reused").snapshot().alive(), "a process of another session");
            assertEquals(OptionalInt.of(3), entries.get("job-exiting").snapshot().exitCode());
        } finally {
            leader.destroyForcibly();
            other.destroyForcibly();
        }
    }

    private static void awaitEmptyCommandLine(Process process) throws Exception {
        Path cmdline = Path.of("/proc", Long.toString(process.pid()), "cmdline");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8).replace("\0", "").length() > 0) {
            assertTrue(System.nanoTime() < deadline, "perl did not empty its command line");
            Thread.sleep(10);
        }
    }

    private static String sessionOf(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        return stat.substring(stat.lastIndexOf(") ") + 2).split(" ")[3];
    }

    @Test
    void aMissingWorkDirectoryHasNoJobs() throws Exception {
        Files.delete(work);
        assertEquals(Map.of(), scan());
    }
}
