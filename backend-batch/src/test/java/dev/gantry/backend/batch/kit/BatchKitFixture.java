package dev.gantry.backend.batch.kit;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.azure.batch.protocol.models.PoolAddParameter;
import dev.gantry.api.ImageRef;
import dev.gantry.api.ModelClass;
import dev.gantry.api.NodeBoot;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.azure.batch.BatchManagement;
import dev.gantry.azure.batch.PoolAllocationMode;
import dev.gantry.azure.compute.ResourceSkusClient;
import dev.gantry.azure.fakes.ArmFake;
import dev.gantry.azure.fakes.BatchAccountModel;
import dev.gantry.azure.fakes.BlobFake;
import dev.gantry.azure.fakes.FakeTokenIssuer;
import dev.gantry.azure.fakes.LocalHttps;
import dev.gantry.azure.identity.AccessTokens;
import dev.gantry.backend.batch.fake.BatchFake;
import dev.gantry.backend.batch.fake.BatchFakeOptions;
import dev.gantry.backend.batch.fake.BlobSource;
import dev.gantry.backend.batch.internal.AzureReach;
import dev.gantry.backend.batch.internal.BatchBackend;
import dev.gantry.backend.batch.internal.BatchSettings;
import dev.gantry.backend.batch.internal.FakeAccounts;
import dev.gantry.backend.batch.internal.pools.PoolEnsurer;
import dev.gantry.backend.batch.internal.remote.Accounts;
import dev.gantry.backend.batch.internal.remote.AzureAdapters;
import dev.gantry.backend.batch.internal.render.ContainerRunOptions;
import dev.gantry.backend.batch.internal.render.TaskRef;
import dev.gantry.backend.batch.internal.rest.AccessTokenSource;
import dev.gantry.backend.batch.internal.rest.BatchAccountUrl;
import dev.gantry.backend.batch.internal.rest.BatchAuth;
import dev.gantry.backend.batch.internal.rest.BatchConnection;
import dev.gantry.backend.batch.internal.submit.SubmitParts;
import dev.gantry.http.Sleeper;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import dev.gantry.testing.TestPodman;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.joda.time.Period;

/**
 * The conformance kit's view of a Batch fake as the issue describes it: an Entra ID account (HTTPS with the test
 * certificate, bearer tokens from the fake issuer) in user-subscription mode, known to a fake Resource Manager through
 * its {@code resourceId} (so Spot is allowed and validate checks sizes and quotas), a pool identity and a secrets
 * container in the blob fake; Spot plans; nodes in the test network namespaces, containers under Podman. A loopback
 * account URL names no account, so the account's name is its region, and the fake's account is named after it.
 *
 * <p>Two ways to run the kit's plans ({@link Pools}):
 * <ul>
 *   <li>{@link Pools#EXISTING}: on an existing pool ({@code pools[0]}, which Gantry uses and never resizes) that the
 *       fixture makes with a formula holding {@value #WARM_NODES} Spot nodes, carrying the pool identity;</li>
 *   <li>{@link Pools#GANTRYS}: on the pools Gantry makes itself, one per pool key, each created through the fake
 *       Resource Manager with the pool identity (the data-plane pool add has none), so that secrets reach the
 *       tasks through that identity, and scaled by Gantry's own autoscale formula.</li>
 * </ul>
 * Gantry's formula wants no node at the first evaluation after a pool's last task ended, and the fake evaluates at the
 * short interval a test needs for scale-out ({@link #AUTOSCALE_INTERVAL}); what keeps a node, and its tasks' files,
 * readable after its task is the fake's node retention ({@link #NODE_RETENTION}): scale-in takes only a node idle that
 * long, as Batch takes one only after a metrics sample and a later evaluation (five minutes apart at least). The kit
 * reads a job's output within seconds of its end. {@code evict} preempts the node that runs the job, as Azure
 * preempts a Spot VM; Batch requeues the task. With Gantry's pools, the idle-resource case runs a short job on a
 * dedicated plan, whose pool is idle after the fixture's {@link #IDLE_POOL_TIMEOUT}, and releases the first idle pool
 * reported, which may be one a later case needs again: Gantry then makes it anew once the fake has removed it
 * ({@link #DELETION_WAIT}), as after a {@code gantry gc} that ran beside a driver.
 */
public class BatchKitFixture implements BackendFixture, AutoCloseable {
    /** Where the kit's plans run. */
    public enum Pools {
        /** An existing pool of {@code pools[0]} that the fixture makes, warm with {@value #WARM_NODES} nodes. */
        EXISTING,
        /** The pools Gantry makes itself (with the pool identity, through Resource Manager). */
        GANTRYS
    }

    static final String REGION = "eastus";
    static final ImageRef UBUNTU = ImageRef.marketplace("Ubuntu Server 22.04",
            "canonical:0001-com-ubuntu-server-jammy:22_04-lts:latest");
    static final NodeBoot BOOT = new NodeBoot(Optional.empty(), Optional.of("batch.node.ubuntu 22.04"));
    static final String WARM_POOL = "tck-warm";
    static final int WARM_NODES = 4;
    static final String IDENTITY = "/subscriptions/" + ArmFake.SUBSCRIPTION + "/resourceGroups/ml"
            + "/providers/Microsoft.ManagedIdentity/userAssignedIdentities/gantry-tck-pools";
    /** How often the fake evaluates every pool's formula: nodes join within a fraction of a second. */
    static final Duration AUTOSCALE_INTERVAL = Duration.ofMillis(200);
    /** How long the fake keeps an idle node (and its tasks' files) before scale-in takes it: the kit's reads fit. */
    static final Duration NODE_RETENTION = BatchFakeOptions.DEFAULT_NODE_RETENTION;
    /**
     * How a submit waits for a pool that gc is deleting (the idle-resource case releases an idle pool, which a later
     * case may need again): the fake removes one in half a second, Batch in minutes.
     */
    static final PoolEnsurer.DeletionWait DELETION_WAIT = new PoolEnsurer.DeletionWait(Duration.ofMillis(100), 100,
            Sleeper.THREAD);
    /** {@code idlePoolTimeout} of the Gantry pools mode: short, so that the idle-resource case sees one soon. */
    static final String IDLE_POOL_TIMEOUT = "2s";

    private final Pools pools;
    private final FakeTokenIssuer issuer = new FakeTokenIssuer();
    private final AccessTokenSource tokens = new AccessTokens(() -> issuer)::token;
    private final ArmFake arm;
    private final BlobFake blobs;
    private final String container;
    private final BatchAccountModel account;
    private final BatchFake fake;

    /** The kit on an existing warm pool. */
    BatchKitFixture() {
        this(Pools.EXISTING, NODE_RETENTION);
    }

    /**
     * @param pools where the kit's plans run
     * @param nodeRetention the fake's node retention: {@link #NODE_RETENTION} for the kit, which reads tasks' files
     *     after they ended; shorter for a test that watches pools shrink
     */
    BatchKitFixture(Pools pools, Duration nodeRetention) {
        this.pools = pools;
        try {
            arm = new ArmFake();
            blobs = new BlobFake();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the Resource Manager and blob fakes", e);
        }
        container = blobs.createContainer("gantry-secrets");
        fake = new BatchFake(new BatchFakeOptions().account(REGION).https(true).auth(false, true)
                .autoscaleInterval(AUTOSCALE_INTERVAL).nodeRetention(nodeRetention).blobs(BlobSource.of(blobs)));
        account = arm.batchAccount("ml", REGION, REGION, PoolAllocationMode.USER_SUBSCRIPTION);
        fake.shareWith(account);
        FakeAccounts.offerSize(arm, REGION, BackendFixture.smallCpuSize().name());
        if (pools == Pools.EXISTING) {
            try (BatchConnection connection = trusting(BatchAccountUrl.of(fake.url()),
                    new BatchAuth.Entra(tokens))) {
                connection.protocol().pools().add(warmPool());
            }
            fake.addPoolIdentity(WARM_POOL, IDENTITY);
        }
    }

    private static BatchConnection trusting(BatchAccountUrl url, BatchAuth auth) {
        return BatchConnection.to(url, auth).trustingForTests(LocalHttps.trustingContext().getSocketFactory(),
                LocalHttps.trustManager()).open();
    }

    /** Spot nodes (an eviction is a preemption), several nodes a task, containers: what the kit's plans need. */
    private static PoolAddParameter warmPool() {
        return new PoolAddParameter().withId(WARM_POOL).withVmSize(BackendFixture.smallCpuSize().name())
                .withVirtualMachineConfiguration(FakeAccounts.ubuntuWithContainers())
                .withEnableInterNodeCommunication(true)
                .withEnableAutoScale(true)
                .withAutoScaleFormula("$TargetLowPriorityNodes = " + WARM_NODES + ";\n$TargetDedicatedNodes = 0;\n"
                        + "$NodeDeallocationOption = taskcompletion;\n")
                .withAutoScaleEvaluationInterval(Period.minutes(5)).withTaskSlotsPerNode(1);
    }

    public BatchFake fake() {
        return fake;
    }

    /** A pool as the fake Resource Manager stores it (those Gantry puts there with the identity), or empty. */
    Optional<JsonNode> armPool(String poolId) {
        return account.armPool(poolId);
    }

    /** The settings a gantry.yaml's {@code backends.batch} section gives for the fake. */
    Map<String, String> settings() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("accounts[0].url", fake.url());
        values.put("accounts[0].region", REGION);
        values.put("accounts[0].auth", "entra");
        values.put("accounts[0].resourceId", account.resourceId());
        if (pools == Pools.EXISTING) {
            values.put("pools[0].vmSize", BackendFixture.smallCpuSize().name());
            values.put("pools[0].id", WARM_POOL);
        } else {
            values.put("idlePoolTimeout", IDLE_POOL_TIMEOUT);
        }
        values.put("poolIdentity", IDENTITY);
        return values;
    }

    @Override
    public Backend create(TckContext context) {
        BatchSettings bound = BatchSettings.bind(new BackendConfig("batch", settings()));
        // The blob fake's container URL is path-style (HOST/ACCOUNT/CONTAINER), which secrets.containerUrl refuses
        // as a user's setting: it is set on the bound settings instead.
        BatchSettings settings = new BatchSettings(bound.accounts(), bound.poolPrefix(), bound.existingPools(),
                bound.maxNodesPerPool(), bound.poolIdentity(), Optional.of(URI.create(container)),
                bound.idlePoolTimeout(), bound.taskRetention());
        // Built directly, not through the provider: the fakes' test certificate and token issuer are wired in here.
        Accounts accounts = new Accounts(settings, context.secrets(), () -> tokens, BatchKitFixture::trusting);
        BatchManagement management = new BatchManagement(arm.connector());
        SubmitParts parts = SubmitParts.of(settings, context, ContainerRunOptions::of, accounts, () -> {
            if (pools == Pools.EXISTING) {
                throw new AssertionError("the kit's plans run on an existing pool: none is made");
            }
            return AzureAdapters.identityPools(management);
        }, () -> AzureAdapters.blobStore(blobs.blobs()), DELETION_WAIT);
        ResourceSkusClient compute = ResourceSkusClient.of(arm.connector(), ArmFake.SUBSCRIPTION);
        AzureReach azure = new AzureReach(configured -> Optional.of(management), () -> Optional.of(blobs.blobs()),
                configured -> compute::usages);
        return new BatchBackend(settings, context, parts, azure, Duration.ofMillis(200));
    }

    @Override
    public Plan plan(Workload workload) {
        return Plan.builder(workload, BackendFixture.smallCpuSize()).region(REGION).image(UBUNTU).boot(BOOT)
                .spot(true).build();
    }

    /**
     * With Gantry's pools: a short job on a dedicated (not Spot) plan; its pool is idle {@link #IDLE_POOL_TIMEOUT}
     * after the job ended.
     */
    @Override
    public boolean leaveIdleResource(Backend backend, TckContext context) throws InterruptedException {
        if (pools == Pools.EXISTING) {
            return false;
        }
        JobRef job = backend.submit(dedicatedPlan(workload("tck-idle").command("true").build()),
                SubmitOptions.withKey("tck-idle-" + UUID.randomUUID()));
        JobStatus status = awaitEnd(backend, job);
        if (status.state() != JobState.SUCCEEDED) {
            throw new AssertionError("the job left to make its pool idle ended " + status);
        }
        return true;
    }

    /** A small one-node workload. */
    static Workload.Builder workload(String name) {
        return Workload.builder(name).phase(Phase.TRAINING).model(ModelClass.SMALL)
                .resources(Resources.builder().vcpus(1));
    }

    /** The fixture's plan on dedicated nodes instead of Spot: a pool of its own. */
    Plan dedicatedPlan(Workload workload) {
        return Plan.builder(workload, BackendFixture.smallCpuSize()).region(REGION).image(UBUNTU).boot(BOOT)
                .spot(false).build();
    }

    /** Polls the job's status until it ends, failing after {@link #timeout()}. */
    JobStatus awaitEnd(Backend backend, JobRef job) throws InterruptedException {
        long deadline = System.nanoTime() + timeout().toNanos();
        JobStatus status = backend.status(job);
        while (!status.state().isTerminal()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(job + " did not end within " + timeout() + "; last " + status);
            }
            Thread.sleep(AUTOSCALE_INTERVAL.toMillis());
            status = backend.status(job);
        }
        return status;
    }

    /** The node running the task is preempted; the fake puts the task back to active, as Batch does. */
    @Override
    public void evict(Backend backend, JobRef job) {
        TaskRef ref = TaskRef.parse(job.id()).orElseThrow(() -> new AssertionError("not a batch ref: " + job));
        fake.preemptNodeOf(ref.jobId(), ref.taskId());
    }

    @Override
    public String containerImage() {
        return TestPodman.IMAGE;
    }

    @Override
    public Optional<String> fileOnlyInContainerImage() {
        return Optional.of(TestPodman.FILE_ONLY_IN_IMAGE);
    }

    /** Nodes join a pool at the autoscale interval and start in a fraction of a second; requeues wait for another. */
    @Override
    public Duration timeout() {
        return Duration.ofSeconds(30);
    }

    @Override
    public void close() {
        fake.close();
        blobs.close();
        arm.close();
    }
}
