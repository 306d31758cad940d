package dev.gantry.backend.manual.internal;

import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.backend.manual.JobPolling;
import dev.gantry.tck.BackendFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;

/** Workloads, plans and waits shared by the ssh transport's tests. */
final class SshJobs {
    private SshJobs() {
    }

    static Workload.Builder workload(String name) {
        return Workload.builder("ssh-" + name).phase(Phase.TRAINING).model(ModelClass.SMALL);
    }

    static Plan plan(Workload.Builder workload, int nodes, int gpus) {
        Resources.Builder resources = Resources.builder().nodes(nodes);
        if (gpus > 0) {
            resources.gpus(gpus);
        }
        Workload w = workload.resources(resources.build()).build();
        return Plan.builder(w, BackendFixture.smallCpuSize()).nodes(nodes).build();
    }

    static String key(String name) {
        return "ssh-" + name + "-" + UUID.randomUUID();
    }

    static JobStatus await(Backend backend, JobRef job, Predicate<JobStatus> until, Duration timeout)
            throws InterruptedException {
        return JobPolling.await(backend, job, until, timeout);
    }

    static JobStatus awaitEnd(Backend backend, JobRef job) throws InterruptedException {
        return await(backend, job, s -> s.state().isTerminal(), Duration.ofSeconds(20));
    }

    static JobStatus awaitRunning(Backend backend, JobRef job) throws InterruptedException {
        return await(backend, job, s -> s.state() == JobState.RUNNING, Duration.ofSeconds(20));
    }

    static List<LogLine> logs(Backend backend, JobRef job) throws InterruptedException {
        List<LogLine> lines = new ArrayList<>();
        backend.logs(job, LogOptions.all(), lines::add);
        return lines;
    }

    /** Waits until the job printed a line on stdout matching the condition. */
    static List<LogLine> awaitOutput(Backend backend, JobRef job, Predicate<List<LogLine>> until)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        List<LogLine> lines = logs(backend, job);
        while (!until.test(lines)) {
            if (System.nanoTime() > deadline) {
                fail(job + " did not print the expected output; so far " + lines);
            }
            Thread.sleep(100);
            lines = logs(backend, job);
        }
        return lines;
    }
}
