package dev.gantry.backend.cyclecloud.internal.login;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.hosts.jobs.LogFiles;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * What the CycleCloud backend does the same way whatever the cluster's scheduler: jobs are the scheduler's batch
 * jobs, submitted, tracked and cancelled on the login node over SSH, one directory each on the cluster's shared file
 * system, so any later Gantry process sees the same jobs. A scheduler brings its scripts, its status parser and its
 * checks; this class routes.
 */
public abstract class ClusterBackend implements Backend {
    private final LoginNode login;
    private final String workDir;
    private final String scheduler;
    private final BackendContext context;
    private final AutoCloseable connections;

    /**
     * @param scheduler the scheduler's name, for messages
     * @param connections what {@link #close()} closes (the SSH pool)
     */
    protected ClusterBackend(LoginNode login, String workDir, String scheduler, BackendContext context,
                             AutoCloseable connections) {
        this.login = login;
        this.workDir = workDir;
        this.scheduler = scheduler;
        this.context = context;
        this.connections = connections;
    }

    protected final LoginNode login() {
        return login;
    }

    protected final BackendContext context() {
        return context;
    }

    /** Runs the status script for these of Gantry's job ids and parses its output: one remote command. */
    protected abstract Map<String, JobStatus> statusOf(List<String> ids);

    /** The cancel script: the scheduler's own lines, then {@code login/cancel.sh}. */
    protected abstract LoginScript cancelScript();

    /** The batch script's header line that gives a job's node count (its number of ranks); empty: always one. */
    protected abstract Optional<Pattern> nodeCount();

    /** The problems of one plan on this cluster; none when it can run. */
    @Override
    public abstract List<Problem> validate(Plan plan);

    /** Submits the plans, one remote command per batch. */
    protected abstract List<JobRef> submitBatches(List<Submission> submissions);

    @Override
    public final String name() {
        return ClusterJobs.BACKEND;
    }

    @Override
    public final JobRef submit(Plan plan, SubmitOptions options) {
        return submitAll(List.of(new Submission(plan, options))).get(0);
    }

    /**
     * One remote command per batch. The plans are not validated again here: their caller did, once per plan, before
     * anything was recorded ({@link #validate}); what the scheduler refuses it says in the submit's answer.
     */
    @Override
    public final List<JobRef> submitAll(List<Submission> submissions) {
        return submitBatches(submissions);
    }

    @Override
    public final JobStatus status(JobRef job) {
        ClusterJobs.jobId(job);
        JobStatus status = statuses(List.of(job)).get(job);
        if (status.state() == JobState.UNKNOWN && status.message().startsWith("no job ")) {
            throw new GantryException(ErrorCode.JOB_NOT_FOUND, status.message());
        }
        return status;
    }

    /** One remote command, and in it one scheduler query, for all the jobs. */
    @Override
    public final Map<JobRef, JobStatus> statuses(Collection<JobRef> jobs) {
        List<String> ids = new ArrayList<>();
        for (JobRef job : jobs) {
            if (ClusterJobs.isOurs(job)) {
                ids.add(job.id());
            }
        }
        Map<String, JobStatus> parsed = ids.isEmpty() ? Map.of() : statusOf(ids);
        Map<JobRef, JobStatus> ordered = new LinkedHashMap<>();
        for (JobRef job : jobs) {
            ordered.put(job, !ClusterJobs.isOurs(job) ? JobStatus.of(JobState.UNKNOWN, "not a job of the "
                    + "cyclecloud backend") : parsed.getOrDefault(job.id(), JobStatus.of(JobState.UNKNOWN,
                    "the status command did not answer for " + job.id())));
        }
        return ordered;
    }

    @Override
    public final void logs(JobRef job, LogOptions options, LogSink sink) throws InterruptedException {
        String id = ClusterJobs.jobId(job);
        try {
            status(job); // a job the scheduler does not know is JOB_NOT_FOUND here, not an empty log
            new RankLogs(login.host(), ClusterJobs.directory(workDir, id), nodeCount(), () -> ended(job))
                    .deliver(options, sink);
        } catch (GantryException e) {
            throw LogFiles.interruptOr(e); // any remote call of a follow its caller stopped
        }
    }

    /** Whether a followed job has ended; a poll the scheduler cannot answer now is "not yet". */
    private boolean ended(JobRef job) {
        try {
            return status(job).state().isTerminal();
        } catch (GantryException e) {
            if (e.code() == ErrorCode.REMOTE_ERROR || e.code() == ErrorCode.BACKEND_UNAVAILABLE) {
                context.logger().log(System.Logger.Level.DEBUG, "following " + job + ": " + e.getMessage());
                return false;
            }
            throw e;
        }
    }

    @Override
    public final void cancel(JobRef job) {
        String id = ClusterJobs.jobId(job);
        String answer = login.run(cancelScript(), List.of(ClusterJobs.directory(workDir, id), login.bin()),
                Optional.empty()).strip();
        if (answer.equals("MISSING")) {
            throw new GantryException(ErrorCode.JOB_NOT_FOUND, "no job " + id + " in " + workDir + " on "
                    + login.host().name());
        }
        if (answer.startsWith("FAILED")) {
            throw new GantryException(ErrorCode.REMOTE_ERROR, "cancelling " + id + " on " + scheduler + " failed: "
                    + answer.substring("FAILED".length()).strip());
        }
    }

    /** Commands on the login node, and the requests to CycleCloud's REST API beside them. */
    @Override
    public final OptionalLong remoteCalls() {
        OptionalLong commands = login.host().commands();
        return commands.isPresent() ? OptionalLong.of(commands.getAsLong() + serviceCalls()) : commands;
    }

    /** Requests made to services other than the login node (CycleCloud's REST API); none by default. */
    protected long serviceCalls() {
        return 0;
    }

    @Override
    public final void close() {
        try {
            connections.close(); // jobs live on in the scheduler; only the connections end
        } catch (Exception e) {
            context.logger().log(System.Logger.Level.WARNING, "closing the connection to the login node: " + e);
        }
    }
}
