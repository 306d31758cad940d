package dev.gantry.runs.jobs;

import dev.gantry.model.JobEvent;
import dev.gantry.model.JobRecord;
import dev.gantry.core.jobs.JobStore;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.FabricEnvironment;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.core.FakeBackend;
import dev.gantry.runs.state.SqlJobStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
        JobService jobs = service(SqlJobStore.open(state));
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
        String id = service(SqlJobStore.open(state)).newJobId("train");
        assertTrue(id.matches("train-20261129-120000-[0-9a-f]{6}"), id);
    }

    @Test
    void submitPersistsTheRecordWithTheBackendReference() {
        JobService jobs = service(SqlJobStore.open(state));
        JobRecord record = jobs.submit(plan("train"), "fake", "train-1", Optional.of("train.yaml"));
        assertEquals(JobRecord.Stage.SUBMITTED, record.stage());
        assertEquals("native-train-1", record.ref().orElseThrow().id());
        JobRecord stored = SqlJobStore.open(state).find("train-1").orElseThrow();
        assertEquals(record, stored);
        assertEquals("1 x Standard_F2s_v2 in eastus (on-demand)", stored.placement());
    }

    @Test
    void aSubmitRetriedAfterALostReplyCreatesNoSecondJob() {
        JobService jobs = service(SqlJobStore.open(state));
        backend.loseNextReply = true;
        assertThrows(GantryException.class, () -> jobs.submit(plan("train"), "fake", "train-1", Optional.empty()));
        // The record was saved before the call: a later process finds it half-submitted ...
        assertEquals(JobRecord.Stage.SUBMITTING, SqlJobStore.open(state).find("train-1").orElseThrow().stage());
        // ... and finishing the submission with the same key reattaches to the job the backend already has.
        JobRecord record = service(SqlJobStore.open(state)).submit(plan("train"), "fake", "train-1", Optional.empty());
        assertEquals(JobRecord.Stage.SUBMITTED, record.stage());
        assertEquals(1, backend.submitted.size());
        assertEquals(2, backend.submitCalls.get());
    }

    @Test
    void aBatchIsBracketedLikeOneSubmitAndARetryAfterALostReplySendsOnlyWhatIsNotSubmitted() {
        JobService jobs = service(SqlJobStore.open(state));
        jobs.submit(plan("a"), "fake", "a-1", Optional.empty());
        List<Submission> batch = List.of(new Submission(plan("a"), SubmitOptions.withKey("a-1")),
                new Submission(plan("b"), SubmitOptions.withKey("b-1")),
                new Submission(plan("c"), SubmitOptions.withKey("c-1")));
        backend.loseNextReply = true;
        assertThrows(GantryException.class, () -> jobs.submitAll(batch, "fake", Optional.empty()));
        SqlJobStore reopened = SqlJobStore.open(state);
        assertEquals(JobRecord.Stage.SUBMITTING, reopened.find("b-1").orElseThrow().stage(),
                "every intent was stored before the backend was asked");
        assertEquals(JobRecord.Stage.SUBMITTING, reopened.find("c-1").orElseThrow().stage());
        List<JobRecord> records = service(reopened).submitAll(batch, "fake", Optional.empty());
        assertEquals(List.of("a-1", "b-1", "c-1"), records.stream().map(JobRecord::id).toList());
        assertTrue(records.stream().allMatch(r -> r.stage() == JobRecord.Stage.SUBMITTED), records::toString);
        assertEquals(3, backend.submitted.size(), "no job made twice");
    }

    @Test
    void submittingASubmittedKeyAgainReturnsTheSameJobWithoutCallingTheBackend() {
        JobService jobs = service(SqlJobStore.open(state));
        JobRecord first = jobs.submit(plan("train"), "fake", "train-1", Optional.empty());
        JobRecord again = jobs.submit(plan("train"), "fake", "train-1", Optional.empty());
        assertEquals(first, again);
        assertEquals(1, backend.submitCalls.get());
    }

    @Test
    void aKeyOfAnotherWorkloadIsRefused() {
        JobService jobs = service(SqlJobStore.open(state));
        jobs.submit(plan("train"), "fake", "shared-key", Optional.empty());
        GantryException e = assertThrows(GantryException.class,
                () -> jobs.submit(plan("other"), "fake", "shared-key", Optional.empty()));
        assertEquals(ErrorCode.USAGE, e.code());
    }

    @Test
    void statusOfManyJobsCostsOneCallPerBackend() {
        JobService jobs = service(SqlJobStore.open(state));
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
        assertEquals(JobState.SUCCEEDED, SqlJobStore.open(state).find("train-3").orElseThrow().state());
    }

    @Test
    void cancelReachesTheBackendAndRecordsTheNewState() {
        JobService jobs = service(SqlJobStore.open(state));
        jobs.submit(plan("train"), "fake", "train-1", Optional.empty());
        assertEquals(JobState.CANCELLED, jobs.cancel("train-1").state());
    }

    @Test
    void everyIntentOutcomeAndStateChangeIsInTheJobsHistoryInOrder() {
        JobService jobs = service(SqlJobStore.open(state));
        backend.loseNextReply = true;
        assertThrows(GantryException.class, () -> jobs.submit(plan("train"), "fake", "train-1", Optional.empty()));
        jobs.submit(plan("train"), "fake", "train-1", Optional.empty());
        jobs.job("train-1");
        jobs.job("train-1"); // nothing new: no event
        jobs.cancel("train-1");
        List<JobEvent> history = service(SqlJobStore.open(state)).history("train-1");
        assertEquals(List.of("submitting", "submitting", "submitted", "state", "cancelling", "state"),
                history.stream().map(JobEvent::kind).toList());
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), history.stream().map(JobEvent::sequence).toList());
        assertEquals("to backend 'fake', 1 x Standard_F2s_v2 in eastus (on-demand)", history.get(0).detail());
        assertTrue(history.get(1).detail().startsWith("again, with the same key, after an interrupted submit"),
                history.get(1).detail());
        assertEquals("backend 'fake' job native-train-1", history.get(2).detail());
        assertTrue(history.get(3).detail().startsWith("RUNNING: "), history.get(3).detail());
        assertTrue(history.get(5).detail().startsWith("CANCELLED"), history.get(5).detail());
    }

    @Test
    void anUnknownJobIsNamedInTheError() {
        GantryException e = assertThrows(GantryException.class, () -> service(SqlJobStore.open(state)).job("ghost"));
        assertEquals(ErrorCode.JOB_NOT_FOUND, e.code());
        assertEquals("no job 'ghost'; 'gantry status' lists known jobs", e.getMessage());
    }

    @Test
    void anInfiniBandPlanReachesTheBackendWithItsFamilysNcclEnvironmentAndTheWorkloadsOwnValuesWin() {
        Workload workload = Workload.builder("pretrain").phase(Phase.TRAINING).model(ModelClass.GENERATIVE)
                .command("torchrun", "pretrain.py").env("NCCL_SOCKET_IFNAME", "ib0")
                .resources(dev.gantry.api.Resources.builder().nodes(2).gpus(8).build()).build();
        VmSize h100 = new VmSize("Standard_ND96isr_H100_v5", "ND", 96, 1900, Optional.of(new dev.gantry.api.GpuSpec(
                "H100", 8, 80, dev.gantry.api.GpuVendor.NVIDIA)), true, dev.gantry.api.Architecture.X64, Set.of("V2"));
        Plan planned = Plan.builder(workload, h100).region("eastus").build();
        JobService jobs = service(SqlJobStore.open(state));
        jobs.submitAll(List.of(new Submission(planned, SubmitOptions.withKey("pretrain-1")),
                new Submission(plan("prep"), SubmitOptions.withKey("prep-1"))), "fake", Optional.empty());

        Map<String, String> env = backend.submitted.get(0).workload().env();
        assertEquals("ib0", env.get("NCCL_SOCKET_IFNAME"), "the workload's own value wins");
        Map<String, String> expected = new java.util.LinkedHashMap<>(FabricEnvironment.of(h100));
        expected.put("NCCL_SOCKET_IFNAME", "ib0");
        assertEquals(expected, env);
        assertSame(workload, planned.workload(), "the caller's plan is not changed");
        assertEquals(Map.of(), backend.submitted.get(1).workload().env(), "a size without InfiniBand gets nothing");
    }
}
