package dev.gantry.backend.batch.internal.submit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.Plan;
import com.microsoft.azure.batch.protocol.models.ImageReference;
import com.microsoft.azure.batch.protocol.models.PoolAddParameter;
import com.microsoft.azure.batch.protocol.models.TaskAddParameter;
import com.microsoft.azure.batch.protocol.models.VirtualMachineConfiguration;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.api.backend.Submission;
import dev.gantry.backend.batch.fake.BatchFake;
import dev.gantry.backend.batch.fake.BatchFakeOptions;
import dev.gantry.backend.batch.fake.Faults;
import dev.gantry.backend.batch.internal.records.TaskEntries;
import dev.gantry.backend.batch.internal.records.TaskEntry;
import dev.gantry.backend.batch.internal.render.TaskChunks;
import dev.gantry.backend.batch.internal.render.WireJson;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The submit path against the Batch fake over loopback HTTP with shared key: runs, idempotency, faults. */
class SubmitPathTest {
    @TempDir
    Path state;

    private final BatchFake fake = new BatchFake(new BatchFakeOptions().account(SubmitRig.REGION).auth(true, false)
            .autoscaleInterval(Duration.ofMillis(100)));

    @AfterEach
    void close() {
        fake.close();
    }

    @Test
    void oneTaskRunsToCompletionAndItsOutputIsInStdout() throws Exception {
        try (SubmitRig rig = new SubmitRig(fake, state)) {
            TaskEntry entry = rig.submitter.submit(SubmitRig.plan("hello", "echo", "hello from batch"),
                    SubmitOptions.withKey("hello-1"));
            assertEquals(TaskEntry.Phase.ADDED, entry.phase());
            assertEquals(SubmitRig.REGION + "." + entry.jobId() + ".hello-1", entry.ref().id());
            JsonNode task = rig.completed(entry);
            assertEquals(0, task.path("executionInfo").path("exitCode").asInt(-1), task.toString());
            assertEquals("hello from batch\n", rig.stdout(entry));
            assertEquals(List.of(entry.poolId()), fake.poolIds());
            assertEquals(List.of(entry.jobId()), fake.jobIds());
            assertEquals(4, rig.accounts.remoteCalls(), "pool, job, tasks, file: " + fake.counts());
            assertEquals(fake.requests().size(), rig.accounts.remoteCalls(), "every request counted");
        }
    }

    @Test
    void theSameKeyTwiceIsOneTaskOneJobOnePool() {
        Plan plan = SubmitRig.plan("twice", "true");
        try (SubmitRig rig = new SubmitRig(fake, state)) {
            List<SubmitOutcome> outcomes = rig.submitter.submitAll(List.of(new Submission(plan,
                    SubmitOptions.withKey("k1")), new Submission(plan, SubmitOptions.withKey("k1"))));
            assertEquals(outcomes.get(0), outcomes.get(1));
            rig.submitter.submit(plan, SubmitOptions.withKey("k1"));
        }
        try (SubmitRig again = new SubmitRig(fake, state)) {
            TaskEntry known = again.submitter.submit(plan, SubmitOptions.withKey("k1"));
            assertEquals(TaskEntry.Phase.ADDED, known.phase(), "read back from the state directory");
        }
        assertEquals(1, fake.count("Pool_Add"), fake.counts().toString());
        assertEquals(1, fake.count("Job_Add"), fake.counts().toString());
        assertEquals(1, fake.count("Task_AddCollection"), fake.counts().toString());
    }

    @Test
    void aProcessWithoutRecordsAdoptsThePoolJobAndTaskItMeets(@TempDir Path otherState) {
        Plan plan = SubmitRig.plan("adopt", "true");
        try (SubmitRig first = new SubmitRig(fake, state); SubmitRig second = new SubmitRig(fake, otherState)) {
            TaskEntry one = first.submitter.submit(plan, SubmitOptions.withKey("adopt-1"));
            TaskEntry two = second.submitter.submit(plan, SubmitOptions.withKey("adopt-1"));
            assertEquals(one.ref(), two.ref());
        }
        assertEquals(1, fake.poolIds().size());
        assertEquals(1, fake.jobIds().size());
        assertEquals(2, fake.count("Pool_Add"), "the second met PoolExists and adopted the pool");
        assertTrue(fake.task(fake.jobIds().get(0), "adopt-1").isPresent());
    }

    @Test
    void appliedRepliesLostOnPoolJobAndTaskAddLeaveExactlyOneOfEach() {
        fake.faults().dropAfterApply("Pool_Add", 1);
        fake.faults().dropAfterApply("Job_Add", 1);
        fake.faults().dropAfterApply("Task_AddCollection", 1);
        try (SubmitRig rig = new SubmitRig(fake, state)) {
            TaskEntry entry = rig.submitter.submit(SubmitRig.plan("lost", "true"), SubmitOptions.withKey("lost-1"));
            assertEquals(TaskEntry.Phase.ADDED, entry.phase());
        }
        assertEquals(2, fake.count("Pool_Add"), fake.counts().toString());
        assertEquals(2, fake.count("Job_Add"), fake.counts().toString());
        assertEquals(2, fake.count("Task_AddCollection"), fake.counts().toString());
        assertEquals(1, fake.poolIds().size());
        assertEquals(1, fake.jobIds().size());
        assertTrue(fake.task(fake.jobIds().get(0), "lost-1").isPresent());
    }

    @Test
    void throttlingAndBusyAnswersAreWaitedOutAsTold() {
        fake.faults().throttle("Pool_Add", 1, Duration.ofSeconds(7), Faults.RetryAfterForm.SECONDS);
        fake.faults().throttle("Job_Add", 1, Duration.ofSeconds(5), Faults.RetryAfterForm.HTTP_DATE);
        fake.faults().serverBusy("Task_AddCollection", 2);
        try (SubmitRig rig = new SubmitRig(fake, state)) {
            rig.submitter.submit(SubmitRig.plan("busy", "true"), SubmitOptions.withKey("busy-1"));
            assertEquals(4, rig.waits.size(), rig.waits.toString());
            assertEquals(Duration.ofSeconds(7), rig.waits.get(0), "Retry-After in seconds, as told");
            Duration date = rig.waits.get(1);
            assertTrue(date.compareTo(Duration.ofSeconds(3)) >= 0 && date.compareTo(Duration.ofSeconds(5)) <= 0,
                    "Retry-After as an HTTP date (second precision): " + date);
            assertEquals(List.of(Duration.ofMillis(100), Duration.ofMillis(200)), rig.waits.subList(2, 4),
                    "no Retry-After: the backoff, doubled");
        }
        assertEquals(3, fake.count("Task_AddCollection"));
        assertEquals(1, fake.jobIds().size());
    }

    @Test
    void aQuotaReachedIsWaitedForThenQuotaExceeded() {
        BatchFake full = new BatchFake(new BatchFakeOptions().account(SubmitRig.REGION).auth(true, false)
                .activeJobQuota(0));
        try (full; SubmitRig rig = new SubmitRig(full, state, TaskChunks::chunk, 3, Optional.empty())) {
            SubmitOutcome outcome = rig.submitter.submitAll(List.of(new Submission(SubmitRig.plan("quota", "true"),
                    SubmitOptions.withKey("quota-1")))).get(0);
            SubmitOutcome.Failed failed = assertInstanceOf(SubmitOutcome.Failed.class, outcome);
            assertEquals(ErrorCode.QUOTA_EXCEEDED, failed.error().code());
            assertTrue(failed.error().getMessage().contains("ActiveJobAndScheduleQuotaReached"),
                    failed.error().getMessage());
            assertEquals(List.of(Duration.ofSeconds(20), Duration.ofSeconds(20)), rig.waits, "three tries, bounded");
            assertEquals(3, full.count("Job_Add"));
            assertEquals(0, full.count("Task_AddCollection"));
        }
    }

    @Test
    void aWrongKeyIsAuthFailedWithTheFix() {
        try (SubmitRig rig = new SubmitRig(fake, state)) {
            rig.secretValues.put(SubmitRig.KEY_REF.toString(), java.util.Base64.getEncoder()
                    .encodeToString(new byte[64]));
            SubmitOutcome.Failed failed = assertInstanceOf(SubmitOutcome.Failed.class, rig.submitter.submitAll(
                    List.of(new Submission(SubmitRig.plan("auth", "true"), SubmitOptions.withKey("auth-1")))).get(0));
            assertEquals(ErrorCode.AUTH_FAILED, failed.error().code());
            assertTrue(failed.error().getMessage().contains("AuthenticationFailed")
                    && failed.error().getMessage().contains("accounts[*].key"), failed.error().getMessage());
        }
    }

    @Test
    void aTaskWithDependenciesBatchCannotCarryIsHeldNotSent() {
        JobDependency anyEnd = JobDependency.afterAny(new JobRef("batch", SubmitRig.REGION + ".other-job.first"));
        try (SubmitRig rig = new SubmitRig(fake, state)) {
            TaskEntry held = rig.submitter.submit(SubmitRig.plan("later", "true"),
                    SubmitOptions.withKey("later-1").dependingOn(anyEnd));
            assertEquals(TaskEntry.Phase.HELD, held.phase());
            assertEquals(List.of(anyEnd), held.held());
            TaskAddParameter body = WireJson.read(held.heldTask().orElseThrow(), TaskAddParameter.class);
            assertEquals("later-1", body.id());
            assertEquals(null, body.dependsOn(), "added once Gantry has seen its dependencies end");
            assertEquals(Optional.of(held), TaskEntries.in(state).byKey("later-1"));
        }
        assertEquals(0, fake.count("Task_AddCollection"), "held, not sent");
        assertEquals(1, fake.count("Job_Add"), "its pool and job are ready for it");
    }
    @Test
    void aPoolOfTheSameIdNotMadeForThePlanIsRefusedNamingIt() {
        Plan plan = SubmitRig.plan("foreign", "true");
        try (SubmitRig rig = new SubmitRig(fake, state)) {
            String poolId = rig.pools.target(plan).poolId();
            rig.accounts.connection(rig.settings.accounts().get(0)).protocol().pools().add(new PoolAddParameter()
                    .withId(poolId).withVmSize("standard_d2s_v5").withVirtualMachineConfiguration(
                            new VirtualMachineConfiguration().withNodeAgentSKUId("batch.node.ubuntu 22.04")
                                    .withImageReference(new ImageReference().withPublisher("canonical")
                                            .withOffer("0001-com-ubuntu-server-jammy").withSku("22_04-lts"))));
            SubmitOutcome.Failed failed = assertInstanceOf(SubmitOutcome.Failed.class, rig.submitter.submitAll(
                    List.of(new Submission(plan, SubmitOptions.withKey("foreign-1")))).get(0));
            assertEquals(ErrorCode.USAGE, failed.error().code());
            assertTrue(failed.error().getMessage().contains("already has a pool " + poolId + ", not made by Gantry")
                    && failed.error().getMessage().contains("poolPrefix"), failed.error().getMessage());
        }
        assertEquals(0, fake.count("Job_Add"));
    }
    @Test
    void aPoolBeingDeletedIsWaitedOutThenMadeAgain(@TempDir Path laterState) {
        Plan plan = SubmitRig.plan("again", "true");
        try (SubmitRig first = new SubmitRig(fake, state)) {
            TaskEntry entry = first.submitter.submit(plan, SubmitOptions.withKey("again-1"));
            first.accounts.connection(first.settings.accounts().get(0)).protocol().jobs().delete(entry.jobId());
            first.accounts.connection(first.settings.accounts().get(0)).protocol().pools().delete(entry.poolId());
        }
        try (SubmitRig later = new SubmitRig(fake, laterState)) {
            TaskEntry entry = later.submitter.submit(plan, SubmitOptions.withKey("again-2"));
            assertEquals(TaskEntry.Phase.ADDED, entry.phase());
        }
        assertTrue(fake.count("Pool_Add") >= 3, "refused while being deleted, then added: " + fake.counts());
        assertEquals(1, fake.poolIds().size());
        assertTrue(fake.task(fake.jobIds().get(0), "again-2").isPresent());
    }

    @Test
    void aJobRemovedSinceItWasMadeSureOfIsMadeAgain() {
        Plan plan = SubmitRig.plan("gone", "true");
        try (SubmitRig rig = new SubmitRig(fake, state)) {
            TaskEntry first = rig.submitter.submit(plan, SubmitOptions.withKey("gone-1"));
            rig.accounts.connection(rig.settings.accounts().get(0)).protocol().jobs().delete(first.jobId());
            Instant deadline = Instant.now().plusSeconds(10);
            while (fake.jobIds().contains(first.jobId()) && Instant.now().isBefore(deadline)) {
                fake.tickNow();
            }
            TaskEntry second = rig.submitter.submit(plan, SubmitOptions.withKey("gone-2"));
            assertEquals(TaskEntry.Phase.ADDED, second.phase());
            assertTrue(fake.task(second.jobId(), "gone-2").isPresent());
        }
        assertEquals(2, fake.count("Job_Add"), fake.counts().toString());
    }
    @Test
    void throttlingBeyondTheBoundFailsInBatchsWordsWithoutATrace() {
        fake.faults().throttle("Task_AddCollection", 4, Duration.ofSeconds(1), Faults.RetryAfterForm.SECONDS);
        try (SubmitRig rig = new SubmitRig(fake, state)) {
            SubmitOutcome.Failed failed = assertInstanceOf(SubmitOutcome.Failed.class, rig.submitter.submitAll(
                    List.of(new Submission(SubmitRig.plan("late", "true"), SubmitOptions.withKey("late-1")))).get(0));
            assertEquals(ErrorCode.REMOTE_ERROR, failed.error().code());
            assertTrue(failed.error().getMessage().startsWith("Azure Batch still answered 429 TooManyRequests")
                    && failed.error().getMessage().contains("after 4 attempts")
                    && failed.error().getMessage().contains("request-id"), failed.error().getMessage());
            assertTrue(!failed.error().getMessage().contains("Exception"), failed.error().getMessage());
            assertEquals(TaskEntry.Phase.FAILED, rig.entries.byKey("late-1").orElseThrow().phase());
        }
        assertEquals(4, fake.count("Task_AddCollection"));
    }

    @Test
    void aReplySlowerThanTheTimeoutAfterBatchAppliedIsSentAgainAndAdopted() {
        fake.faults().slowAfterApply("Task_AddCollection", 1, Duration.ofSeconds(3));
        try (SubmitRig rig = new SubmitRig(fake, state, TaskChunks::chunk, 3, Optional.empty(),
                Duration.ofMillis(500))) {
            TaskEntry entry = rig.submitter.submit(SubmitRig.plan("slow", "true"), SubmitOptions.withKey("slow-1"));
            assertEquals(TaskEntry.Phase.ADDED, entry.phase());
            assertEquals(List.of(Duration.ofMillis(100)), rig.waits, "the timeout retried after the backoff");
        }
        assertEquals(2, fake.count("Task_AddCollection"));
        assertTrue(fake.task(fake.jobIds().get(0), "slow-1").isPresent());
    }
}
