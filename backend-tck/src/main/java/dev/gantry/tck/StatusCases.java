package dev.gantry.tck;

import static dev.gantry.tck.Kit.TICKER;
import static dev.gantry.tck.Kit.assertState;
import static dev.gantry.tck.Kit.key;
import static dev.gantry.tck.Kit.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Status: many jobs answered in one call at the cost of one query per host or service, and unknown jobs. */
abstract class StatusCases extends KitCases {
    StatusCases(Kit kit) {
        super(kit);
    }

    @Test
    void statusesAnswersForEveryJobInOneCall() throws Exception {
        JobRef ok = kit.submit(workload("many-ok").command("sh", "-c", "exit 0").build());
        JobRef bad = kit.submit(workload("many-bad").command("sh", "-c", "exit 5").build());
        JobRef running = kit.submit(workload("many-run").command("sh", "-c", TICKER).build());
        kit.awaitEnd(ok);
        kit.awaitEnd(bad);
        kit.awaitOutput(running, out -> out.contains("tick"));
        Map<JobRef, JobStatus> statuses = backend.statuses(List.of(ok, bad, running));
        assertEquals(Set.of(ok, bad, running), statuses.keySet());
        assertState(JobState.SUCCEEDED, statuses.get(ok));
        assertState(JobState.FAILED, statuses.get(bad));
        assertEquals(OptionalInt.of(5), statuses.get(bad).exitCode());
        assertState(JobState.RUNNING, statuses.get(running));
        backend.cancel(running);
        assertState(JobState.CANCELLED, kit.awaitEnd(running));
    }

    /**
     * Two hundred jobs, one status call: every job answered with its own state, at a cost of at most
     * {@link BackendFixture#statusCallsAllowed()} remote calls where the fixture can count them.
     */
    @Test
    void statusOfTwoHundredJobsIsOneCall() throws Exception {
        int count = 200;
        // One after another: a backend without a queue (the manual one) refuses a job its hosts have no room for,
        // and jobs submitted together would fill a small test fleet before the first ones end.
        List<JobRef> jobs = new ArrayList<>();
        Map<JobRef, Integer> codes = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            int code = i % 3 == 0 ? 0 : 3;
            Plan plan = fixture.bulkPlan(workload("bulk-" + i).command("sh", "-c", "exit " + code).build());
            JobRef job = kit.submit(plan, key(plan.workload().name()));
            jobs.add(job);
            codes.put(job, code);
        }
        kit.awaitAllEnded(jobs);
        OptionalLong before = fixture.remoteCalls(backend);
        Map<JobRef, JobStatus> statuses = backend.statuses(jobs);
        OptionalLong after = fixture.remoteCalls(backend);
        assertEquals(Set.copyOf(jobs), statuses.keySet(), "every job is answered");
        for (JobRef job : jobs) {
            JobStatus status = statuses.get(job);
            assertState(codes.get(job) == 0 ? JobState.SUCCEEDED : JobState.FAILED, status);
            assertEquals(OptionalInt.of(codes.get(job)), status.exitCode(), job.toString());
        }
        if (before.isPresent() && after.isPresent()) {
            long calls = after.getAsLong() - before.getAsLong();
            assertTrue(calls <= fixture.statusCallsAllowed(), "the status of " + count + " jobs cost " + calls
                    + " remote calls; at most " + fixture.statusCallsAllowed() + " are allowed here");
        }
    }

    @Test
    void unknownJobIsNotFound() {
        JobRef unknown = new JobRef(backend.name(), "tck-never-submitted-" + UUID.randomUUID());
        GantryException e = assertThrows(GantryException.class, () -> backend.status(unknown));
        assertEquals(ErrorCode.JOB_NOT_FOUND, e.code());
        assertTrue(e.getMessage().contains(unknown.id()), "the message must name the job: " + e.getMessage());
    }
}
