package dev.gantry.backend.batch.internal;

import com.microsoft.azure.batch.protocol.BatchServiceClient;
import com.microsoft.azure.batch.protocol.models.ContainerConfiguration;
import com.microsoft.azure.batch.protocol.models.ContainerType;
import com.microsoft.azure.batch.protocol.models.ImageReference;
import com.microsoft.azure.batch.protocol.models.MetadataItem;
import com.microsoft.azure.batch.protocol.models.PoolAddParameter;
import com.microsoft.azure.batch.protocol.models.VirtualMachineConfiguration;
import dev.gantry.azure.fakes.ArmFake;
import dev.gantry.backend.batch.fake.BatchFake;
import dev.gantry.backend.batch.fake.OfferedSize;
import dev.gantry.backend.batch.internal.remote.AccountCalls;
import dev.gantry.backend.batch.internal.remote.BatchCalls;
import dev.gantry.backend.batch.internal.render.AutoscaleFormula;
import dev.gantry.backend.batch.internal.render.PoolMetadata;
import dev.gantry.backend.batch.internal.rest.BatchAccountUrl;
import dev.gantry.backend.batch.internal.rest.BatchConnection;
import dev.gantry.http.Jitter;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Settings and clients for tests of the Batch backend's components against the in-process fakes. */
public final class FakeAccounts {
    public static final String REGION = "eastus";

    private FakeAccounts() {
    }

    /** A connection to the fake with its shared key (the fake serves plain HTTP on loopback). */
    public static BatchConnection sharedKey(BatchFake fake) {
        return BatchConnection.open(BatchAccountUrl.of(fake.url()),
                new dev.gantry.backend.batch.internal.rest.BatchAuth.SharedKey(fake.accountName(), fake.accountKey()));
    }

    /** The fake as a configured account of {@link #REGION}. */
    /**
     * The account's calls through a quick retry policy (4 attempts, backoff from 100 ms, quota tried 3 times 20 s
     * apart, no jitter) whose waits are only recorded in {@code waits}, never slept.
     */
    public static AccountCalls calls(BatchConnection connection, List<Duration> waits) {
        return new BatchCalls(new BatchCalls.Policy(4, Duration.ofMillis(100), Duration.ofSeconds(30), 3,
                Duration.ofSeconds(20), Jitter.NONE, waits::add)).on(connection);
    }

    /** The account's calls through a quick retry policy whose waits are not kept. */
    public static AccountCalls calls(BatchConnection connection) {
        return calls(connection, new java.util.ArrayList<>());
    }

    public static BatchAccountSettings account(BatchFake fake, BatchAuth auth, Optional<String> resourceId) {
        return new BatchAccountSettings(uri(fake.url()), REGION, auth, Optional.empty(), resourceId);
    }

    /** Settings with the default prefix, the given existing pools, identity and secrets container. */
    public static BatchSettings settings(List<BatchAccountSettings> accounts, List<ExistingPool> existing,
            Optional<String> identity, Optional<String> secretsContainer, Duration idleTimeout,
            Duration taskRetention) {
        return new BatchSettings(accounts, BatchSettings.DEFAULT_POOL_PREFIX, existing, 10, identity,
                secretsContainer.map(FakeAccounts::uri), idleTimeout, taskRetention);
    }

    /** Ubuntu 22.04 from the Marketplace with Docker-compatible containers: the image of the tests' own pools. */
    public static VirtualMachineConfiguration ubuntuWithContainers() {
        return new VirtualMachineConfiguration()
                        .withImageReference(new ImageReference().withPublisher("canonical")
                                .withOffer("0001-com-ubuntu-server-jammy").withSku("22_04-lts"))
                        .withNodeAgentSKUId("batch.node.ubuntu 22.04")
                        .withContainerConfiguration(new ContainerConfiguration()
                                .withType(ContainerType.DOCKER_COMPATIBLE));
    }

    /**
     * Adds a small pool to the fake, marked as Gantry's when {@code gantrys}, scaled by Gantry's own formula: a node
     * for a waiting task (two at most), none when nothing waits or runs.
     */
    public static void addPool(BatchServiceClient batch, String poolId, boolean gantrys) {
        addPool(batch, poolId, gantrys, false);
    }

    /**
     * As {@link #addPool(BatchServiceClient, String, boolean)}, its nodes Spot (low-priority) ones when {@code spot}:
     * the only ones Batch preempts.
     */
    public static void addPool(BatchServiceClient batch, String poolId, boolean gantrys, boolean spot) {
        batch.pools().add(new PoolAddParameter().withId(poolId).withVmSize("standard_d2s_v5")
                .withVirtualMachineConfiguration(ubuntuWithContainers())
                .withEnableAutoScale(true).withAutoScaleFormula(AutoscaleFormula.render(spot, 1, 2))
                .withAutoScaleEvaluationInterval(org.joda.time.Period.minutes(5)).withTaskSlotsPerNode(1)
                .withMetadata(gantrys ? List.of(new MetadataItem().withName(PoolMetadata.OWNER).withValue(PoolMetadata.OWNER_VALUE),
                        new MetadataItem().withName(PoolMetadata.DIGEST).withValue("test"))
                        : List.of(new MetadataItem().withName("team").withValue("ml"))));
    }

    /**
     * Resource Manager's fake offers the VM size to Batch in the region (Spot-capable, in a family of its own) with
     * room in every quota validate reads for it: the regional, the Spot and the family vCPUs.
     */
    public static void offerSize(ArmFake arm, String region, String size) {
        OfferedSize.offer(arm, region, List.of(new OfferedSize(size, "gantryTestFamily", 1)));
    }

    public static URI uri(String text) {
        try {
            return new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(text, e);
        }
    }
}
