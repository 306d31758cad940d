package dev.gantry.backend.batch.internal.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.azure.batch.protocol.models.TaskAddParameter;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.backend.batch.fake.RecordedRequest;
import dev.gantry.backend.batch.internal.render.TaskBody;
import dev.gantry.backend.batch.internal.render.TaskRef;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TaskStatusesTest {
    private FakeAccount account;
    private TaskStatuses statuses;

    private void start(int nodes) {
        start(new FakeAccount(nodes));
    }

    private void start(FakeAccount fakeAccount) {
        account = fakeAccount;
        statuses = new TaskStatuses(account.calls(), Clock.systemUTC(), TaskStatuses.DEFAULT_CLOCK_SKEW);
    }

    @AfterEach
    void close() {
        if (account != null) {
            account.close();
        }
    }

    @Test
    void twoHundredTasksOfOneJobAreOneListCallPerPoll() {
        start(0);
        List<TaskAddParameter> bodies = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            TaskBody.Ready ready = (TaskBody.Ready) TaskBody.render(new TaskBody.Input(FakeAccount.plan("true"),
                    dev.gantry.api.backend.SubmitOptions.withKey("many-" + i), account.fake.accountName(),
                    account.jobId, 29500, Duration.ofDays(7), List.of(), java.util.Optional.empty()));
            bodies.add(ready.task());
            TrackedTask task = TrackedTask.submitted(ready.ref(), account.poolId, java.time.Instant.now(), 1, "true",
                    List.of());
            account.tracked.put(task.ref().id(), task);
            ids.add(task.ref().id());
        }
        account.protocol().tasks().addCollection(account.jobId, bodies.subList(0, 100));
        account.protocol().tasks().addCollection(account.jobId, bodies.subList(100, 200));
        account.fake.clearRequests();

        for (int poll = 1; poll <= 2; poll++) {
            Poll answer = statuses.statuses(ids, account.records());
            assertEquals(200, answer.statuses().size());
            answer.statuses().values().forEach(s -> assertEquals(JobState.PENDING, s.state(), s.message()));
            assertEquals(poll, account.fake.count("Task_List"), account.fake.counts().toString());
            assertEquals(poll, account.fake.count("Pool_Get"), "one pool GET while tasks wait");
            assertEquals(0, account.fake.count("Task_Get"));
        }
        RecordedRequest list = account.fake.requests().stream().filter(r -> r.operation().equals("Task_List"))
                .findFirst().orElseThrow();
        assertEquals("1000", list.query().get("maxresults"));
        assertTrue(list.query().get("$filter").startsWith("stateTransitionTime ge datetime'"), list.query().toString());
        assertEquals(TaskStatuses.TASK_FIELDS, list.query().get("$select"));
    }

    @Test
    void endedTasksAreAnsweredFromTheRecordWithoutACall() throws Exception {
        start(1);
        TrackedTask ok = account.submit("ok", List.of(), "sh", "-c", "echo fine");
        TrackedTask bad = account.submit("bad", List.of(), "sh", "-c", "exit 3");
        account.pollUntil(statuses, ok, s -> s.state().isTerminal());
        JobStatus failed = account.pollUntil(statuses, bad, s -> s.state().isTerminal()).statuses()
                .get(bad.ref().id());
        assertEquals(JobState.FAILED, failed.state());
        assertEquals(3, failed.exitCode().orElseThrow());
        account.fake.clearRequests();

        Poll again = statuses.statuses(List.of(ok.ref().id(), bad.ref().id()), account.records());
        assertEquals(JobState.SUCCEEDED, again.statuses().get(ok.ref().id()).state());
        assertEquals(JobState.FAILED, again.statuses().get(bad.ref().id()).state());
        assertEquals(0, account.fake.requests().size(), account.fake.counts().toString());
    }

    @Test
    void anUnknownIdIsUnknownAmongManyAndNotFoundAlone() throws Exception {
        start(1);
        TrackedTask ok = account.submit("known", List.of(), "true");
        String unknown = new TaskRef(account.fake.accountName(), account.jobId, "never-submitted").id();
        Poll poll = statuses.statuses(List.of(unknown, ok.ref().id()), account.records());
        assertEquals(JobState.UNKNOWN, poll.statuses().get(unknown).state());
        assertEquals(List.of(unknown, ok.ref().id()), List.copyOf(poll.statuses().keySet()));
        GantryException e = assertThrows(GantryException.class, () -> statuses.status(unknown, account.records()));
        assertEquals(ErrorCode.JOB_NOT_FOUND, e.code());
        assertTrue(e.getMessage().contains(unknown), e.getMessage());
    }

    @Test
    void aTaskWhoseBatchJobIsGoneIsUnknownAndTheOthersAreStillAnswered() throws Exception {
        start(0);
        TrackedTask task = account.submit("orphan", List.of(), "true");
        account.protocol().jobs().delete(account.jobId);
        java.time.Instant deadline = java.time.Instant.now().plusSeconds(30);
        while (account.fake.jobIds().contains(account.jobId)) {
            assertTrue(java.time.Instant.now().isBefore(deadline), "the fake never removed the job");
            Thread.sleep(50);
        }
        JobStatus status = statuses.statuses(List.of(task.ref().id()), account.records()).statuses()
                .get(task.ref().id());
        assertEquals(JobState.UNKNOWN, status.state());
        assertTrue(status.message().contains(account.jobId) && status.message().contains("gone"), status.message());
    }

    @Test
    void resizeErrorsExplainAWaitAndAStaleOneBlocksNothing() throws Exception {
        start(0);
        account.fake.resizeError(account.poolId, "AllocationFailed", "no capacity", true);
        TrackedTask waiting = account.submit("waits", List.of(), "true");
        JobStatus pending = statuses.statuses(List.of(waiting.ref().id()), account.records()).statuses()
                .get(waiting.ref().id());
        assertEquals(JobState.PENDING, pending.state());
        assertTrue(pending.message().contains("AllocationFailed") && pending.message().contains(account.poolId),
                pending.message());
        account.close();

        start(1);
        account.fake.resizeError(account.poolId, "AccountCoreQuotaReached", "stale", false);
        TrackedTask runs = account.submit("runs", List.of(), "true");
        assertEquals(JobState.SUCCEEDED, account.pollUntil(statuses, runs, s -> s.state().isTerminal()).statuses()
                .get(runs.ref().id()).state());
    }

    @Test
    void aPreemptedSpotNodeIsOneEvictionAndTheTaskStillSucceeds() throws Exception {
        start(FakeAccount.onSpot(2));
        TrackedTask task = account.submit("spot", List.of(), "sleep", "2");
        account.pollUntil(statuses, task, s -> s.state() == JobState.RUNNING);
        assertEquals(0, preemptedNodeLists(), "no list of preempted nodes before a requeue is suspected");
        String node = account.fake.preemptNodeOf(account.jobId, task.ref().taskId());

        List<JobState> seen = new ArrayList<>();
        JobStatus ended = account.pollUntil(statuses, task, s -> {
            seen.add(s.state());
            return s.state().isTerminal();
        }).statuses().get(task.ref().id());
        assertEquals(JobState.SUCCEEDED, ended.state(), ended.message());
        assertEquals(1, ended.evictions());
        assertEquals("Batch node " + node + " preempted (Spot)", ended.lastEviction().orElseThrow().reason());
        assertTrue(seen.stream().noneMatch(s -> s == JobState.PREEMPTED || s == JobState.FAILED), seen.toString());
        assertEquals(1, account.tracked.get(task.ref().id()).record().evictions(), "the count is in the record");
        long nodeLists = preemptedNodeLists();
        assertTrue(nodeLists >= 1, "preempted nodes were listed");

        // A later process reads the same count from the record: it never falls.
        account.tracked.put(task.ref().id(), account.tracked.get(task.ref().id()).withEnded(ended));
        assertEquals(1, statuses.statuses(List.of(task.ref().id()), account.records()).statuses()
                .get(task.ref().id()).evictions());
        assertEquals(nodeLists, preemptedNodeLists());
    }

    @Test
    void manyTasksOfOneJobRequeuedAtOnceListThePoolsNodesOnce() throws Exception {
        start(FakeAccount.onSpot(2));
        TrackedTask a = account.submit("twin-a", List.of(), "sleep", "2");
        TrackedTask b = account.submit("twin-b", List.of(), "sleep", "2");
        List<String> both = List.of(a.ref().id(), b.ref().id());
        java.time.Instant deadline = java.time.Instant.now().plusSeconds(30);
        while (!statuses.statuses(both, account.records()).statuses().values().stream()
                .allMatch(s -> s.state() == JobState.RUNNING)) {
            account.persist(statuses.statuses(both, account.records()));
            assertTrue(java.time.Instant.now().isBefore(deadline));
            Thread.sleep(50);
        }
        account.persist(statuses.statuses(both, account.records()));
        account.fake.preemptNodeOf(account.jobId, a.ref().taskId());
        account.fake.preemptNodeOf(account.jobId, b.ref().taskId());
        account.fake.clearRequests();
        Poll poll = statuses.statuses(both, account.records());
        account.persist(poll);
        assertEquals(1, preemptedNodeLists(), account.fake.counts().toString());
        poll.statuses().values().forEach(s -> assertEquals(1, s.evictions(), s.toString()));
    }

    @Test
    void nodesThatFailedTheBootScriptExplainTheWaitNamingTheNodeAndItsExitCode() throws Exception {
        start(FakeAccount.withStartTask(1, "#!/bin/sh\necho 'no GPU driver' >&2\nexit 3\n"));
        TrackedTask waiting = account.submit("waits-for-a-good-node", List.of(), "true");
        java.time.Instant deadline = java.time.Instant.now().plusSeconds(30);
        JobStatus pending;
        do {
            pending = statuses.statuses(List.of(waiting.ref().id()), account.records()).statuses()
                    .get(waiting.ref().id());
            assertEquals(JobState.PENDING, pending.state(), pending.message());
            assertTrue(java.time.Instant.now().isBefore(deadline), "never explained: " + pending.message());
            Thread.sleep(50);
        } while (!pending.message().contains("start task"));
        String node = account.fake.nodeIds(account.poolId).get(0);
        assertTrue(pending.message().startsWith("waiting for a node: 1 node of pool " + account.poolId
                + " failed the start task"), pending.message());
        assertTrue(pending.message().contains("node " + node + ": exit code 3"), pending.message());
        assertTrue(pending.message().contains("/var/log/gantry/boot"), pending.message());

        account.fake.clearRequests();
        statuses.statuses(List.of(waiting.ref().id()), account.records());
        assertEquals(1, account.fake.count("Pool_Get"), account.fake.counts().toString());
        List<RecordedRequest> lists = account.fake.requests().stream()
                .filter(r -> r.operation().equals("ComputeNode_List")).toList();
        assertEquals(1, lists.size(), "one list of the pool's failed nodes a poll");
        assertEquals(TaskStatuses.START_TASK_FAILED, lists.get(0).query().get("$filter"));
    }

    @Test
    void aPoolWithoutNodesIsNotAskedForItsFailedNodes() {
        start(0);
        TrackedTask waiting = account.submit("waits", List.of(), "true");
        account.fake.clearRequests();
        JobStatus pending = statuses.statuses(List.of(waiting.ref().id()), account.records()).statuses()
                .get(waiting.ref().id());
        assertEquals("waiting for a node", pending.message());
        assertEquals(0, account.fake.count("ComputeNode_List"), account.fake.counts().toString());
    }

    /** The lists of a pool's preempted nodes (requeue detection), not of those that failed their start task. */
    private long preemptedNodeLists() {
        return account.fake.requests().stream().filter(r -> r.operation().equals("ComputeNode_List")
                && TaskStatuses.PREEMPTED.equals(r.query().get("$filter"))).count();
    }

    @Test
    void aFailedDependencyCancelsItsNativeAndItsHeldDependentsNamingIt() throws Exception {
        start(1);
        TrackedTask dependency = account.submit("dep", List.of(), "sh", "-c", "sleep 1; exit 4");
        TrackedTask fine = account.submit("fine", List.of(), "true");
        var depRef = new dev.gantry.api.backend.JobRef("batch", dependency.ref().id());
        var fineRef = new dev.gantry.api.backend.JobRef("batch", fine.ref().id());
        TrackedTask nativeDependent = account.submit("native", List.of(
                dev.gantry.api.backend.JobDependency.afterSuccess(depRef)), "true");
        TrackedTask heldDependent = account.submit("held", List.of(
                dev.gantry.api.backend.JobDependency.afterAny(fineRef),
                dev.gantry.api.backend.JobDependency.afterSuccess(depRef)), "true");
        TrackedTask cleanup = account.submit("cleanup", List.of(
                dev.gantry.api.backend.JobDependency.afterAny(depRef)), "true");
        assertTrue(heldDependent.held() && cleanup.held() && !nativeDependent.held());

        Poll first = statuses.statuses(List.of(heldDependent.ref().id(), cleanup.ref().id()), account.records());
        assertEquals(JobState.PENDING, first.statuses().get(cleanup.ref().id()).state());
        assertTrue(first.statuses().get(cleanup.ref().id()).message().contains(dependency.ref().id()));
        assertEquals(List.of(), first.decisions());

        JobStatus cancelled = account.pollUntil(statuses, nativeDependent, s -> s.state().isTerminal()).statuses()
                .get(nativeDependent.ref().id());
        assertEquals(JobState.CANCELLED, cancelled.state());
        assertTrue(cancelled.message().contains(dependency.ref().id()) && cancelled.message().contains("FAILED"),
                cancelled.message());
        assertEquals("TaskEnded", account.fake.task(account.jobId, nativeDependent.ref().taskId()).orElseThrow()
                .path("executionInfo").path("failureInfo").path("code").asText(), "terminated in Batch");
        assertTrue(account.tracked.get(nativeDependent.ref().id()).record().cancelled());

        account.pollUntil(statuses, fine, s -> s.state().isTerminal());
        Poll decided = statuses.statuses(List.of(heldDependent.ref().id(), cleanup.ref().id()), account.records());
        assertEquals(JobState.CANCELLED, decided.statuses().get(heldDependent.ref().id()).state());
        assertTrue(decided.statuses().get(heldDependent.ref().id()).message().contains(dependency.ref().id()));
        assertEquals(List.of(new HoldDecision.Cancel(heldDependent.ref(), decided.statuses()
                .get(heldDependent.ref().id()).message()), new HoldDecision.AddNow(cleanup.ref())),
                decided.decisions());
        assertNotEquals(JobState.CANCELLED, decided.statuses().get(cleanup.ref().id()).state());
    }

    @Test
    void aTwoNodeTaskWhoseRankOneFailedIsFailedNamingRankOne() throws Exception {
        start(2);
        // Each node writes its rank's files into the task's shared directory, as Gantry's coordination command does;
        // the second node's rank fails, which fails its subtask.
        String coordination = "/bin/sh -c 'if [ \"$AZ_BATCH_IS_CURRENT_NODE_MASTER\" = true ]; then "
                + "echo zero > $AZ_BATCH_TASK_SHARED_DIR/rank-0.stdout; exit 0; fi; "
                + "echo one > $AZ_BATCH_TASK_SHARED_DIR/rank-1.stdout; exit 3'";
        TrackedTask task = account.add(new TaskAddParameter().withId("pair").withCommandLine("/bin/sh -c 'exit 0'")
                .withMultiInstanceSettings(new com.microsoft.azure.batch.protocol.models.MultiInstanceSettings()
                        .withNumberOfInstances(2).withCoordinationCommandLine(coordination)), 2);
        JobStatus ended = account.pollUntil(statuses, task, s -> s.state().isTerminal()).statuses()
                .get(task.ref().id());
        assertEquals(JobState.FAILED, ended.state(), ended.message());
        assertTrue(ended.message().startsWith("rank 1 "), ended.message());
        assertEquals(3, ended.exitCode().orElseThrow());
        IntStream.of(account.fake.count("Task_ListSubtasks")).forEach(n -> assertEquals(1, n));
    }
}
