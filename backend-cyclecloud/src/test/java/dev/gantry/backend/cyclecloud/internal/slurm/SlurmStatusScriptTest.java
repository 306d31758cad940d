package dev.gantry.backend.cyclecloud.internal.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.backend.cyclecloud.internal.login.LocalLoginScripts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * status.sh itself, run here against an squeue that changes the job directory while it answers: the moments between
 * Slurm's answer and the records that a poll of a real cluster hits only by chance (the conformance kit's
 * {@code exit 3} job once read as exit 1 in CI).
 */
class SlurmStatusScriptTest {
    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    private static final long T10_30 = Instant.parse("2026-01-01T10:30:00Z").getEpochSecond();

    @TempDir
    Path work;
    @TempDir
    Path bin;

    private Map<String, JobStatus> status(String... jobs) throws Exception {
        List<String> args = new ArrayList<>(List.of(work.toString(), bin + "/", ""));
        args.addAll(List.of(jobs));
        return SlurmStatusReport.parse(LocalLoginScripts.run(SlurmScripts.SCRIPTS.status(), args), NOW);
    }

    @Test
    void aJobThatEndsWhileSqueueAnswersKeepsItsExitCode() throws Exception {
        Path job = Files.createDirectories(work.resolve("job-a"));
        Files.writeString(job.resolve("slurm-id"), "41\n");
        // The batch script writes its exit record, then Slurm marks the job FAILED: squeue sees the end.
        LocalLoginScripts.command(bin, "squeue", "printf '3 " + T10_30 + " 0\\n' > '" + job.resolve("exit") + "'\n"
                + "echo '41|FAILED|NonZeroExitCode|0|2026-01-01T10:00:00|2026-01-01T10:30:00||'");

        JobStatus status = status("job-a").get("job-a");

        assertEquals(JobState.FAILED, status.state(), status.toString());
        assertEquals(OptionalInt.of(3), status.exitCode(), status.toString());
        assertTrue(status.message().contains("exited with code 3"), status.message());
    }

    @Test
    void aJobIdRecordedWhileSqueueAnswersIsStillBeingSubmitted() throws Exception {
        Path first = Files.createDirectories(work.resolve("job-a"));
        Files.writeString(first.resolve("slurm-id"), "41\n");
        Path second = Files.createDirectories(work.resolve("job-b"));
        // job-b's sbatch returns while squeue runs: squeue was not asked about 42, so it says nothing of it.
        LocalLoginScripts.command(bin, "squeue", "echo 42 > '" + second.resolve("slurm-id") + "'\n"
                + "echo '41|RUNNING|None|0|2026-01-01T10:00:00|N/A||'");

        Map<String, JobStatus> statuses = status("job-a", "job-b");

        assertEquals(JobState.RUNNING, statuses.get("job-a").state(), statuses.toString());
        assertEquals(JobState.PENDING, statuses.get("job-b").state(), statuses.toString());
        assertTrue(statuses.get("job-b").message().contains("being submitted"), statuses.get("job-b").message());
    }

    @Test
    void jobsWithoutSlurmIdsAskSqueueNothing() throws Exception {
        Files.createDirectories(work.resolve("job-a"));
        LocalLoginScripts.command(bin, "squeue", "echo squeue ran >&2; exit 1");

        JobStatus status = status("job-a", "job-gone").get("job-a");

        assertEquals(JobState.PENDING, status.state(), status.toString());
        assertEquals(JobState.UNKNOWN, status("job-gone").get("job-gone").state());
    }
}
