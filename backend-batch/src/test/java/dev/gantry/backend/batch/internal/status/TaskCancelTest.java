package dev.gantry.backend.batch.internal.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TaskCancelTest {
    private FakeAccount account;
    private TaskStatuses statuses;
    private TaskCancel cancel;

    private void start(int nodes) {
        account = new FakeAccount(nodes);
        statuses = new TaskStatuses(account.calls(), Clock.systemUTC(), TaskStatuses.DEFAULT_CLOCK_SKEW);
        cancel = new TaskCancel(account.calls());
    }

    @AfterEach
    void close() {
        if (account != null) {
            account.close();
        }
    }

    private void cancelAndRecord(TrackedTask task) {
        TaskCancel.Terminated terminated = assertInstanceOf(TaskCancel.Terminated.class,
                cancel.cancel(account.tracked.get(task.ref().id())));
        assertTrue(terminated.record().cancelled());
        account.tracked.put(task.ref().id(), account.tracked.get(task.ref().id()).withRecord(terminated.record()));
    }

    @Test
    void aRunningTaskIsTerminatedAndReportsCancelled() throws Exception {
        start(1);
        TrackedTask task = account.submit("long", List.of(), "sleep", "60");
        account.pollUntil(statuses, task, s -> s.state() == JobState.RUNNING);
        cancelAndRecord(task);
        JobStatus status = account.pollUntil(statuses, task, s -> s.state().isTerminal()).statuses()
                .get(task.ref().id());
        assertEquals(JobState.CANCELLED, status.state(), status.message());
        assertEquals("TaskEnded", account.fake.task(account.jobId, task.ref().taskId()).orElseThrow()
                .path("executionInfo").path("failureInfo").path("code").asText());
    }

    @Test
    void aPendingTaskIsTerminatedBeforeItRuns() throws Exception {
        start(0);
        TrackedTask task = account.submit("waiting", List.of(), "true");
        cancelAndRecord(task);
        assertEquals(JobState.CANCELLED, account.pollUntil(statuses, task, s -> s.state().isTerminal()).statuses()
                .get(task.ref().id()).state());
    }

    @Test
    void anEndedTaskIsLeftAsItEnded() throws Exception {
        start(1);
        TrackedTask task = account.submit("quick", List.of(), "true");
        account.pollUntil(statuses, task, s -> s.state().isTerminal());
        TrackedTask unrecorded = account.tracked.get(task.ref().id());
        TrackedTask notYetRecorded = new TrackedTask(unrecorded.ref(), unrecorded.poolId(), unrecorded.submittedAt(),
                1, unrecorded.record(), List.of(), java.util.Optional.empty(), java.util.Optional.empty());
        account.fake.clearRequests();
        assertInstanceOf(TaskCancel.AlreadyEnded.class, cancel.cancel(notYetRecorded), "409 TaskCompleted");
        assertEquals(1, account.fake.count("Task_Terminate"));
        assertInstanceOf(TaskCancel.AlreadyEnded.class, cancel.cancel(unrecorded), "recorded ended: no call");
        assertEquals(1, account.fake.count("Task_Terminate"));
        assertEquals(JobState.SUCCEEDED, statuses.statuses(List.of(task.ref().id()), account.records()).statuses()
                .get(task.ref().id()).state());
    }

    @Test
    void aHeldTaskEndsLocallyWithoutACall() {
        start(0);
        TrackedTask dependency = account.submit("first", List.of(), "true");
        TrackedTask held = account.submit("cleanup", List.of(JobDependency.afterAny(new JobRef("batch",
                dependency.ref().id()))), "true");
        account.fake.clearRequests();
        TaskCancel.EndedLocally ended = assertInstanceOf(TaskCancel.EndedLocally.class, cancel.cancel(held));
        assertEquals(JobState.CANCELLED, ended.status().state());
        assertEquals(0, account.fake.requests().size());
    }
}
