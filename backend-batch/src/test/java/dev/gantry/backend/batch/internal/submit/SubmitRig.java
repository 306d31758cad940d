package dev.gantry.backend.batch.internal.submit;

import com.microsoft.azure.batch.protocol.models.TaskAddParameter;
import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.azure.batch.protocol.models.FileGetFromTaskOptions;
import dev.gantry.api.Architecture;
import dev.gantry.api.ImageRef;
import dev.gantry.api.ModelClass;
import dev.gantry.api.NodeBoot;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.SecretRef;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Secret;
import dev.gantry.api.backend.SecretResolver;
import dev.gantry.backend.batch.fake.BatchFake;
import dev.gantry.backend.batch.internal.BatchAccountSettings;
import dev.gantry.backend.batch.internal.BatchAuth;
import dev.gantry.backend.batch.internal.BatchSettings;
import dev.gantry.backend.batch.internal.pools.PoolEnsurer;
import dev.gantry.backend.batch.internal.records.TaskEntries;
import dev.gantry.backend.batch.internal.records.TaskEntry;
import dev.gantry.backend.batch.internal.remote.Accounts;
import dev.gantry.backend.batch.internal.remote.BatchCalls;
import dev.gantry.backend.batch.internal.remote.BlobStore;
import dev.gantry.backend.batch.internal.remote.IdentityPools;
import dev.gantry.backend.batch.internal.render.TaskChunks;
import dev.gantry.backend.batch.internal.rest.AccessTokenSource;
import dev.gantry.backend.batch.internal.rest.BatchConnection;
import dev.gantry.backend.batch.internal.secrets.SecretBlobs;
import dev.gantry.http.Jitter;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The submit path wired as the backend will wire it, against a {@link BatchFake} whose account is named after the
 * region (a loopback account URL names no account, so the settings' account name is the region), with waits recorded
 * instead of slept.
 */
final class SubmitRig implements AutoCloseable {
    static final String REGION = "eastus";
    static final SecretRef KEY_REF = SecretRef.parse("env:BATCH_KEY");
    static final String POOL_IDENTITY = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/ml"
            + "/providers/Microsoft.ManagedIdentity/userAssignedIdentities/gantry-pools";
    static final String ACCOUNT_RESOURCE_ID = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/ml"
            + "/providers/Microsoft.Batch/batchAccounts/" + REGION;
    static final ImageRef UBUNTU = ImageRef.marketplace("Ubuntu Server 22.04",
            "canonical:0001-com-ubuntu-server-jammy:22_04-lts:latest");
    static final VmSize D2 = new VmSize("Standard_D2s_v5", "D", 2, 8, Optional.empty(), false, Architecture.X64,
            Set.of("V1", "V2"));

    final BatchFake fake;
    final List<Duration> waits = new CopyOnWriteArrayList<>();
    final Map<String, String> secretValues = new ConcurrentHashMap<>();
    final BatchSettings settings;
    final Accounts accounts;
    final BatchCalls calls;
    final PoolEnsurer pools;
    final TaskEntries entries;
    final SecretBlobs secrets;
    final TaskSubmitter submitter;

    SubmitRig(BatchFake fake, Path state) {
        this(fake, state, TaskChunks::chunk);
    }

    SubmitRig(BatchFake fake, Path state, Function<List<TaskAddParameter>, List<List<TaskAddParameter>>> chunker) {
        this(fake, state, chunker, 3, Optional.empty());
    }

    /**
     * @param identityPools with one, the settings carry a pool identity and a secrets container, and the account a
     *     Resource Manager id
     */
    SubmitRig(BatchFake fake, Path state, Function<List<TaskAddParameter>, List<List<TaskAddParameter>>> chunker,
              int quotaAttempts, Optional<Identity> identityPools) {
        this(fake, state, chunker, quotaAttempts, identityPools, BatchConnection.DEFAULT_READ_TIMEOUT);
    }

    SubmitRig(BatchFake fake, Path state, Function<List<TaskAddParameter>, List<List<TaskAddParameter>>> chunker,
              int quotaAttempts, Optional<Identity> identityPools, Duration readTimeout) {
        this.fake = fake;
        Optional<String> resourceId = identityPools.map(i -> ACCOUNT_RESOURCE_ID);
        settings = new BatchSettings(List.of(new BatchAccountSettings(URI.create(fake.url()), REGION,
                BatchAuth.SHARED_KEY, Optional.of(KEY_REF), resourceId)), "gantry-", List.of(), 4,
                identityPools.map(i -> POOL_IDENTITY), identityPools.map(Identity::container), Duration.ofHours(1),
                Duration.ofDays(7));
        secretValues.put(KEY_REF.toString(), fake.accountKey());
        SecretResolver resolver = ref -> new Secret(secretValues.get(ref.toString()));
        Supplier<AccessTokenSource> noEntra = () -> {
            throw new AssertionError("no Entra ID in this test");
        };
        accounts = new Accounts(settings, resolver, noEntra, (url, auth) -> BatchConnection.to(url, auth)
                .readTimeout(readTimeout).open());
        calls = new BatchCalls(new BatchCalls.Policy(4, Duration.ofMillis(100), Duration.ofSeconds(30),
                quotaAttempts, Duration.ofSeconds(20), Jitter.NONE, waits::add));
        pools = new PoolEnsurer(settings, accounts, calls, () -> identityPools.orElseThrow().pools(),
                new PoolEnsurer.DeletionWait(Duration.ofMillis(200), 50, duration -> Thread.sleep(duration.toMillis())));
        entries = TaskEntries.in(state);
        secrets = new SecretBlobs(settings.secretsContainer(), resolver, () -> identityPools.orElseThrow().blobs());
        submitter = new TaskSubmitter(settings, accounts, calls, pools, secrets, entries, plan -> List.of(), chunker,
                TaskSubmitter.DEFAULT_CHUNKS_IN_FLIGHT, Clock.systemUTC());
    }

    /** Where pools with an identity are made, and the container their secrets go to. */
    record Identity(IdentityPools pools, URI container, BlobStore blobs) {
    }

    static Plan plan(String name, String... command) {
        return plan(Workload.builder(name).phase(Phase.TRAINING).model(ModelClass.SMALL)
                .resources(Resources.builder().vcpus(1).memoryGib(1)).command(command));
    }

    static Plan plan(Workload.Builder workload) {
        return Plan.builder(workload.build(), D2).region(REGION).image(UBUNTU)
                .boot(new NodeBoot(Optional.empty(), Optional.of("batch.node.ubuntu 22.04"))).build();
    }

    /** The task as the fake has it once completed (nodes run it for real); fails after 30 s. */
    JsonNode completed(TaskEntry entry) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(30);
        while (Instant.now().isBefore(deadline)) {
            JsonNode task = fake.task(entry.jobId(), entry.ref().taskId()).orElseThrow();
            if (task.path("state").asText().equals("completed")) {
                return task;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the task did not complete: " + fake.task(entry.jobId(), entry.ref().taskId()));
    }

    /** The task's stdout.txt, read through the file API. */
    String stdout(TaskEntry entry) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        accounts.connection(settings.accounts().get(0)).protocol().files().getFromTask(entry.jobId(),
                entry.ref().taskId(), "stdout.txt", new FileGetFromTaskOptions(), out);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        accounts.close();
    }
}
