package dev.gantry.backend.aks.internal.submit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.Architecture;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ParallelSubmitTest {
    private static final Plan PLAN = Plan.builder(Workload.builder("w").phase(Phase.INFERENCE)
            .model(ModelClass.SMALL).command("true").build(), new VmSize("tck-small", "tck", 1, 0.5, Optional.empty(),
            false, Architecture.X64, Set.of("V2"))).build();

    private static List<Submission> submissions(int count) {
        List<Submission> submissions = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            submissions.add(new Submission(PLAN, SubmitOptions.withKey("job-" + i)));
        }
        return submissions;
    }

    @Test
    void atMostEightRunAtOnceAndTheReferencesComeBackInOrder() {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        Function<Submission, JobRef> slow = submission -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            running.decrementAndGet();
            return new JobRef("aks", submission.options().idempotencyKey());
        };
        List<JobRef> refs = ParallelSubmit.submitAll(slow, submissions(40));
        assertEquals(ParallelSubmit.IN_FLIGHT, most.get(), "eight in flight, never more");
        for (int i = 0; i < 40; i++) {
            assertEquals("job-" + i, refs.get(i).id());
        }
    }

    @Test
    void theFirstFailureInOrderIsThrownOnceAllEnded() {
        GantryException third = new GantryException(ErrorCode.REMOTE_ERROR, "third");
        AtomicInteger done = new AtomicInteger();
        Function<Submission, JobRef> failing = submission -> {
            done.incrementAndGet();
            String key = submission.options().idempotencyKey();
            if (key.equals("job-3") || key.equals("job-7")) {
                throw key.equals("job-3") ? third : new GantryException(ErrorCode.REMOTE_ERROR, "seventh");
            }
            return new JobRef("aks", key);
        };
        assertSame(third, assertThrows(GantryException.class, () -> ParallelSubmit.submitAll(failing,
                submissions(12))));
        assertEquals(12, done.get(), "the others were submitted, to be returned by a retry with their keys");
    }
}
