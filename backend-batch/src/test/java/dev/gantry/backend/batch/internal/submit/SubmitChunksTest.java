package dev.gantry.backend.batch.internal.submit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.azure.batch.protocol.models.MultiInstanceSettings;
import com.microsoft.azure.batch.protocol.models.TaskAddParameter;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.api.backend.Submission;
import dev.gantry.backend.batch.fake.BatchFake;
import dev.gantry.backend.batch.fake.BatchFakeOptions;
import dev.gantry.backend.batch.fake.RecordedRequest;
import dev.gantry.backend.batch.internal.records.TaskEntry;
import dev.gantry.backend.batch.internal.render.TaskChunks;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Many tasks through submitAll: chunks by count and by bytes, a 413 split, per-task results. */
class SubmitChunksTest {
    @TempDir
    Path state;

    /** No nodes: the tasks wait, so that only the submit is measured. */
    private final BatchFake fake = new BatchFake(new BatchFakeOptions().account(SubmitRig.REGION).auth(true, false)
            .autoscaleInterval(Duration.ofHours(1)));

    @AfterEach
    void close() {
        fake.close();
    }

    private static List<Submission> submissions(int count, int envBytes) {
        Plan plan = SubmitRig.plan(Workload.builder("many").phase(dev.gantry.api.Phase.TRAINING)
                .model(dev.gantry.api.ModelClass.SMALL)
                .resources(dev.gantry.api.Resources.builder().vcpus(1).memoryGib(1)).command("true")
                .env("PAYLOAD", "x".repeat(envBytes)));
        return IntStream.range(0, count).mapToObj(i -> new Submission(plan, SubmitOptions.withKey("task-" + i)))
                .toList();
    }

    private static void assertAllAdded(List<SubmitOutcome> outcomes) {
        for (SubmitOutcome outcome : outcomes) {
            SubmitOutcome.Submitted submitted = assertInstanceOf(SubmitOutcome.Submitted.class, outcome,
                    outcome.toString());
            assertEquals(TaskEntry.Phase.ADDED, submitted.entry().phase());
        }
    }

    @Test
    void twoHundredFiftyTasksAreThreeAddTaskCollectionCalls() {
        try (SubmitRig rig = new SubmitRig(fake, state)) {
            List<SubmitOutcome> outcomes = rig.submitter.submitAll(submissions(250, 1));
            assertEquals(250, outcomes.size());
            assertAllAdded(outcomes);
        }
        assertEquals(3, fake.count("Task_AddCollection"), fake.counts().toString());
        assertEquals(1, fake.count("Pool_Add"));
        assertEquals(1, fake.count("Job_Add"));
        assertEquals(250, rig250Tasks());
    }

    private int rig250Tasks() {
        String job = fake.jobIds().get(0);
        return (int) IntStream.range(0, 250).filter(i -> fake.task(job, "task-" + i).isPresent()).count();
    }

    @Test
    void largeTasksAreChunkedByBytesUnderBatchsLimit() {
        List<Submission> large = submissions(100, 30_000);
        try (SubmitRig rig = new SubmitRig(fake, state)) {
            assertAllAdded(rig.submitter.submitAll(large));
        }
        List<RecordedRequest> adds = fake.requests().stream()
                .filter(request -> request.operation().equals("Task_AddCollection")).toList();
        assertTrue(adds.size() >= 4, "100 tasks of 30 kB need at least 4 requests under 1 MB: " + adds.size());
        for (RecordedRequest add : adds) {
            int bytes = add.body().getBytes(StandardCharsets.UTF_8).length;
            assertTrue(bytes < TaskChunks.MAX_BYTES, bytes + " bytes");
        }
        assertEquals(0, fake.count("unrouted"));
    }

    @Test
    void aChunkBatchFindsTooLargeIsSplit() {
        // One request for everything: Batch answers 413 RequestBodyTooLarge, and the halves go through.
        try (SubmitRig rig = new SubmitRig(fake, state, tasks -> List.of(tasks))) {
            assertAllAdded(rig.submitter.submitAll(submissions(60, 25_000)));
        }
        assertEquals(3, fake.count("Task_AddCollection"), "one 413, then two halves: " + fake.counts());
    }

    @Test
    void aTaskBatchRefusesFailsAloneAndTheOthersGoOn() {
        // No plan renders a body Batch refuses, so one is spoiled on its way out: an instance count under 1, which
        // Batch refuses for that task alone (InvalidPropertyValue) in an add-task-collection reply.
        Function<List<TaskAddParameter>, List<List<TaskAddParameter>>> spoilSecond = tasks -> {
            tasks.get(1).withMultiInstanceSettings(new MultiInstanceSettings().withNumberOfInstances(0)
                    .withCoordinationCommandLine("true"));
            return TaskChunks.chunk(tasks);
        };
        try (SubmitRig rig = new SubmitRig(fake, state, spoilSecond)) {
            List<SubmitOutcome> outcomes = rig.submitter.submitAll(submissions(4, 1));
            assertInstanceOf(SubmitOutcome.Submitted.class, outcomes.get(0));
            SubmitOutcome.Failed failed = assertInstanceOf(SubmitOutcome.Failed.class, outcomes.get(1));
            assertEquals(ErrorCode.REMOTE_ERROR, failed.error().code());
            assertTrue(failed.error().getMessage().contains("task-1") && failed.error().getMessage()
                    .contains("InvalidPropertyValue"), failed.error().getMessage());
            assertInstanceOf(SubmitOutcome.Submitted.class, outcomes.get(2));
            assertInstanceOf(SubmitOutcome.Submitted.class, outcomes.get(3));
            TaskEntry entry = rig.entries.byKey("task-1").orElseThrow();
            assertEquals(TaskEntry.Phase.FAILED, entry.phase());
            assertEquals(Optional.of(failed.error().getMessage()), entry.failure());
        }
        assertEquals(1, fake.count("Task_AddCollection"));
    }

    @Test
    void serverErrorsOfTheWholeRequestAreSentAgain() {
        fake.faults().serverError("Task_AddCollection", 1);
        try (SubmitRig rig = new SubmitRig(fake, state)) {
            assertAllAdded(rig.submitter.submitAll(submissions(5, 1)));
            assertEquals(List.of(Duration.ofMillis(100)), rig.waits);
        }
        assertEquals(2, fake.count("Task_AddCollection"));
    }
}
