package dev.gantry.backend.batch.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
import dev.gantry.api.backend.IdleResource;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.batch.fake.BatchFake;
import dev.gantry.backend.batch.fake.BatchFakeOptions;
import dev.gantry.backend.batch.fake.Faults;
import dev.gantry.backend.batch.internal.logs.Following;
import dev.gantry.backend.batch.internal.remote.Accounts;
import dev.gantry.backend.batch.internal.remote.BatchCalls;
import dev.gantry.backend.batch.internal.render.ContainerRunOptions;
import dev.gantry.backend.batch.internal.rest.BatchConnection;
import dev.gantry.backend.batch.internal.submit.SubmitParts;
import dev.gantry.http.Jitter;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The faults, against the backend as assembled (the Backend SPI over the in-process fake), where the
 * component tests do not already hold them. Held elsewhere, and not repeated here: "applied, reply lost" on pool, job
 * and task-collection add, 429 in both Retry-After forms and 503 on the submit path, and quota errors ending as
 * QUOTA_EXCEEDED after the bound (SubmitPathTest); a stale resize error in a status poll, a failed dependency
 * cancelling its native dependent (terminated in the fake) and its held one, and a two-node task whose rank 1 fails
 * with a hand-written coordination command (TaskStatusesTest); preemption while following logs, at the component
 * (TaskLogsTest: here through the backend, whose status must count the requeue the follow read across).
 *
 * <p>The retry policy records the waits it is told or computes and sleeps none of them, so a {@code Retry-After} of
 * seconds costs nothing here, and its waits are compared exactly.
 */
class BatchFaultTest {
    private static final SecretRef KEY = SecretRef.parse("env:BATCH_KEY");
    /** An existing pool of Spot nodes, for the preemption case. */
    private static final String SPOT_POOL = "spot-pool";

    private final BatchFake fake = new BatchFake(new BatchFakeOptions().account(FakeAccounts.REGION)
            .autoscaleInterval(Duration.ofMillis(100)));
    private final TckContext context = TckContext.create().putSecret(KEY, fake.accountKey());
    private final List<Duration> waits = new CopyOnWriteArrayList<>();
    private final BatchBackend backend = backend(Duration.ofHours(1));

    @AfterEach
    void close() {
        backend.close();
        fake.close();
        context.close();
    }

    private BatchBackend backend(Duration idlePoolTimeout) {
        return backend(idlePoolTimeout, List.of());
    }

    private BatchBackend backend(Duration idlePoolTimeout, List<ExistingPool> existing) {
        BatchSettings settings = new BatchSettings(List.of(new BatchAccountSettings(URI.create(fake.url()),
                FakeAccounts.REGION, BatchAuth.SHARED_KEY, Optional.of(KEY), Optional.empty())), "gantry-",
                existing, 4, Optional.empty(), Optional.empty(), idlePoolTimeout, Duration.ofDays(7));
        BatchCalls calls = new BatchCalls(new BatchCalls.Policy(4, Duration.ofMillis(100), Duration.ofSeconds(30), 3,
                Duration.ofSeconds(20), Jitter.NONE, waits::add));
        SubmitParts parts = SubmitParts.of(settings, context, ContainerRunOptions::of,
                Accounts.of(settings, context.secrets()), () -> {
                    throw new AssertionError("no pool identity here");
                }, () -> {
                    throw new AssertionError("no secrets here");
                }, calls);
        return new BatchBackend(settings, context, parts, new AzureReach(account -> Optional.empty(),
                Optional::empty, account -> region -> {
                    throw new AssertionError("no resourceId here");
                }), Duration.ofMillis(100));
    }

    private static Plan plan(int nodes, String... command) {
        Workload workload = Workload.builder("faults").phase(Phase.TRAINING).model(ModelClass.SMALL)
                .resources(Resources.builder().vcpus(1).nodes(nodes)).command(command).build();
        return Plan.builder(workload, BackendFixture.smallCpuSize()).region(FakeAccounts.REGION)
                .image(dev.gantry.api.ImageRef.marketplace("Ubuntu Server 22.04",
                        "canonical:0001-com-ubuntu-server-jammy:22_04-lts:latest"))
                .boot(new NodeBoot(Optional.empty(), Optional.of("batch.node.ubuntu 22.04"))).build();
    }

    /** Polls the job's status every 100 ms until {@code until} holds, checking {@code each} on every status seen. */
    private JobStatus await(JobRef job, Predicate<JobStatus> until, Predicate<JobStatus> each) throws Exception {
        Instant deadline = Instant.now().plusSeconds(60);
        List<String> seen = new ArrayList<>();
        while (Instant.now().isBefore(deadline)) {
            JobStatus status = backend.status(job);
            seen.add(status.state() + ": " + status.message());
            assertTrue(each.test(status), "an unexpected status: " + seen.get(seen.size() - 1));
            if (until.test(status)) {
                return status;
            }
            Thread.sleep(100);
        }
        throw new AssertionError(job + ": the status never came; last seen " + seen.subList(Math.max(0,
                seen.size() - 5), seen.size()));
    }

    private JobStatus awaitEnd(JobRef job) throws Exception {
        return await(job, status -> status.state().isTerminal(), status -> true);
    }

    @Test
    void aCancelWhoseTerminateWasAppliedButItsReplyLostIsCancelled() throws Exception {
        JobRef job = backend.submit(plan(1, "sleep", "60"), SubmitOptions.withKey("lost-terminate"));
        await(job, status -> status.state() == JobState.RUNNING, status -> true);
        fake.faults().dropAfterApply("Task_Terminate", 1);

        backend.cancel(job);

        JobStatus ended = awaitEnd(job);
        assertEquals(JobState.CANCELLED, ended.state(), "the second terminate met TaskCompleted, its own doing: "
                + ended.message());
        assertEquals(2, fake.count("Task_Terminate"), fake.counts().toString());
    }

    @Test
    void aHeldTaskWhoseAddWasAppliedButItsReplyLostIsOneTaskAdopted() throws Exception {
        JobRef first = backend.submit(plan(1, "true"), SubmitOptions.withKey("first"));
        JobRef held = backend.submit(plan(1, "true"), SubmitOptions.withKey("held")
                .dependingOn(JobDependency.afterAny(first)));
        fake.faults().dropAfterApply("Task_Add", 1);

        assertEquals(JobState.SUCCEEDED, awaitEnd(first).state());
        assertEquals(JobState.SUCCEEDED, awaitEnd(held).state(), "added by a poll, once");

        assertEquals(2, fake.count("Task_Add"), "sent again after the lost reply: " + fake.counts());
        String jobId = fake.jobIds().get(0);
        assertTrue(fake.task(jobId, "held").isPresent());
        assertEquals(1, fake.jobIds().size());
        assertEquals(1, fake.poolIds().size());
    }

    @Test
    void throttlingAndBusyAnswersOfStatusLogsAndGcAreWaitedOutAsTold() throws Exception {
        JobRef job = backend.submit(plan(1, "sh", "-c", "echo started; sleep 60"), SubmitOptions.withKey("busy"));
        await(job, status -> status.state() == JobState.RUNNING, status -> true);
        waits.clear();

        fake.faults().throttle("Task_List", 1, Duration.ofSeconds(7), Faults.RetryAfterForm.SECONDS);
        assertEquals(JobState.RUNNING, backend.status(job).state());
        fake.faults().throttle("File_GetFromTask", 1, Duration.ofSeconds(5), Faults.RetryAfterForm.HTTP_DATE);
        List<LogLine> lines = new CopyOnWriteArrayList<>();
        Instant deadline = Instant.now().plusSeconds(30);
        while (lines.isEmpty() && Instant.now().isBefore(deadline)) {
            backend.logs(job, new LogOptions(false, OptionalInt.empty(), true, false), lines::add);
        }
        fake.faults().serverBusy("Pool_List", 2);
        List<IdleResource> idle = backend.idleResources();

        assertEquals(List.of("started"), lines.stream().map(LogLine::text).toList(), "no line came twice");
        assertEquals(List.of(), idle, "its pool is busy");
        assertEquals(4, waits.size(), waits.toString());
        assertEquals(Duration.ofSeconds(7), waits.get(0), "Retry-After in seconds, as told");
        assertTrue(waits.get(1).compareTo(Duration.ofSeconds(3)) >= 0
                && waits.get(1).compareTo(Duration.ofSeconds(5)) <= 0, "Retry-After as an HTTP date: " + waits);
        assertEquals(List.of(Duration.ofMillis(100), Duration.ofMillis(200)), waits.subList(2, 4),
                "503 without Retry-After: the backoff, doubled");
        assertEquals(3, fake.count("Pool_List"), fake.counts().toString());

        fake.faults().serverError("File_GetFromTask", 9);
        GantryException e = assertThrows(GantryException.class, () -> backend.logs(job, LogOptions.all(),
                line -> { }));
        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertTrue(e.getMessage().contains("500 InternalError") && e.getMessage().contains("after 4 attempts")
                && e.getMessage().contains("reading stdout.txt of task busy") && e.getMessage().contains("request-id")
                && !e.getMessage().contains("Exception"), "past the bound, in Batch's words: " + e.getMessage());
        backend.cancel(job);
    }

    @Test
    void aStaleResizeErrorOnItsPoolBlocksNoSubmit() throws Exception {
        JobRef first = backend.submit(plan(1, "true"), SubmitOptions.withKey("first"));
        assertEquals(JobState.SUCCEEDED, awaitEnd(first).state());
        fake.resizeError(fake.poolIds().get(0), "AccountCoreQuotaReached", "stale: the quota was raised since", false);

        JobRef second = backend.submit(plan(1, "true"), SubmitOptions.withKey("second"));

        assertEquals(JobState.SUCCEEDED, awaitEnd(second).state());
        assertEquals(1, fake.poolIds().size(), "the same pool, neither failed nor replaced");
    }

    @Test
    void aRequeueWhileFollowingLogsDeliversTheNewRunAndIsCountedAsAnEviction(@TempDir Path marks)
            throws Exception {
        // Batch preempts only Spot nodes: the task runs on an existing pool of low-priority nodes.
        try (BatchConnection connection = FakeAccounts.sharedKey(fake)) {
            FakeAccounts.addPool(connection.protocol(), SPOT_POOL, false, true);
        }
        try (BatchBackend onSpot = backend(Duration.ofHours(1),
                List.of(new ExistingPool(BackendFixture.smallCpuSize().name(), SPOT_POOL)))) {
            // The first run waits until it is preempted; the run after the requeue ends at once.
            Path ranBefore = marks.resolve("ran-before");
            JobRef job = onSpot.submit(plan(1, "sh", "-c", "echo \"run on $AZ_BATCH_NODE_ID\"; if [ ! -e "
                    + ranBefore + " ]; then touch " + ranBefore + "; sleep 600; fi; echo done"),
                    SubmitOptions.withKey("preempted"));
            Following follow = Following.started(sink -> onSpot.logs(job, LogOptions.following(), sink));
            String first = fake.preemptNodeOf(fake.jobIds().get(0), "preempted");

            List<String> out = follow.ended(LogLine.Stream.STDOUT);
            assertEquals(3, out.size(), "each run's output once: " + out);
            assertEquals("run on " + first, out.get(0));
            assertTrue(out.get(1).startsWith("run on ") && !out.get(1).equals(out.get(0)), out.toString());
            assertEquals("done", out.get(2), out.toString());
            JobStatus ended = onSpot.status(job);
            assertEquals(JobState.SUCCEEDED, ended.state(), ended.message());
            assertEquals(1, ended.evictions(), "the requeue the follow read across: " + ended);
            assertTrue(ended.lastEviction().orElseThrow().reason().contains(first), ended.toString());
        }
    }

    @Test
    void aTwoNodeJobWhoseRankOneExitsThreeIsFailedNamingRankOne() throws Exception {
        JobRef job = backend.submit(plan(2, "sh", "-c", "[ \"$GANTRY_NODE_RANK\" = 1 ] && exit 3; exit 0"),
                SubmitOptions.withKey("rank-one-fails"));

        JobStatus ended = awaitEnd(job);

        assertEquals(JobState.FAILED, ended.state(), ended.message());
        assertTrue(ended.message().contains("rank 1"), ended.message());
        assertEquals(3, ended.exitCode().orElseThrow(), ended.toString());
    }

    @Test
    void aTwoNodeJobWhoseRankOneOutlivesRankZeroIsNotSucceededBeforeRankOneEnds(@TempDir Path marks)
            throws Exception {
        // Rank 0 ends at once; rank 1 an instant after the test has seen rank 0 end. Each leaves a mark when done.
        Path rank0 = marks.resolve("rank-0.done");
        Path rank1 = marks.resolve("rank-1.done");
        Path release = marks.resolve("release-rank-1");
        JobRef job = backend.submit(plan(2, "sh", "-c", "if [ \"$GANTRY_NODE_RANK\" = 1 ]; then "
                + "while [ ! -e " + release + " ]; do sleep 0.1; done; touch " + rank1 + "; else touch " + rank0
                + "; fi"), SubmitOptions.withKey("rank-one-outlives"));

        await(job, status -> Files.exists(rank0), status -> !status.state().isTerminal());
        for (int poll = 0; poll < 10; poll++) {
            JobStatus status = backend.status(job);
            assertTrue(!status.state().isTerminal(), "rank 0 ended, rank 1 still runs: " + status);
            Thread.sleep(100);
        }
        Files.writeString(release, "");
        JobStatus ended = await(job, status -> status.state().isTerminal(),
                status -> status.state() != JobState.SUCCEEDED || Files.exists(rank1));

        assertEquals(JobState.SUCCEEDED, ended.state(), ended.message());
        assertNotEquals(Optional.empty(), ended.endedAt());
    }
}
