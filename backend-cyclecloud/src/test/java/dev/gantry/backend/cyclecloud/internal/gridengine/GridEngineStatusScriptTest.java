package dev.gantry.backend.cyclecloud.internal.gridengine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.backend.cyclecloud.internal.login.LocalLoginScripts;
import dev.gantry.testing.GoldenFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** status.sh itself, run here against a qstat that changes the job directory while it answers. */
class GridEngineStatusScriptTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden");
    private static final Instant NOW = Instant.parse("2026-12-02T02:01:00Z");
    private static final long ENDED = Instant.parse("2026-12-02T02:00:00Z").getEpochSecond();

    @TempDir
    Path work;
    @TempDir
    Path bin;

    @Test
    void aJobThatLeavesTheQueueWhileQstatAnswersKeepsItsExitCode() throws Exception {
        Path job = Files.createDirectories(work.resolve("job-a"));
        Files.writeString(job.resolve("ge-id"), "7\n");
        Files.writeString(bin.resolve("empty.xml"), GOLDEN.read("gridengine/qstat/empty.xml"));
        // The job script writes its exit record and ends: qstat no longer lists it, and qacct has no record yet.
        LocalLoginScripts.command(bin, "qstat", "printf '3 " + ENDED + " 0\\n' > '" + job.resolve("exit") + "'\n"
                + "cat '" + bin.resolve("empty.xml") + "'");
        LocalLoginScripts.command(bin, "qacct", "echo 'error: job id 7 not found' >&2; exit 1");

        String output = LocalLoginScripts.run(GridEngineScripts.SCRIPTS.status(), List.of(work.toString(), bin + "/",
                "job-a"));
        JobStatus status = GridEngineStatusReport.parse(output, NOW).get("job-a");

        assertEquals(JobState.FAILED, status.state(), status.toString());
        assertEquals(OptionalInt.of(3), status.exitCode(), status.toString());
        assertTrue(status.message().contains("exited with code 3"), status.message());
    }
}
