package dev.gantry.backend.batch.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.ImageRef;
import dev.gantry.api.ModelClass;
import dev.gantry.api.NodeBoot;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.Resources;
import dev.gantry.api.SecretRef;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.batch.fake.BatchFake;
import dev.gantry.backend.batch.fake.BatchFakeOptions;
import dev.gantry.backend.batch.fake.RecordedRequest;
import dev.gantry.backend.batch.internal.render.TaskRef;
import dev.gantry.backend.batch.internal.rest.BatchConnection;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A Batch-managed account signed in with its shared key, over plain HTTP on loopback (the one place {@code http://}
 * is accepted), configured as a gantry.yaml configures it and wired as production wires it
 * ({@link BatchBackend#open}): submit, status, logs, cancel and idempotency work, on pools Gantry makes through the
 * data plane; Spot and secrets, which such an account cannot have, are refused by {@code validate}, naming the field,
 * what the plan asked and the fix; a wrong key is an authentication failure naming the key's setting.
 */
class SharedKeyAccountTest {
    private static final String REGION = "eastus";
    private static final SecretRef KEY = SecretRef.parse("env:GANTRY_TEST_BATCH_KEY");

    /** Named after the region: a loopback account URL names no account, so the account's name is its region. */
    private final BatchFake fake = new BatchFake(new BatchFakeOptions().account(REGION).auth(true, false)
            .autoscaleInterval(Duration.ofMillis(100)));
    private final BatchSettings settings = BatchSettings.bind(new BackendConfig("batch", Map.of(
            "accounts[0].url", fake.url(), "accounts[0].region", REGION, "accounts[0].auth", "sharedKey",
            "accounts[0].key", KEY.toString())));
    private final List<TckContext> contexts = new ArrayList<>();
    private final List<BatchBackend> backends = new ArrayList<>();
    private final BatchBackend backend = open(context());

    @AfterEach
    void close() {
        backends.forEach(BatchBackend::close);
        fake.close();
        contexts.forEach(TckContext::close);
    }

    /** A state directory of its own, as another machine has; the key resolved from it as from the environment. */
    private TckContext context() {
        TckContext context = TckContext.create().putSecret(KEY, fake.accountKey());
        contexts.add(context);
        return context;
    }

    private BatchBackend open(TckContext context) {
        BatchBackend opened = BatchBackend.open(settings, context);
        backends.add(opened);
        return opened;
    }

    private static Workload.Builder workload(String... command) {
        return Workload.builder("shared-key").phase(Phase.TRAINING).model(ModelClass.SMALL)
                .resources(Resources.builder().vcpus(1)).command(command);
    }

    private static Plan plan(Workload.Builder workload, boolean spot) {
        return Plan.builder(workload.build(), BackendFixture.smallCpuSize()).region(REGION).spot(spot)
                .image(ImageRef.marketplace("Ubuntu Server 22.04",
                        "canonical:0001-com-ubuntu-server-jammy:22_04-lts:latest"))
                .boot(new NodeBoot(Optional.empty(), Optional.of("batch.node.ubuntu 22.04"))).build();
    }

    @Test
    void submitStatusAndLogsWorkOverPlainHttpSignedWithTheKey() throws InterruptedException {
        assertTrue(fake.url().startsWith("http://127.0.0.1:"), fake.url());
        Plan plan = plan(workload("/bin/sh", "-c", "echo 'to stdout'; echo 'to stderr' >&2"), false);
        assertEquals(List.of(), backend.validate(plan));

        JobRef job = backend.submit(plan, SubmitOptions.withKey("hello"));
        JobStatus end = StatusPolls.ended(backend, job);
        List<LogLine> output = StatusPolls.output(backend, job);

        assertEquals(JobState.SUCCEEDED, end.state(), end.message());
        assertEquals(List.of(new LogLine(LogLine.Stream.STDOUT, 0, "to stdout"),
                new LogLine(LogLine.Stream.STDERR, 0, "to stderr")), output);
        assertEquals(1, fake.count("Pool_Add"), "the pool is made through the data plane: " + fake.counts());
        for (RecordedRequest request : fake.requests()) {
            String authorization = request.headers().getOrDefault("authorization", List.of("none")).get(0);
            assertTrue(authorization.startsWith("SharedKey " + REGION + ":"), request.operation() + " was signed "
                    + "with " + authorization);
        }
    }

    @Test
    void theSameKeyIsOneTaskAgainAnotherProcessAndAnotherStateDirectory() throws InterruptedException {
        Plan plan = plan(workload("sleep", "30"), false);
        JobRef first = backend.submit(plan, SubmitOptions.withKey("once"));

        assertEquals(first, backend.submit(plan, SubmitOptions.withKey("once")), "again, in this process");
        assertEquals(first, open(contexts.get(0)).submit(plan, SubmitOptions.withKey("once")),
                "from another process over the same state directory");
        BatchBackend elsewhere = open(context());
        assertEquals(first, elsewhere.submit(plan, SubmitOptions.withKey("once")),
                "from a state directory that never saw it: Batch's TaskExists, adopted");

        TaskRef ref = TaskRef.parse(first.id()).orElseThrow();
        try (BatchConnection reader = FakeAccounts.sharedKey(fake)) {
            assertEquals(List.of(ref.taskId()), reader.protocol().tasks().list(ref.jobId()).stream()
                    .map(task -> task.id()).toList(), "one task in its job");
        }
        assertFalse(StatusPolls.running(elsewhere, first).state().isTerminal(), "the adopting side follows it too");
        backend.cancel(first);
    }

    @Test
    void cancelTerminatesARunningTaskAndItEndsCancelled() throws InterruptedException {
        JobRef job = backend.submit(plan(workload("sleep", "60"), false), SubmitOptions.withKey("long"));
        StatusPolls.running(backend, job);

        backend.cancel(job);
        JobStatus status = StatusPolls.ended(backend, job);

        assertEquals(JobState.CANCELLED, status.state(), status.message());
        TaskRef ref = TaskRef.parse(job.id()).orElseThrow();
        JsonNode task = fake.task(ref.jobId(), ref.taskId()).orElseThrow();
        assertEquals("completed", task.path("state").asText(), "terminated in Batch: " + task);
        backend.cancel(job);
        assertEquals(JobState.CANCELLED, backend.status(job).state(), "a second cancel changes nothing");
    }

    @Test
    void validateRefusesSpotNamingTheFieldTheAccountsAuthAndTheFix() {
        List<Problem> problems = backend.validate(plan(workload("true"), true));

        assertEquals(1, problems.size(), problems.toString());
        Problem spot = problems.get(0);
        assertEquals("spot", spot.path());
        assertTrue(spot.message().startsWith("the plan is on Spot but account "), spot.message());
        assertTrue(spot.message().contains("(accounts[*].auth: sharedKey)"), "names the account's auth: " + spot.message());
        assertTrue(spot.message().contains("UserSubscription") && spot.message().contains("auth: entra")
                && spot.message().contains("spot: never"), "gives both fixes: " + spot.message());
        assertFalse(backend.capabilities().spot(), "a shared-key account has no Spot");
    }

    @Test
    void validateRefusesSecretsNamingThemAndTheSettingsThatWouldCarryThem() {
        Plan plan = plan(workload("true").secret("API_TOKEN", SecretRef.parse("env:API_TOKEN")), false);

        List<Problem> problems = backend.validate(plan);

        assertEquals(1, problems.size(), problems.toString());
        Problem secrets = problems.get(0);
        assertEquals("secrets", secrets.path());
        assertTrue(secrets.message().contains("[API_TOKEN]"), secrets.message());
        assertTrue(secrets.message().contains("set backends.batch.poolIdentity and backends.batch.secrets.containerUrl"),
                "the fix: " + secrets.message());
        fake.clearRequests();
        GantryException refused = assertThrows(GantryException.class,
                () -> backend.submit(plan, SubmitOptions.withKey("secret")));
        assertEquals(ErrorCode.USAGE, refused.code());
        assertTrue(refused.getMessage().contains("backends.batch.poolIdentity"), refused.getMessage());
        assertEquals(List.of(), fake.requests().stream().map(RecordedRequest::operation).toList(),
                "submitted anyway, it is refused before any pool, job or task is made");
    }

    /** A key that is not the account's: Batch's 403 AuthenticationFailed, said as such with where the key comes from. */
    @Test
    void aWrongKeyIsAnAuthenticationFailureNamingTheKeySetting() {
        TckContext wrong = TckContext.create().putSecret(KEY, Base64.getEncoder().encodeToString(new byte[64]));
        contexts.add(wrong);

        GantryException e = assertThrows(GantryException.class, () -> open(wrong)
                .submit(plan(workload("true"), false), SubmitOptions.withKey("denied")));

        assertEquals(ErrorCode.AUTH_FAILED, e.code(), e.getMessage());
        assertTrue(e.getMessage().contains("403 AuthenticationFailed")
                && e.getMessage().contains("backends.batch.accounts[*].key resolves to the account's current key"),
                e.getMessage());
    }
}
