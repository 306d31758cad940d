package dev.gantry.backend.manual.internal;

import static dev.gantry.backend.manual.internal.SshJobs.await;
import static dev.gantry.backend.manual.internal.SshJobs.logs;
import static dev.gantry.backend.manual.internal.SshJobs.plan;
import static dev.gantry.backend.manual.internal.SshJobs.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.FabricCheck;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.StartChecks;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The fabric check for real: two test hosts, each a rank of the job, run the start checks' all-reduce with
 * torch.distributed over gloo (the hosts have no GPU) across their network before the command. The floor is the
 * workload's own, as a size without a published one takes it: one far below what the hosts reach passes and the
 * command runs; one far above fails the attempt before the command starts, saying what was measured and expected.
 */
class FabricCheckOverSshTest {
    /** What the command prints once it runs: the check's failure must keep it from ever printing. */
    private static final String TRAINED = "trained on rank ";
    private static final Pattern MEASURED = Pattern.compile("all-reduce bus bandwidth ([0-9.]+) GB/s");

    private final SshCase cases = new SshCase(new SshHosts());

    @AfterEach
    void cleanUp() throws Exception {
        cases.close();
    }

    private JobStatus run(ManualBackend backend, JobRef job) throws InterruptedException {
        // Python and torch start in a few seconds on each host; the all-reduce of 8 MiB takes well under one.
        return await(backend, job, s -> s.state().isTerminal(), Duration.ofSeconds(90));
    }

    /** Waits for the job to fail on a rank's start check, and checks that no rank ran the command; its logs. */
    private List<LogLine> failedBeforeTheCommand(ManualBackend backend, JobRef job) throws InterruptedException {
        JobStatus status = run(backend, job);
        List<LogLine> lines = logs(backend, job);
        assertEquals(JobState.FAILED, status.state(), status.message() + " " + lines);
        assertTrue(status.message().matches("rank [01] on gantry-h[12]: exited with code " + StartChecks.FAILED_EXIT),
                status.message());
        assertTrue(lines.stream().noneMatch(l -> l.text().startsWith(TRAINED)), "the command never ran: " + lines);
        return lines;
    }

    private static dev.gantry.api.Plan training(String name, double floorGBps) {
        return plan(workload(name).command("sh", "-c", "echo \"" + TRAINED + "$RANK\"")
                .fabricCheck(FabricCheck.withFloor(floorGBps, 8)), 2, 0);
    }

    @Test
    void aFabricAboveTheFloorPassesAndTheCommandRunsOnEveryRank() throws Exception {
        ManualBackend backend = cases.backend(Map.of());
        JobRef job = cases.submit(backend, training("fabric-pass", 0.001));
        JobStatus status = run(backend, job);
        List<LogLine> lines = logs(backend, job);
        assertEquals(JobState.SUCCEEDED, status.state(), status.message() + " " + lines);
        for (int rank = 0; rank < 2; rank++) {
            int node = rank;
            String host = "gantry-h" + (rank + 1);
            String passed = lines.stream().filter(l -> l.node() == node && l.stream() == LogLine.Stream.STDERR)
                    .map(LogLine::text).filter(t -> t.startsWith("gantry fabric check: passed on " + host
                            + " (rank " + node + "): ")).findFirst().orElseThrow(() -> new AssertionError(lines));
            assertTrue(passed.contains("expected at least 0.001 GB/s for tck-small"
                    + " (the workload's fabricCheck.minBusBandwidthGBps); 8388608 bytes, 2 nodes, "
                    + "torch.distributed gloo"), passed);
            Matcher measured = MEASURED.matcher(passed);
            assertTrue(measured.find() && Double.parseDouble(measured.group(1)) >= 0.001, passed);
            System.out.println("fabric check over the test hosts, rank " + rank + ": " + measured.group(1)
                    + " GB/s (gloo, 8 MiB, 2 nodes)");
            assertTrue(lines.contains(new LogLine(LogLine.Stream.STDOUT, node, TRAINED + rank)), lines.toString());
        }
    }

    @Test
    void aFabricBelowTheFloorFailsTheAttemptBeforeTheCommandStarts() throws Exception {
        ManualBackend backend = cases.backend(Map.of());
        JobRef job = cases.submit(backend, training("fabric-fail", 100_000));
        List<LogLine> lines = failedBeforeTheCommand(backend, job);
        String failed = lines.stream().map(LogLine::text).filter(t -> t.startsWith("gantry fabric check FAILED on "))
                .findFirst().orElseThrow(() -> new AssertionError(lines));
        assertTrue(failed.matches("gantry fabric check FAILED on gantry-h[12] \\(rank [01]\\): all-reduce bus "
                + "bandwidth [0-9.]+ GB/s, expected at least 100000 GB/s for tck-small"
                + " \\(the workload's fabricCheck\\.minBusBandwidthGBps\\); 8388608 bytes, 2 nodes, torch\\.distributed "
                + "gloo\\. Likely causes: InfiniBand ports down \\(ibv_devinfo shows no PORT_ACTIVE\\); VMs outside one "
                + "placement group \\(a scale set with a single placement group, or one availability set\\); the NCCL "
                + "environment \\(.*"), failed);
    }

    @Test
    void aNodeWithoutItsGpuDriverIsNamedAndTheAttemptFailsBeforeTheCommandStarts() throws Exception {
        // The inventory says each host has a GPU, as a VM of a GPU size whose driver failed to load would: the
        // node health check finds no nvidia-smi there.
        ManualBackend backend = cases.backend(Map.of("hosts[0].gpus", "1", "hosts[1].gpus", "1"));
        JobRef job = cases.submit(backend, plan(workload("no-driver").command("sh", "-c",
                "echo \"" + TRAINED + "$RANK\""), 2, 1));
        List<LogLine> lines = failedBeforeTheCommand(backend, job);
        assertTrue(lines.stream().map(LogLine::text).anyMatch(t -> t.matches("gantry node check FAILED on gantry-h[12] "
                + "\\(rank [01]\\): gpu\\.driver: nvidia-smi is not installed, so no NVIDIA driver is usable here "
                + "\\(needed for 1 GPU\\(s\\)\\); use the HPC image the plan names, or install the driver")), lines.toString());
    }

    @Test
    void nodesWhoseGpusAnswerPassTheNodeCheckAndRunTheCommand() throws Exception {
        ManualBackend backend = cases.backend(Map.of("hosts[0].gpus", "1", "hosts[1].gpus", "1"));
        JobRef job = cases.submit(backend, plan(workload("gpus-answer").command("sh", "-c",
                "echo \"" + TRAINED + "$RANK\"").env("PATH", cases.hosts().pathWithNvidiaSmi(1)), 2, 1));
        JobStatus status = run(backend, job);
        List<LogLine> lines = logs(backend, job);
        assertEquals(JobState.SUCCEEDED, status.state(), status.message() + " " + lines);
        // A healthy node prints nothing: the job's output is the command's alone.
        assertEquals(List.of(new LogLine(LogLine.Stream.STDOUT, 0, TRAINED + 0),
                new LogLine(LogLine.Stream.STDOUT, 1, TRAINED + 1)), lines.stream()
                .sorted(java.util.Comparator.comparingInt(LogLine::node)).toList());
    }
}
