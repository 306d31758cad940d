package dev.gantry.backend.cyclecloud.slurm;

import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.GantryException;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.backend.cyclecloud.CycleCloudBackendProvider;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Jobs on the real test cluster, through the backend as a user would: the backend of some settings, a small plan,
 * and waiting for polls, states and output.
 */
public final class ClusterTesting {
    public static final Duration WAIT = Duration.ofSeconds(60);

    private ClusterTesting() {
    }

    public static Backend backend(Map<String, String> settings, TckContext context) {
        return new CycleCloudBackendProvider().create(new BackendConfig("cyclecloud", settings), context);
    }

    /** A one-node CPU training plan of the kit's small size. */
    public static Plan plan(String name, String... command) {
        return Plan.builder(Workload.builder(name).phase(Phase.TRAINING).model(ModelClass.SMALL).command(command)
                .build(), BackendFixture.smallCpuSize()).build();
    }

    /** One poll; a poll the cluster cannot answer right now throws, and the caller asks again. */
    public static JobStatus poll(Backend backend, JobRef job) {
        return backend.statuses(List.of(job)).get(job);
    }

    public static void awaitState(Backend backend, JobRef job, JobState state) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        JobStatus status = poll(backend, job);
        while (status.state() != state) {
            if (System.nanoTime() > deadline || status.state().isTerminal()) {
                fail(job + " never reached " + state + "; last " + status);
            }
            Thread.sleep(100);
            status = poll(backend, job);
        }
    }

    public static void awaitOutput(Backend backend, JobRef job, String line) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!lines(backend, job).contains(line)) {
            if (System.nanoTime() > deadline) {
                fail(job + " never printed '" + line + "'; last " + poll(backend, job));
            }
            Thread.sleep(100);
        }
    }

    /** The job's final status, polled through faults (the controller or the login node coming back). */
    public static JobStatus awaitEnd(Backend backend, JobRef job) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        GantryException lastError = null;
        while (System.nanoTime() < deadline) {
            try {
                JobStatus status = poll(backend, job);
                if (status.state().isTerminal()) {
                    return status;
                }
            } catch (GantryException e) {
                lastError = e;
            }
            Thread.sleep(200);
        }
        return fail(job + " did not end within " + WAIT + (lastError == null ? "" : "; last error " + lastError));
    }

    /** Every line the job printed so far, its stdout and stderr. */
    public static List<String> lines(Backend backend, JobRef job) throws InterruptedException {
        List<String> lines = new ArrayList<>();
        backend.logs(job, new LogOptions(false, OptionalInt.empty(), true, false), l -> lines.add(l.text()));
        return lines;
    }
}
