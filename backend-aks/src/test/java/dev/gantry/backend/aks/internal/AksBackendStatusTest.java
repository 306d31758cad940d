package dev.gantry.backend.aks.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AksBackendStatusTest {
    @TempDir
    Path home;
    @TempDir
    Path state;
    private MockCluster cluster;

    @BeforeEach
    void start() throws IOException {
        cluster = new MockCluster(home);
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    /** The status once the watch delivered what the controller did, within 5 s. */
    static JobStatus await(Backend backend, JobRef ref, Predicate<JobStatus> wanted) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        JobStatus status = backend.status(ref);
        while (!wanted.test(status) && System.nanoTime() < deadline) {
            Thread.sleep(50);
            status = backend.status(ref);
        }
        return status;
    }

    @Test
    void theStatusesOfTwoHundredJobsComeFromTheCacheWithNoRequestOnAWarmPoll() {
        List<Submission> submissions = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            submissions.add(new Submission(MockCluster.plan("many", 1), SubmitOptions.withKey("many-" + i)));
        }
        try (Backend backend = cluster.backend(state)) {
            List<JobRef> refs = backend.submitAll(submissions);
            long beforeFirst = backend.remoteCalls().getAsLong();
            Map<JobRef, JobStatus> first = backend.statuses(refs);
            long firstCost = backend.remoteCalls().getAsLong() - beforeFirst;
            assertEquals(200, first.size());
            assertTrue(first.values().stream().allMatch(s -> s.state() == JobState.PENDING), first.toString());
            assertEquals(4, firstCost, "a LIST and a watch per kind");

            long beforeWarm = backend.remoteCalls().getAsLong();
            Map<JobRef, JobStatus> warm = backend.statuses(refs);
            assertEquals(0, backend.remoteCalls().getAsLong() - beforeWarm, "no request on a warm poll");
            assertEquals(first, warm);
        }
    }

    @Test
    void aJobTheTtlDeletedStillAnswersFromTheStateDirectory() throws InterruptedException {
        JobRef ref;
        try (Backend backend = cluster.backend(state)) {
            ref = backend.submit(MockCluster.plan("done", 1), SubmitOptions.withKey("done-1"));
            cluster.pod(ref.id(), 0, "Succeeded");
            cluster.condition(ref.id(), "Complete");
            JobStatus done = await(backend, ref, s -> s.state().isTerminal());
            assertEquals(JobState.SUCCEEDED, done.state());
            assertEquals(0, done.exitCode().getAsInt());
        }
        cluster.controller.batch().v1().jobs().withName(ref.id()).delete();
        cluster.controller.pods().withLabel("gantry.dev/job", ref.id()).delete();
        try (Backend later = cluster.backend(state)) {
            JobStatus status = later.status(ref);
            assertEquals(JobState.SUCCEEDED, status.state());
            assertEquals(0, later.remoteCalls().getAsLong(), "answered by the records alone");
            assertEquals(ref, later.submit(MockCluster.plan("done", 1), SubmitOptions.withKey("done-1")),
                    "a retried submit of an ended job returns it");
            assertEquals(0, later.remoteCalls().getAsLong(), "and creates nothing");
        }
    }

    @Test
    void aTrackedJobIsUnknownNotStaleWhileTheApiServerIsGone() throws InterruptedException {
        try (Backend backend = cluster.backend(state)) {
            JobRef ref = backend.submit(MockCluster.plan("tracked", 1), SubmitOptions.withKey("tracked-1"));
            cluster.pod(ref.id(), 0, "Running");
            assertEquals(JobState.RUNNING, await(backend, ref, s -> s.state() == JobState.RUNNING).state());
            cluster.shutdown();
            JobStatus status = await(backend, ref, s -> s.state() != JobState.RUNNING);
            assertEquals(JobState.UNKNOWN, status.state(), status.toString());
            assertTrue(status.message().contains("reconnecting"), status.message());
        }
    }

    @Test
    void anUnknownJobIsNotFoundNamingTheIdAndTheNamespace() {
        try (Backend backend = cluster.backend(state)) {
            JobRef ref = new JobRef("aks", "nobody-1");
            GantryException e = assertThrows(GantryException.class, () -> backend.status(ref));
            assertEquals(ErrorCode.JOB_NOT_FOUND, e.code());
            assertTrue(e.getMessage().contains("nobody-1") && e.getMessage().contains(MockCluster.NAMESPACE),
                    e.getMessage());
            assertEquals(JobState.UNKNOWN, backend.statuses(List.of(ref)).get(ref).state());
        }
    }

    @Test
    void theSecretGoesOnceTheJobEndedAndNoValueIsInTheStateDirectory() throws Exception {
        try (Backend backend = cluster.backend(state)) {
            JobRef ref = backend.submit(MockCluster.planWithSecret("secretive", 1), SubmitOptions.withKey("s-1"));
            cluster.pod(ref.id(), 0, "Succeeded");
            cluster.condition(ref.id(), "Complete");
            assertEquals(JobState.SUCCEEDED, await(backend, ref, s -> s.state().isTerminal()).state());
            assertNull(cluster.controller.secrets().withName(ref.id() + "-env").get());
            AksBackendSubmitTest.assertNoSecretIn(state);
        }
    }

    @Test
    void cancelEndsTheJobWhichIsCancelledOnceNoPodIsLeft() throws Exception {
        try (Backend backend = cluster.backend(state)) {
            JobRef ref = backend.submit(MockCluster.plan("long", 1), SubmitOptions.withKey("long-1"));
            cluster.pod(ref.id(), 0, "Running");
            assertEquals(JobState.RUNNING, await(backend, ref, s -> s.state() == JobState.RUNNING).state());
            backend.cancel(ref);
            assertNull(cluster.job(ref.id()), "the Job is deleted");
            JobStatus stopping = await(backend, ref, s -> s.message().startsWith("cancelling"));
            assertEquals(JobState.RUNNING, stopping.state(), "its pod still runs: " + stopping);
            cluster.controller.pods().withLabel("gantry.dev/job", ref.id()).delete();
            assertEquals(JobState.CANCELLED, await(backend, ref, s -> s.state().isTerminal()).state());
        }
    }

    @Test
    void cancellingAnEndedJobChangesNothing() throws InterruptedException {
        try (Backend backend = cluster.backend(state)) {
            JobRef ref = backend.submit(MockCluster.plan("quick", 1), SubmitOptions.withKey("quick-1"));
            cluster.pod(ref.id(), 0, "Succeeded");
            cluster.condition(ref.id(), "Complete");
            assertEquals(JobState.SUCCEEDED, await(backend, ref, s -> s.state().isTerminal()).state());
            long before = backend.remoteCalls().getAsLong();
            backend.cancel(ref);
            assertEquals(before, backend.remoteCalls().getAsLong(), "no request");
            assertEquals(JobState.SUCCEEDED, backend.status(ref).state());
            assertTrue(cluster.job(ref.id()) != null, "the Job is left as it is");
        }
    }

    @Test
    void aMultiNodeJobWhoseRanksWereNotAllPlacedInTimeFailsAndIsDeleted() throws InterruptedException {
        try (Backend backend = cluster.backend(state, "gangTimeout", "1m")) {
            JobRef ref = backend.submit(MockCluster.plan("gang", 2), SubmitOptions.withKey("gang-1"));
            cluster.pod(ref.id(), 0, "Running");
            Job job = cluster.job(ref.id());
            job.setStatus(new JobStatusBuilder().withStartTime(Instant.now().minus(Duration.ofMinutes(2)).toString())
                    .build());
            cluster.controller.batch().v1().jobs().resource(job).update();
            JobStatus status = await(backend, ref, s -> s.state().isTerminal());
            assertEquals(JobState.FAILED, status.state());
            assertTrue(status.message().startsWith("could not start: only 1 of 2 ranks were placed in 1m"),
                    status.message());
            assertNull(cluster.job(ref.id()), "the Job is deleted so its GPUs are free");
            assertEquals(JobState.FAILED, backend.status(ref).state(), "and stays FAILED");
        }
    }
}
