package dev.gantry.backend.batch.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.ModelClass;
import dev.gantry.api.NodeBoot;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.SecretRef;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.api.backend.Submission;
import dev.gantry.backend.batch.fake.BatchFake;
import dev.gantry.backend.batch.fake.BatchFakeOptions;
import dev.gantry.backend.batch.internal.records.TaskEntry;
import dev.gantry.backend.batch.internal.remote.Accounts;
import dev.gantry.backend.batch.internal.render.ContainerRunOptions;
import dev.gantry.backend.batch.internal.submit.SubmitParts;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The backend as assembled, on pools it makes itself (the kit runs on an existing pool): how a failed submission of
 * a submitAll surfaces, held dependencies added by a status poll, a held task cancelled, what the entries keep.
 * Statuses only: the fake takes a pool's node away at the first evaluation after its task ends, and the task's files
 * with it, so these tests read no output after a task ended.
 */
class BatchBackendTest {
    private static final SecretRef KEY = SecretRef.parse("env:BATCH_KEY");

    private final BatchFake fake = new BatchFake(new BatchFakeOptions().account(FakeAccounts.REGION)
            .autoscaleInterval(Duration.ofMillis(100)));
    private final TckContext context = TckContext.create().putSecret(KEY, fake.accountKey());
    private final BatchSettings settings = new BatchSettings(List.of(new BatchAccountSettings(URI.create(fake.url()),
            FakeAccounts.REGION, BatchAuth.SHARED_KEY, Optional.of(KEY), Optional.empty())), "gantry-", List.of(), 4,
            Optional.empty(), Optional.empty(), Duration.ofHours(1), Duration.ofDays(7));
    private final BatchBackend backend = new BatchBackend(settings, context, SubmitParts.of(settings, context,
            ContainerRunOptions::of, Accounts.of(settings, context.secrets()), () -> {
                throw new AssertionError("no pool identity here");
            }, () -> {
                throw new AssertionError("no secrets here");
            }), new AzureReach(account -> Optional.empty(), Optional::empty, account -> region -> {
                throw new AssertionError("no resourceId here");
            }), Duration.ofMillis(100));

    @AfterEach
    void close() {
        backend.close();
        fake.close();
        context.close();
    }

    private static Plan plan(String region, String... command) {
        return plan(region, workload(command).build(), false);
    }

    private static Workload.Builder workload(String... command) {
        return Workload.builder("backend-test").phase(Phase.TRAINING).model(ModelClass.SMALL)
                .resources(Resources.builder().vcpus(1)).command(command);
    }

    private static Plan plan(String region, Workload workload, boolean spot) {
        return Plan.builder(workload, BackendFixture.smallCpuSize()).region(region)
                .image(dev.gantry.api.ImageRef.marketplace("Ubuntu Server 22.04",
                        "canonical:0001-com-ubuntu-server-jammy:22_04-lts:latest"))
                .boot(new NodeBoot(Optional.empty(), Optional.of("batch.node.ubuntu 22.04"))).spot(spot).build();
    }

    private JobStatus awaitEnd(JobRef job) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(30);
        JobStatus status = backend.status(job);
        while (!status.state().isTerminal()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError(job + " did not end; last " + status);
            }
            Thread.sleep(100);
            status = backend.status(job);
        }
        return status;
    }

    @Test
    void aFailedSubmissionMakesSubmitAllThrowAndTheOthersAreSubmittedOnceAcrossRetries() {
        Submission good = new Submission(plan(FakeAccounts.REGION, "true"), SubmitOptions.withKey("good"));
        Submission bad = new Submission(plan("westus", "true"), SubmitOptions.withKey("bad"));

        GantryException e = assertThrows(GantryException.class, () -> backend.submitAll(List.of(good, bad)));

        assertEquals(ErrorCode.USAGE, e.code());
        assertTrue(e.getMessage().contains("westus"), e.getMessage());
        int added = fake.count("Task_AddCollection");
        assertEquals(1, added, "the good one was sent: " + fake.counts());
        List<JobRef> again = backend.submitAll(List.of(good));
        assertEquals(added, fake.count("Task_AddCollection"), "the same key is the same task, not sent again");
        assertEquals("batch", again.get(0).backend());
        assertTrue(again.get(0).id().startsWith(FakeAccounts.REGION + "."), again.get(0).id());
    }

    @Test
    void aHeldTaskIsAddedByThePollThatSeesItsDependencyEndAndTheEntryKeepsNodesAndDependencies()
            throws InterruptedException {
        JobRef first = backend.submit(plan(FakeAccounts.REGION, "sh", "-c", "exit 4"), SubmitOptions.withKey("first"));
        JobRef second = backend.submit(plan(FakeAccounts.REGION, "true"), SubmitOptions.withKey("second")
                .dependingOn(JobDependency.afterAny(first)));
        TaskEntry held = backendEntry(second);
        assertEquals(TaskEntry.Phase.HELD, held.phase(), "AFTER_ANY is held by Gantry");
        assertEquals(List.of(JobDependency.afterAny(first)), held.dependencies());
        assertEquals(1, held.nodes());

        assertEquals(JobState.FAILED, awaitEnd(first).state());
        assertEquals(JobState.SUCCEEDED, awaitEnd(second).state(), "added once its dependency ended, and ran");
        assertEquals(1, fake.count("Task_Add"), "the held body added once: " + fake.counts());
        assertEquals(TaskEntry.Phase.ADDED, backendEntry(second).phase());
        assertTrue(backendEntry(second).terminal().isPresent(), "its end is recorded");
    }

    @Test
    void aHeldTaskCancelledEndsCancelledWithoutACall() {
        JobRef first = backend.submit(plan(FakeAccounts.REGION, "sleep", "30"), SubmitOptions.withKey("long"));
        JobRef second = backend.submit(plan(FakeAccounts.REGION, "true"), SubmitOptions.withKey("after")
                .dependingOn(JobDependency.afterAny(first)));
        fake.clearRequests();

        backend.cancel(second);

        assertEquals(List.of(), fake.requests().stream().map(r -> r.operation()).toList());
        JobStatus status = backend.status(second);
        assertEquals(JobState.CANCELLED, status.state(), status.message());
        backend.cancel(first);
    }

    @Test
    void anUnknownJobIsNotFoundAndUnknownInStatuses() {
        JobRef unknown = new JobRef("batch", FakeAccounts.REGION + ".gantry-x.nothing");
        assertEquals(ErrorCode.JOB_NOT_FOUND, assertThrows(GantryException.class, () -> backend.status(unknown))
                .code());
        assertEquals(JobState.UNKNOWN, backend.statuses(List.of(unknown)).get(unknown).state());
    }

    @Test
    void aThrottledStatusPollAndAFailedLogReadAreEachSentAgain() throws InterruptedException {
        JobRef job = backend.submit(plan(FakeAccounts.REGION, "sleep", "30"), SubmitOptions.withKey("throttled"));
        fake.faults().throttle("Task_List", 1, Duration.ofSeconds(1), 
                dev.gantry.backend.batch.fake.Faults.RetryAfterForm.SECONDS);

        JobStatus status = backend.status(job);

        assertTrue(!status.state().isTerminal(), status.toString());
        assertEquals(2, fake.count("Task_List"), "the 429 was waited out and the list sent again: " + fake.counts());
        // Each read is one request through the retry policy (BatchFaultTest: in Batch's words once past the bound).
        fake.faults().serverError("File_GetFromTask", 1);
        int reads = fake.count("File_GetFromTask");
        backend.logs(job, new dev.gantry.api.backend.LogOptions(false, java.util.OptionalInt.empty(), true, false),
                line -> { });
        assertEquals(reads + 2, fake.count("File_GetFromTask"), "the 500 was sent again: " + fake.counts());
        backend.cancel(job);
    }

    @Test
    void aSharedKeyAccountRefusesSpotAndSecretsInValidateWithTheFix() {
        Plan spot = plan(FakeAccounts.REGION, workload("true").build(), true);
        Plan secret = plan(FakeAccounts.REGION, workload("true").secret("TOKEN", SecretRef.parse("env:TOKEN")).build(),
                false);

        assertTrue(backend.validate(spot).stream().anyMatch(p -> p.message().contains("Spot")),
                backend.validate(spot).toString());
        assertTrue(backend.validate(secret).stream().anyMatch(p -> p.message().contains("poolIdentity")),
                backend.validate(secret).toString());
        assertTrue(!backend.capabilities().spot(), "a shared-key account cannot have Spot");
    }

    private TaskEntry backendEntry(JobRef job) {
        return dev.gantry.backend.batch.internal.records.TaskEntries.in(context.stateDirectory()).byId(job.id())
                .orElseThrow();
    }
}
