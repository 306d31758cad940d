package dev.gantry.backend.cyclecloud.gridengine;

import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.Architecture;
import dev.gantry.api.Plan;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.EvictionHandling;
import dev.gantry.api.backend.JobRef;
import dev.gantry.backend.cyclecloud.CycleCloudBackendProvider;
import dev.gantry.backend.cyclecloud.slurm.TestCluster;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The conformance kit's view of the test cluster's Grid Engine: jobs of the kit's user over SSH to the login node, in
 * the queue on this machine, and two-node jobs in the compute nodes' queue. An eviction is the job's host going away under it, as an evicted Spot VM does: its
 * shepherd and the job's processes die at once (SIGKILL), and the job, not rerunnable, ends PREEMPTED.
 */
public class GridEngineKitFixture implements BackendFixture {
    /** sge_execd's spool: one directory per running job task, holding the shepherd's and the job's pids. */
    private static final Path EXECD_SPOOL = Path.of("/var/spool/gridengine/execd");

    private final TestCluster cluster = TestCluster.get();
    private final Map<String, String> settings = cluster.gridEngineSettings();

    @Override
    public Backend create(TckContext context) {
        return new CycleCloudBackendProvider().create(new BackendConfig("cyclecloud", settings), context);
    }

    @Override
    public Plan plan(Workload workload) {
        return Plan.builder(workload, BackendFixture.smallCpuSize()).build();
    }

    /** Two ranks on the two compute nodes, through their queue. */
    @Override
    public Plan twoNodePlan(Workload workload) {
        Workload twoNodes = workload.toBuilder().resources(workload.resources().toBuilder().nodes(2).build()).build();
        return Plan.builder(twoNodes, new VmSize(TestCluster.GRID_ENGINE_NODE_SIZE, "tck", 1, 0.5, Optional.empty(),
                false, Architecture.X64, Set.of("V2"))).build();
    }

    @Override
    public EvictionHandling evictionOutcome(Backend backend) {
        return EvictionHandling.ENDS_PREEMPTED;
    }

    /** The job's host dies under it: its shepherd and its process group are killed, nothing of it runs on. */
    @Override
    public void evict(Backend backend, JobRef job) throws Exception {
        loseTheRun(Path.of(settings.get("workDir")), job);
    }

    /**
     * What an evicted Spot VM does to the job running on it: its shepherd and the job's process group die at once
     * (SIGKILL), with no exit record. Grid Engine reruns a rerunnable job, and ends any other in accounting. Public for
     * the CLI's swap-by-configuration test, which evicts a Spot step on every backend.
     */
    public static void loseTheRun(Path workDir, JobRef job) throws IOException, InterruptedException {
        String number = Files.readString(workDir.resolve(job.id()).resolve("ge-id")).strip();
        Path task = activeJob(number);
        String shepherd = Files.readString(task.resolve("pid")).strip();
        String jobPid = Files.readString(task.resolve("job_pid")).strip();
        TestCluster.gridEngine("kill", "-KILL", shepherd);
        TestCluster.gridEngine("kill", "-KILL", "--", "-" + jobPid);
    }

    private static Path activeJob(String number) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            try (Stream<Path> hosts = Files.list(EXECD_SPOOL)) {
                for (Path host : hosts.toList()) {
                    Path task = host.resolve("active_jobs").resolve(number + ".1");
                    if (Files.isReadable(task.resolve("job_pid"))) {
                        return task;
                    }
                }
            }
            Thread.sleep(100);
        }
        return fail("Grid Engine job " + number + " has no running task under " + EXECD_SPOOL);
    }

    @Override
    public String sharedDirectory(TckContext context) {
        return cluster.sharedDirectory();
    }

    @Override
    public String workingDirectory(TckContext context) {
        return "/tmp";
    }

    /** Grid Engine schedules once a second on the test cluster, and its eight slots take the bulk case in turns. */
    @Override
    public Duration timeout() {
        return Duration.ofSeconds(90);
    }
}
