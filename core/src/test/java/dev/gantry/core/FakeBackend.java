package dev.gantry.core;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.api.backend.SubmitOptions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** An in-memory backend for core's tests: counts remote calls and can fail a submit after "creating" the job. */
public final class FakeBackend implements Backend {
    public final Map<String, JobState> jobs = new LinkedHashMap<>();
    public final AtomicInteger submitCalls = new AtomicInteger();
    public final AtomicInteger statusCalls = new AtomicInteger();
    public final List<Plan> submitted = new ArrayList<>();
    public boolean loseNextReply;
    public List<Problem> problems = List.of();
    public Capabilities capabilities = new Capabilities(false, false, false, false, true,
            java.util.Set.of(GpuVendor.NVIDIA));

    @Override
    public String name() {
        return "fake";
    }

    @Override
    public Capabilities capabilities() {
        return capabilities;
    }

    @Override
    public List<Problem> validate(Plan plan) {
        return problems;
    }

    @Override
    public synchronized JobRef submit(Plan plan, SubmitOptions options) {
        submitCalls.incrementAndGet();
        if (!jobs.containsKey(options.idempotencyKey())) {
            jobs.put(options.idempotencyKey(), JobState.RUNNING);
            submitted.add(plan);
        }
        if (loseNextReply) {
            loseNextReply = false;
            throw new GantryException(ErrorCode.REMOTE_ERROR, "connection reset before the reply");
        }
        return new JobRef("fake", "native-" + options.idempotencyKey());
    }

    @Override
    public synchronized JobStatus status(JobRef job) {
        JobState state = jobs.get(job.id().substring("native-".length()));
        if (state == null) {
            throw new GantryException(ErrorCode.JOB_NOT_FOUND, "no job " + job.id());
        }
        return JobStatus.of(state, state.name().toLowerCase());
    }

    @Override
    public synchronized Map<JobRef, JobStatus> statuses(Collection<JobRef> refs) {
        statusCalls.incrementAndGet();
        Map<JobRef, JobStatus> result = new LinkedHashMap<>();
        for (JobRef ref : refs) {
            result.put(ref, status(ref));
        }
        return result;
    }

    @Override
    public void logs(JobRef job, LogOptions options, LogSink sink) {
        sink.accept(new LogLine(LogLine.Stream.STDOUT, 0, "hello from " + job.id()));
    }

    @Override
    public synchronized void cancel(JobRef job) {
        jobs.computeIfPresent(job.id().substring("native-".length()),
                (k, s) -> s.isTerminal() ? s : JobState.CANCELLED);
    }

    @Override
    public void close() {
    }

    /** A provider handing out one shared FakeBackend. */
    public static final class Provider implements BackendProvider {
        public final FakeBackend backend = new FakeBackend();
        private final String name;

        public Provider(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String description() {
            return "in-memory test backend";
        }

        @Override
        public Capabilities capabilities() {
            return backend.capabilities();
        }

        @Override
        public List<ConfigKey> configKeys() {
            return List.of(ConfigKey.optional("zone", "a test setting", "a"), ConfigKey.secret("token", "a secret"));
        }

        @Override
        public Backend create(BackendConfig config, BackendContext context) {
            return backend;
        }
    }
}
