package dev.gantry.core.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.core.FakeBackend;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobServiceTest {
    @TempDir
    Path state;

    private final FakeBackend backend = new FakeBackend();
    private final Clock clock = Clock.fixed(Instant.parse("2026-11-29T12:00:00Z"), ZoneOffset.UTC);

    private JobService service(JobStore store) {
        return new JobService(store, name -> backend, clock);
    }

    static Plan plan(String name) {
        Workload workload = Workload.builder(name).phase(Phase.TRAINING).model(ModelClass.SMALL)
                .command("echo", "hi").build();
        VmSize size = new VmSize("Standard_F2s_v2", "F", 2, 4, Optional.empty(), false,
                dev.gantry.api.Architecture.X64, Set.of("V1", "V2"));
        return Plan.builder(workload, size).region("eastus").build();
    }

    @Test
    void aMergedLogIsNotSplitIntoStreamsItDoesNotHave() throws Exception {
        JobService jobs = service(new FileJobStore(state));
        jobs.submit(plan("train"), "fake", "train-1", Optional.of("train.yaml"));
        backend.capabilities = backend.capabilities.toBuilder().mergedLogs(true).build();
        GantryException e = assertThrows(GantryException.class, () -> jobs.logs("train-1",
                new LogOptions(false, OptionalInt.empty(), false, true), line -> { }));
        assertEquals(ErrorCode.USAGE, e.code());
        assertEquals("backend 'fake' keeps one log per job with standard output and standard error merged, so "
                + "standard error cannot be shown alone; ask for both streams (or stdout), which are the same merged "
                + "log", e.getMessage());
        List<LogLine> lines = new ArrayList<>();
        jobs.logs("train-1", LogOptions.all(), lines::add);
        assertEquals(List.of(new LogLine(LogLine.Stream.STDOUT, 0, "hello from native-train-1")), lines);
    }

    @Test
    void jobIdsNameTheWorkloadAndTheTime() {
        String id = service(new FileJobStore(state)).newJobId("train");
        assertTrue(id.matches("train-20261129-120000-[0-9a-f]{6}"), id);
    }

    @Test
    void submitPersistsTheRecordWithTheBackendReference() {
        JobService jobs = service(new FileJobStore(state));
        JobRecord record = jobs.submit(plan("train"), "fake", "train-1", Optional.of("train.yaml"));
        assertEquals(JobRecord.Stage.SUBMITTED, record.stage());
        assertEquals("native-train-1", record.ref().orElseThrow().id());
        JobRecord stored = new FileJobStore(state).find("train-1").orElseThrow();
        assertEquals(record, stored);
        assertEquals("1 x Standard_F2s_v2 in eastus (on-demand)", stored.placement());
    }

    @Test
    void aSubmitRetriedAfterALostReplyCreatesNoSecondJob() {
        JobService jobs = service(new FileJobStore(state));
        backend.loseNextReply = true;
        assertThrows(GantryException.class, () -> jobs.submit(plan("train"), "fake", "train-1", Optional.empty()));
        // The record was saved before the call: a later process finds it half-submitted ...
        assertEquals(JobRecord.Stage.SUBMITTING, new FileJobStore(state).find("train-1").orElseThrow().stage());
        // ... and finishing the submission with the same key reattaches to the job the backend already has.
        JobRecord record = service(new FileJobStore(state)).submit(plan("train"), "fake", "train-1", Optional.empty());
        assertEquals(JobRecord.Stage.SUBMITTED, record.stage());
        assertEquals(1, backend.submitted.size());
        assertEquals(2, backend.submitCalls.get());
    }

    @Test
    void submittingASubmittedKeyAgainReturnsTheSameJobWithoutCallingTheBackend() {
        JobService jobs = service(new FileJobStore(state));
        JobRecord first = jobs.submit(plan("train"), "fake", "train-1", Optional.empty());
        JobRecord again = jobs.submit(plan("train"), "fake", "train-1", Optional.empty());
        assertEquals(first, again);
        assertEquals(1, backend.submitCalls.get());
    }

    @Test
    void aKeyOfAnotherWorkloadIsRefused() {
        JobService jobs = service(new FileJobStore(state));
        jobs.submit(plan("train"), "fake", "shared-key", Optional.empty());
        GantryException e = assertThrows(GantryException.class,
                () -> jobs.submit(plan("other"), "fake", "shared-key", Optional.empty()));
        assertEquals(ErrorCode.USAGE, e.code());
    }

    @Test
    void statusOfManyJobsCostsOneCallPerBackend() {
        JobService jobs = service(new FileJobStore(state));
        for (int i = 0; i < 5; i++) {
            jobs.submit(plan("train"), "fake", "train-" + i, Optional.empty());
        }
        backend.jobs.put("train-3", JobState.SUCCEEDED);
        List<JobRecord> all = jobs.jobs();
        assertEquals(1, backend.statusCalls.get());
        assertEquals(JobState.SUCCEEDED, all.get(3).state());
        assertEquals(JobState.RUNNING, all.get(0).state());
        // Ended jobs are not asked about again.
        jobs.jobs();
        assertEquals(JobState.SUCCEEDED, new FileJobStore(state).find("train-3").orElseThrow().state());
    }

    @Test
    void cancelReachesTheBackendAndRecordsTheNewState() {
        JobService jobs = service(new FileJobStore(state));
        jobs.submit(plan("train"), "fake", "train-1", Optional.empty());
        assertEquals(JobState.CANCELLED, jobs.cancel("train-1").state());
    }

    @Test
    void anUnknownJobIsNamedInTheError() {
        GantryException e = assertThrows(GantryException.class, () -> service(new FileJobStore(state)).job("ghost"));
        assertEquals(ErrorCode.JOB_NOT_FOUND, e.code());
        assertEquals("no job 'ghost'; 'gantry status' lists known jobs", e.getMessage());
    }
}
