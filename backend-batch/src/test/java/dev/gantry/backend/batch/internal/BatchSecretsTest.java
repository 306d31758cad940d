package dev.gantry.backend.batch.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.api.ImageRef;
import dev.gantry.api.ModelClass;
import dev.gantry.api.NodeBoot;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.SecretRef;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
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
import dev.gantry.backend.batch.fake.RecordedRequest;
import dev.gantry.backend.batch.internal.records.TaskEntries;
import dev.gantry.backend.batch.internal.records.TaskEntry;
import dev.gantry.backend.batch.internal.remote.Accounts;
import dev.gantry.backend.batch.internal.remote.AzureAdapters;
import dev.gantry.backend.batch.internal.render.ContainerRunOptions;
import dev.gantry.backend.batch.internal.render.Launcher;
import dev.gantry.backend.batch.internal.render.TaskRef;
import dev.gantry.backend.batch.internal.render.WireJson;
import dev.gantry.backend.batch.internal.rest.AccessTokenSource;
import dev.gantry.backend.batch.internal.rest.BatchAccountUrl;
import dev.gantry.backend.batch.internal.rest.BatchConnection;
import dev.gantry.backend.batch.internal.secrets.SecretBlobs;
import dev.gantry.backend.batch.internal.submit.SubmitParts;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import dev.gantry.testing.TestPodman;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The secrets checks, on the whole backend against the Batch fake with its blob fake: an Entra ID account in
 * user-subscription mode whose pools Gantry makes through Resource Manager with the pool identity, and the secrets
 * container in the blob fake. A secret's value is in no request body Batch or Resource Manager received (task, job and
 * pool definitions looked at one by one, as sent and as anyone with read access lists them), only in the one blob
 * upload; not in the state directory; in no file left under the nodes' directories once the workload ran (the
 * launcher deleted the secrets file it loaded); it reaches the process, which prints a SHA-256 fingerprint of it, never
 * the value; its blob outlives a requeue after a Spot preemption (the next node downloads it again) and is gone once a
 * status poll has seen the task end, a cancel included.
 */
class BatchSecretsTest {
    private static final String REGION = "eastus";
    private static final String CONTAINER = "gantry-secrets";
    private static final String IDENTITY = "/subscriptions/" + ArmFake.SUBSCRIPTION + "/resourceGroups/ml"
            + "/providers/Microsoft.ManagedIdentity/userAssignedIdentities/gantry-secrets-test";
    private static final SecretRef REF = SecretRef.parse("env:GANTRY_TEST_API_TOKEN");

    /** A marker no other text has, inside characters a shell or JSON would mangle if the value were not kept whole. */
    private final String marker = "s3cr3t" + UUID.randomUUID().toString().replace("-", "");
    private final String value = "it's " + marker + " $HOME \\ \"q\"\n";

    private final FakeTokenIssuer issuer = new FakeTokenIssuer();
    private final AccessTokenSource tokens = new AccessTokens(() -> issuer)::token;
    private final ArmFake arm = start(ArmFake::new);
    private final BlobFake blobs = start(BlobFake::new);
    private final String container = blobs.createContainer(CONTAINER);
    private final BatchFake fake = new BatchFake(new BatchFakeOptions().account(REGION).https(true).auth(false, true)
            .autoscaleInterval(Duration.ofMillis(200)).blobs(BlobSource.of(blobs)));
    private final BatchAccountModel account = arm.batchAccount("ml", REGION, REGION,
            PoolAllocationMode.USER_SUBSCRIPTION);
    private final TckContext context = TckContext.create().putSecret(REF, value);
    private final BatchBackend backend;

    BatchSecretsTest() {
        fake.shareWith(account);
        FakeAccounts.offerSize(arm, REGION, BackendFixture.smallCpuSize().name());
        backend = backend();
    }

    private interface Starter<T> {
        T start() throws Exception;
    }

    private static <T> T start(Starter<T> starter) {
        try {
            return starter.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start a fake", e);
        }
    }

    /** The backend as a gantry.yaml would configure it, with the blob fake's path-style container set directly. */
    private BatchBackend backend() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("accounts[0].url", fake.url());
        values.put("accounts[0].region", REGION);
        values.put("accounts[0].auth", "entra");
        values.put("accounts[0].resourceId", account.resourceId());
        values.put("poolIdentity", IDENTITY);
        BatchSettings bound = BatchSettings.bind(new BackendConfig("batch", values));
        BatchSettings settings = new BatchSettings(bound.accounts(), bound.poolPrefix(), bound.existingPools(),
                bound.maxNodesPerPool(), bound.poolIdentity(), Optional.of(URI.create(container)),
                bound.idlePoolTimeout(), bound.taskRetention());
        BatchManagement management = new BatchManagement(arm.connector());
        Accounts accounts = new Accounts(settings, context.secrets(), () -> tokens, BatchSecretsTest::trusting);
        SubmitParts parts = SubmitParts.of(settings, context, ContainerRunOptions::of, accounts,
                () -> AzureAdapters.identityPools(management), () -> AzureAdapters.blobStore(blobs.blobs()));
        ResourceSkusClient compute = ResourceSkusClient.of(arm.connector(), ArmFake.SUBSCRIPTION);
        return new BatchBackend(settings, context, parts, new AzureReach(configured -> Optional.of(management),
                () -> Optional.of(blobs.blobs()), configured -> compute::usages), Duration.ofMillis(200));
    }

    private static BatchConnection trusting(BatchAccountUrl url, dev.gantry.backend.batch.internal.rest.BatchAuth auth) {
        return BatchConnection.to(url, auth).trustingForTests(LocalHttps.trustingContext().getSocketFactory(),
                LocalHttps.trustManager()).open();
    }

    @AfterEach
    void close() {
        backend.close();
        fake.close();
        blobs.close();
        arm.close();
        context.close();
    }

    /** Prints the fingerprint of the secret's bytes, never the value, then runs on for {@code seconds}. */
    private static Workload.Builder fingerprinting(int seconds) {
        return Workload.builder("secrets-test").phase(Phase.TRAINING).model(ModelClass.SMALL)
                .resources(Resources.builder().vcpus(1))
                .command("/bin/sh", "-c", "printf %s \"$API_TOKEN\" | sha256sum; sleep " + seconds)
                .secret("API_TOKEN", REF);
    }

    private static Plan plan(Workload.Builder workload, int nodes, boolean spot) {
        return Plan.builder(workload.build(), BackendFixture.smallCpuSize()).region(REGION).nodes(nodes).spot(spot)
                .image(ImageRef.marketplace("Ubuntu Server 22.04",
                        "canonical:0001-com-ubuntu-server-jammy:22_04-lts:latest"))
                .boot(new NodeBoot(Optional.empty(), Optional.of("batch.node.ubuntu 22.04"))).build();
    }

    @Test
    void aSecretReachesAOneNodeTaskThroughItsBlobOnlyAndTheBlobGoesWhenTheTaskEnds() throws Exception {
        List<LogLine> output = runAndCheck(plan(fingerprinting(4), 1, false), "one-node");

        assertEquals(List.of(fingerprint() + "  -"), texts(output), "the process had the value, byte for byte");
    }

    /** Several nodes: the secrets file is a common resource file, loaded and deleted by every node's rank. */
    @Test
    void aTwoNodeTaskGivesEveryRankTheSecretAndLeavesItOnNoNode() throws Exception {
        List<LogLine> output = runAndCheck(plan(fingerprinting(4), 2, false), "two-node");

        assertEquals(List.of(0, 1), output.stream().map(LogLine::node).sorted().toList(), output.toString());
        assertEquals(List.of(fingerprint() + "  -", fingerprint() + "  -"), texts(output),
                "every rank had the value, byte for byte");
    }

    /** In a container: the secrets file reaches the launcher through the task directory Batch mounts. */
    @Test
    void aContainerTaskGetsTheSecretInsideItsContainer() throws Exception {
        List<LogLine> output = runAndCheck(plan(fingerprinting(4).container(TestPodman.IMAGE), 1, false),
                "container");

        assertEquals(List.of(fingerprint() + "  -"), texts(output), "the process had the value, byte for byte");
    }

    /**
     * A dependent Batch cannot carry (AFTER_ANY) is held by Gantry, its body in the state directory: that body names
     * the blob, never the value; once added it reads the secret like any other, and its blob goes at its end.
     */
    @Test
    void aHeldTaskKeepsOnlyItsBlobsNameInTheStateDirectory() throws Exception {
        JobRef first = backend.submit(plan(Workload.builder("first").phase(Phase.TRAINING).model(ModelClass.SMALL)
                .resources(Resources.builder().vcpus(1)).command("sleep", "1"), 1, false),
                SubmitOptions.withKey("first"));
        JobRef held = backend.submit(plan(fingerprinting(0), 1, false), SubmitOptions.withKey("held")
                .dependingOn(JobDependency.afterAny(first)));
        TaskRef ref = TaskRef.parse(held.id()).orElseThrow();
        TaskEntry entry = TaskEntries.in(context.stateDirectory()).byId(held.id()).orElseThrow();

        assertEquals(TaskEntry.Phase.HELD, entry.phase());
        assertTrue(entry.heldTask().orElseThrow().contains(SecretBlobs.blobName(ref)), entry.toString());
        assertNoFileHoldsIt("the state directory while the task is held", context.stateDirectory());
        assertEquals(List.of(SecretBlobs.blobName(ref)), blobs.names(CONTAINER));
        JobStatus end = StatusPolls.ended(backend, held);
        assertEquals(JobState.SUCCEEDED, end.state(), end.message());

        assertEquals(List.of(fingerprint() + "  -"), texts(StatusPolls.output(backend, held)));
        assertNothingLeftOnceEnded(ref, false);
    }

    /**
     * A Spot node preempted: Batch runs the task again on another node, which downloads the blob again, so the blob
     * must outlive a requeue; a cancel is an end like any other, after which the blob is gone.
     */
    @Test
    void aRequeuedTaskReadsItsSecretAgainAndACancelledOneLeavesNoBlob() throws Exception {
        Plan plan = plan(fingerprinting(60), 1, true);
        TaskRef ref = submitted(plan, "requeued");
        JobRef job = new JobRef(BatchBackend.NAME, ref.id());
        whileItRuns(job, ref, 1);

        String preempted = fake.preemptNodeOf(ref.jobId(), ref.taskId());
        JobStatus requeued = StatusPolls.until(backend, job, JobStatus::requeued, "requeued");
        assertEquals(1, requeued.evictions(), requeued.toString());
        whileItRuns(job, ref, 2);
        JsonNode task = fake.task(ref.jobId(), ref.taskId()).orElseThrow();
        assertNotEquals(preempted, task.path("nodeInfo").path("nodeId").asText(), "ran again elsewhere: " + task);
        assertEquals(1, blobs.names(CONTAINER).size(), "the blob stays while the task is requeued");

        backend.cancel(job);
        JobStatus end = StatusPolls.ended(backend, job);

        assertEquals(JobState.CANCELLED, end.state(), end.message());
        assertNothingLeftOnceEnded(ref, false);
    }

    /** Validates, submits, waits for the end and checks where the value went; answers the task's output. */
    private List<LogLine> runAndCheck(Plan plan, String key) throws Exception {
        TaskRef ref = submitted(plan, key);
        JobRef job = new JobRef(BatchBackend.NAME, ref.id());
        whileItRuns(job, ref, plan.nodes());

        JobStatus end = StatusPolls.ended(backend, job);
        assertEquals(JobState.SUCCEEDED, end.state(), end.message());
        List<LogLine> output = StatusPolls.output(backend, job);

        assertNothingLeftOnceEnded(ref, plan.nodes() > 1);
        output.forEach(line -> assertHoldsNoValue("the task's output", line.text()));
        return output;
    }

    /** Validated and submitted, its secrets in their one blob. */
    private TaskRef submitted(Plan plan, String key) {
        assertEquals(List.of(), backend.validate(plan), "the plan is one this account can run");
        JobRef job = backend.submit(plan, SubmitOptions.withKey(key));
        TaskRef ref = TaskRef.parse(job.id()).orElseThrow();
        assertEquals(List.of(SecretBlobs.blobName(ref)), blobs.names(CONTAINER),
                "the value's one blob, there until the task has ended");
        return ref;
    }

    /** Once the workload printed its fingerprint (the {@code runs}-th time on this task), while it still runs. */
    private void whileItRuns(JobRef job, TaskRef ref, int runs) throws Exception {
        awaitFingerprints(runs);
        assertEquals(JobState.RUNNING, backend.status(job).state(), "the workload still runs");
        assertNoFileHoldsIt("the nodes' directories while the workload runs", nodesHaveRun(ref));
    }

    private void assertNothingLeftOnceEnded(TaskRef ref, boolean severalNodes) throws IOException {
        assertEquals(List.of(), blobs.names(CONTAINER), "the blob is deleted once a poll saw the task end");
        assertTheTaskReadsTheBlobWithThePoolsIdentity(ref, severalNodes);
        assertNoDefinitionHoldsIt(ref);
        assertOnlyTheBlobUploadCarriedIt();
        assertNoFileHoldsIt("the state directory", context.stateDirectory());
        assertNoFileHoldsIt("the nodes' directories (task directories included)", nodesHaveRun(ref));
    }

    /** The secrets file is a resource file named by URL without a SAS, read with the pool's identity, mode 0600. */
    private void assertTheTaskReadsTheBlobWithThePoolsIdentity(TaskRef ref, boolean severalNodes) {
        JsonNode task = fake.task(ref.jobId(), ref.taskId()).orElseThrow();
        JsonNode files = severalNodes ? task.path("multiInstanceSettings").path("commonResourceFiles")
                : task.path("resourceFiles");
        assertEquals(1, files.size(), task.toString());
        JsonNode file = files.get(0);
        assertEquals(container + "/" + SecretBlobs.blobName(ref),
                file.path("httpUrl").asText(), "no SAS or other query: " + file);
        assertEquals(IDENTITY, file.path("identityReference").path("resourceId").asText(), file.toString());
        assertEquals(Launcher.SECRETS_FILE, file.path("filePath").asText(), file.toString());
        assertEquals("0600", file.path("fileMode").asText(), file.toString());
    }

    /** Task, job and pool definitions, each as sent and as anyone with read access reads it from the data plane. */
    private void assertNoDefinitionHoldsIt(TaskRef ref) {
        List<RecordedRequest> requests = fake.requests();
        List<RecordedRequest> taskAdds = requests.stream().filter(r -> r.operation().startsWith("Task_Add")).toList();
        List<RecordedRequest> jobAdds = requests.stream().filter(r -> r.operation().equals("Job_Add")).toList();
        List<ArmFake.Request> poolPuts = arm.requests().stream()
                .filter(r -> r.method().equals("PUT") && r.path().contains("/pools/")).toList();
        assertFalse(taskAdds.isEmpty() || jobAdds.isEmpty() || poolPuts.isEmpty(),
                "a task, a job and a pool were defined: " + fake.counts() + " " + arm.requests().size());
        taskAdds.forEach(r -> assertHoldsNoValue("the task definition sent (" + r.operation() + ")", r.body()));
        jobAdds.forEach(r -> assertHoldsNoValue("the job definition sent", r.body()));
        poolPuts.forEach(r -> assertHoldsNoValue("the pool definition sent to Resource Manager", r.body().toString()));
        requests.stream().filter(r -> r.operation().equals("Pool_Add"))
                .forEach(r -> assertHoldsNoValue("the pool definition sent to Batch", r.body()));
        try (BatchConnection reader = trusting(BatchAccountUrl.of(fake.url()),
                new dev.gantry.backend.batch.internal.rest.BatchAuth.Entra(tokens))) {
            var batch = reader.protocol();
            batch.pools().list().forEach(pool -> assertHoldsNoValue("pool " + pool.id() + " as listed",
                    WireJson.compact(pool)));
            // The fake serves job get, not job list (the backend lists no jobs).
            assertHoldsNoValue("job " + ref.jobId() + " as read", WireJson.compact(batch.jobs().get(ref.jobId())));
            batch.tasks().list(ref.jobId()).forEach(task -> assertHoldsNoValue("task " + task.id() + " as listed",
                    WireJson.compact(task)));
        }
    }

    /** Every request to Batch, Resource Manager and Storage: the value is in the one blob upload only. */
    private void assertOnlyTheBlobUploadCarriedIt() {
        fake.requests().forEach(r -> assertHoldsNoValue("a request to Batch (" + r.operation() + ")", r.toString()));
        arm.requests().forEach(r -> assertHoldsNoValue("a request to Resource Manager (" + r.method() + " "
                + r.path() + ")", r.toString()));
        List<BlobFake.Request> carrying = blobs.requests().stream().filter(r -> !holdsNoValue(r.bodyText()
                + r.path() + r.query() + r.headers())).toList();
        assertEquals(1, carrying.size(), "only the blob upload holds it: " + carrying.stream()
                .map(r -> r.method() + " " + r.path()).toList());
        assertEquals("PUT", carrying.get(0).method());
    }

    /** Until {@code ranks} output files on the nodes hold the fingerprint; fails after 30 s. */
    private void awaitFingerprints(int ranks) throws Exception {
        Instant deadline = Instant.now().plus(StatusPolls.LIMIT);
        String line = fingerprint() + "  -";
        while (true) {
            try (Stream<Path> files = Files.walk(fake.root())) {
                long printed = files.filter(Files::isRegularFile).filter(file -> contains(file, line)).count();
                if (printed >= ranks) {
                    return;
                }
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("the workload never printed the value's fingerprint " + line + " on " + ranks
                        + " nodes; their output: " + outputs());
            }
            Thread.sleep(50);
        }
    }

    /** What the workload printed on each node (fingerprints, never the value), for a failure to show. */
    private List<String> outputs() throws IOException {
        try (Stream<Path> files = Files.walk(fake.root())) {
            return files.filter(file -> file.getFileName().toString().matches("stdout\\.txt|rank-\\d+\\.stdout"))
                    .map(file -> fake.root().relativize(file) + ": " + read(file).strip()).toList();
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return ""; // a file that went away while listed (a node's scratch) holds nothing
        }
    }

    private static boolean contains(Path file, String text) {
        return read(file).contains(text);
    }

    /** The nodes' root, once the task's own directory is known to be there (its output read from it). */
    private Path nodesHaveRun(TaskRef ref) throws IOException {
        try (Stream<Path> files = Files.walk(fake.root())) {
            List<Path> outputs = files.filter(path -> path.endsWith("stdout.txt")
                    && path.toString().contains(ref.taskId())).toList();
            assertFalse(outputs.isEmpty(), "the task directory is still on its node under " + fake.root());
        }
        return fake.root();
    }

    private void assertNoFileHoldsIt(String where, Path root) throws IOException {
        List<Path> checked = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                assertFalse(file.getFileName().toString().equals(Launcher.SECRETS_FILE), "the secrets file outlived"
                        + " the launcher's start: " + file);
                assertHoldsNoValue(where + ": " + root.relativize(file), Files.readString(file,
                        StandardCharsets.ISO_8859_1));
                checked.add(file);
            }
        }
        assertFalse(checked.isEmpty(), "no file was there to check in " + where);
    }

    private void assertHoldsNoValue(String where, String text) {
        assertTrue(holdsNoValue(text), where + " holds the secret's value");
    }

    /** The value in the forms a leak would take: as is, escaped (JSON, shell: the marker survives) or Base64. */
    private boolean holdsNoValue(String text) {
        String base64 = Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
        return !text.contains(marker) && !text.contains(base64);
    }

    private String fingerprint() throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(value.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<String> texts(List<LogLine> lines) {
        return lines.stream().filter(line -> line.stream() == LogLine.Stream.STDOUT).map(LogLine::text).toList();
    }
}
