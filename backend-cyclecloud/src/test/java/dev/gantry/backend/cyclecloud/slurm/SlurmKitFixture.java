package dev.gantry.backend.cyclecloud.slurm;

import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.EvictionHandling;
import dev.gantry.api.backend.JobRef;
import dev.gantry.backend.cyclecloud.CycleCloudBackendProvider;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The conformance kit's view of the real test cluster. Spot plans are submitted with {@code --requeue}, so an
 * eviction (the job's node taken down, as a Spot eviction takes a CycleCloud node) is a requeue; on-demand plans
 * end PREEMPTED. The cluster has no Pyxis, so the fixture declares no containers.
 */
class SlurmKitFixture implements BackendFixture {
    private final TestCluster cluster = TestCluster.get();
    private final Map<String, String> settings = cluster.settings();
    private final boolean spot;

    SlurmKitFixture(boolean spot) {
        this.spot = spot;
    }

    @Override
    public Backend create(TckContext context) {
        return new CycleCloudBackendProvider().create(new BackendConfig("cyclecloud", settings), context);
    }

    /**
     * What the backend can do on this cluster: all the provider declares but containers, since the test cluster has
     * no Pyxis (scripts/test-cluster.sh installs none). The container case is skipped by this declaration, and the
     * capability case fails if the backend says otherwise (the cluster gained Pyxis, or its probe failed).
     */
    @Override
    public Capabilities capabilities(Backend backend) {
        return new CycleCloudBackendProvider().capabilities().toBuilder().containers(false).build();
    }

    @Override
    public Plan plan(Workload workload) {
        return Plan.builder(workload, BackendFixture.smallCpuSize()).spot(spot).build();
    }

    @Override
    public EvictionHandling evictionOutcome(Backend backend) {
        return spot ? EvictionHandling.REQUEUES : EvictionHandling.ENDS_PREEMPTED;
    }

    /** The node the job runs on goes down, the way a CycleCloud node vanishes when Azure evicts its Spot VM. */
    @Override
    public void evict(Backend backend, JobRef job) throws Exception {
        String slurmId = Files.readString(Path.of(settings.get("workDir"), job.id(), "slurm-id")).strip();
        String node = TestCluster.slurm("squeue", "-h", "-j", slurmId, "-o", "%N").strip().split(",")[0];
        if (node.isEmpty() || node.contains("[")) {
            fail("job " + slurmId + " runs on no single node yet: '" + node + "'");
        }
        TestCluster.slurm("scontrol", "update", "nodename=" + node, "state=down", "reason=gantry-kit-eviction");
        // The node comes back at once, as a replacement Spot VM would: the requeued job can run again.
        TestCluster.slurm("scontrol", "update", "nodename=" + node, "state=resume");
    }

    @Override
    public String sharedDirectory(TckContext context) {
        return cluster.sharedDirectory();
    }

    @Override
    public String workingDirectory(TckContext context) {
        return "/tmp";
    }

    /** A requeued job waits out Slurm's credential expiry (cred_expire=10 on the test cluster) before it reruns. */
    @Override
    public Duration timeout() {
        return Duration.ofSeconds(60);
    }
}
