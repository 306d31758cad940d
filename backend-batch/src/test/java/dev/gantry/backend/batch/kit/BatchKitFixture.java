package dev.gantry.backend.batch.kit;

import com.microsoft.azure.batch.protocol.models.ContainerConfiguration;
import com.microsoft.azure.batch.protocol.models.ContainerType;
import com.microsoft.azure.batch.protocol.models.ImageReference;
import com.microsoft.azure.batch.protocol.models.PoolAddParameter;
import com.microsoft.azure.batch.protocol.models.VirtualMachineConfiguration;
import dev.gantry.api.ImageRef;
import dev.gantry.api.NodeBoot;
import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.JobRef;
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
import dev.gantry.backend.batch.internal.remote.Accounts;
import dev.gantry.backend.batch.internal.remote.AzureAdapters;
import dev.gantry.backend.batch.internal.render.ContainerRunOptions;
import dev.gantry.backend.batch.internal.render.TaskRef;
import dev.gantry.backend.batch.internal.rest.AccessTokenSource;
import dev.gantry.backend.batch.internal.rest.BatchAccountUrl;
import dev.gantry.backend.batch.internal.rest.BatchAuth;
import dev.gantry.backend.batch.internal.rest.BatchConnection;
import dev.gantry.backend.batch.internal.submit.SubmitParts;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import dev.gantry.testing.TestPodman;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.joda.time.Period;

/**
 * The conformance kit's view of a Batch fake as the issue describes it: an Entra ID account (HTTPS with the test
 * certificate, bearer tokens from the fake issuer) in user-subscription mode, known to a fake Resource Manager through
 * its {@code resourceId} (so Spot is allowed and validate checks sizes and quotas), a pool identity and a secrets
 * container in the blob fake; Spot plans; nodes in the test network namespaces, containers under Podman. A loopback
 * account URL names no account, so the account's name is its region, and the fake's account is named after it.
 *
 * <p>The kit's plans run on an existing pool ({@code pools[0]}, which Gantry uses and never resizes) that the fixture
 * makes with a formula holding {@value #WARM_NODES} Spot nodes, carrying the pool identity. Why not a pool Gantry
 * makes: Gantry's formula takes a pool to zero at the first evaluation after its last task ends, and the fake
 * evaluates at the short interval a test needs for scale-out, so the node that ran a task is often gone (and its files
 * with it: {@code TaskFilesCleanedup}) before the kit reads the task's output. On Batch the interval is five minutes at
 * least, which leaves the files readable for a while. Gantry's own pools are exercised by the submit path's tests and
 * {@code BatchBackendTest}. {@code evict} preempts the node that runs the job, as Azure preempts a Spot VM; Batch
 * requeues the task.
 */
public class BatchKitFixture implements BackendFixture, AutoCloseable {
    static final String REGION = "eastus";
    static final ImageRef UBUNTU = ImageRef.marketplace("Ubuntu Server 22.04",
            "canonical:0001-com-ubuntu-server-jammy:22_04-lts:latest");
    static final NodeBoot BOOT = new NodeBoot(Optional.empty(), Optional.of("batch.node.ubuntu 22.04"));
    static final String WARM_POOL = "tck-warm";
    static final int WARM_NODES = 4;
    static final String IDENTITY = "/subscriptions/" + ArmFake.SUBSCRIPTION + "/resourceGroups/ml"
            + "/providers/Microsoft.ManagedIdentity/userAssignedIdentities/gantry-tck-pools";

    private final FakeTokenIssuer issuer = new FakeTokenIssuer();
    private final AccessTokenSource tokens = new AccessTokens(() -> issuer)::token;
    private final ArmFake arm;
    private final BlobFake blobs;
    private final String container;
    private final BatchAccountModel account;
    private final BatchFake fake;

    BatchKitFixture() {
        try {
            arm = new ArmFake();
            blobs = new BlobFake();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the Resource Manager and blob fakes", e);
        }
        container = blobs.createContainer("gantry-secrets");
        fake = new BatchFake(new BatchFakeOptions().account(REGION).https(true).auth(false, true)
                .autoscaleInterval(Duration.ofMillis(200)).blobs(BlobSource.of(blobs)));
        account = arm.batchAccount("ml", REGION, REGION, PoolAllocationMode.USER_SUBSCRIPTION);
        fake.shareWith(account);
        FakeAccounts.offerSize(arm, REGION, BackendFixture.smallCpuSize().name());
        try (BatchConnection connection = trusting(BatchAccountUrl.of(fake.url()), new BatchAuth.Entra(tokens))) {
            connection.protocol().pools().add(warmPool());
        }
        fake.addPoolIdentity(WARM_POOL, IDENTITY);
    }

    private static BatchConnection trusting(BatchAccountUrl url, BatchAuth auth) {
        return BatchConnection.to(url, auth).trustingForTests(LocalHttps.trustingContext().getSocketFactory(),
                LocalHttps.trustManager()).open();
    }

    /** Spot nodes (an eviction is a preemption), several nodes a task, containers: what the kit's plans need. */
    private static PoolAddParameter warmPool() {
        return new PoolAddParameter().withId(WARM_POOL).withVmSize(BackendFixture.smallCpuSize().name())
                .withVirtualMachineConfiguration(new VirtualMachineConfiguration()
                        .withImageReference(new ImageReference().withPublisher("canonical")
                                .withOffer("0001-com-ubuntu-server-jammy").withSku("22_04-lts"))
                        .withNodeAgentSKUId("batch.node.ubuntu 22.04")
                        .withContainerConfiguration(new ContainerConfiguration()
                                .withType(ContainerType.DOCKER_COMPATIBLE)))
                .withEnableInterNodeCommunication(true)
                .withEnableAutoScale(true)
                .withAutoScaleFormula("$TargetLowPriorityNodes = " + WARM_NODES + ";\n$TargetDedicatedNodes = 0;\n"
                        + "$NodeDeallocationOption = taskcompletion;\n")
                .withAutoScaleEvaluationInterval(Period.minutes(5)).withTaskSlotsPerNode(1);
    }

    public BatchFake fake() {
        return fake;
    }

    /** The settings a gantry.yaml's {@code backends.batch} section gives for the fake. */
    Map<String, String> settings() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("accounts[0].url", fake.url());
        values.put("accounts[0].region", REGION);
        values.put("accounts[0].auth", "entra");
        values.put("accounts[0].resourceId", account.resourceId());
        values.put("pools[0].vmSize", BackendFixture.smallCpuSize().name());
        values.put("pools[0].id", WARM_POOL);
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
        // Built directly: the provider's create() refuses while unavailableReason() is set (until this kit passes).
        Accounts accounts = new Accounts(settings, context.secrets(), () -> tokens, BatchKitFixture::trusting);
        SubmitParts parts = SubmitParts.of(settings, context, ContainerRunOptions::of, accounts, () -> {
            throw new AssertionError("the kit's plans run on an existing pool: none is made");
        }, () -> AzureAdapters.blobStore(blobs.blobs()));
        BatchManagement management = new BatchManagement(arm.connector());
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
