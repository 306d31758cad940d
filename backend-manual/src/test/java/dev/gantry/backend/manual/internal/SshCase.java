package dev.gantry.backend.manual.internal;

import dev.gantry.api.Plan;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.tck.TckContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What one test case makes on the SSH test hosts: backends and jobs, cancelled and closed after it together with
 * the case's context and work directories, whatever the case left running.
 */
final class SshCase implements AutoCloseable {
    private final SshHosts hosts;
    private final TckContext context = TckContext.create();
    private final List<ManualBackend> backends = new ArrayList<>();
    private final List<JobRef> jobs = new ArrayList<>();

    SshCase(SshHosts hosts) {
        this.hosts = hosts;
    }

    SshHosts hosts() {
        return hosts;
    }

    TckContext context() {
        return context;
    }

    /** A backend for the hosts with these settings added, closed after the case. */
    ManualBackend backend(Map<String, String> extra) {
        return track(hosts.backend(context, extra));
    }

    ManualBackend track(ManualBackend backend) {
        backends.add(backend);
        return backend;
    }

    /** Submits with a fresh key made from the workload's name; the job is cancelled after the case. */
    JobRef submit(ManualBackend backend, Plan plan) {
        return track(backend.submit(plan, SubmitOptions.withKey(SshJobs.key(plan.workload().name()))));
    }

    JobRef track(JobRef job) {
        jobs.add(job);
        return job;
    }

    /** The jobs tracked so far, in order. */
    List<JobRef> jobs() {
        return jobs;
    }

    @Override
    public void close() throws Exception {
        for (JobRef job : jobs) {
            try {
                backends.get(0).cancel(job);
            } catch (RuntimeException ignored) {
                // best effort: the case may have ended it
            }
        }
        backends.forEach(ManualBackend::close);
        context.close();
        hosts.close();
    }
}
