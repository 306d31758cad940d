package dev.gantry.backend.cyclecloud.internal.slurm;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.HostReport;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.cyclecloud.internal.CycleCloudSettings;
import dev.gantry.hosts.Host;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The CycleCloud backend on a Slurm cluster: jobs are Slurm batch jobs submitted, tracked and cancelled on the login
 * node over SSH, with one directory per job on the cluster's shared file system. Everything it knows is read back
 * from the cluster, so any later Gantry process sees the same jobs. Submit, status, logs and validation are classes
 * of their own; this one routes.
 */
public final class SlurmBackend implements Backend {
    private final SlurmLogin login;
    private final CycleCloudSettings settings;
    private final BackendContext context;
    private final Capabilities declared;
    private final ClusterCheck check;
    private final SlurmSubmission submission;
    private final SlurmDoctor doctor;
    private final AutoCloseable connections;

    /**
     * @param login the login node's host (an SSH host; tests may pass one that counts its commands)
     * @param declared what the backend can do on any Slurm cluster; {@link #capabilities()} narrows it to this one
     * @param connections what {@link #close()} closes (the SSH pool)
     */
    public SlurmBackend(Host login, CycleCloudSettings settings, BackendContext context, Capabilities declared,
                        AutoCloseable connections) {
        this.login = new SlurmLogin(login, settings.binDir().map(d -> d + "/").orElse(""));
        this.settings = settings;
        this.context = context;
        this.declared = declared;
        PartitionChoice partitions = new PartitionChoice(settings, context);
        this.check = new ClusterCheck(this.login, settings, partitions);
        this.submission = new SlurmSubmission(this.login, settings, context, partitions);
        this.doctor = new SlurmDoctor(this.login, settings.workDir(), partitions);
        this.connections = connections;
    }

    @Override
    public String name() {
        return SlurmJobs.BACKEND;
    }

    /** Containers only where srun has Pyxis; the cluster is probed once, on first use. */
    @Override
    public Capabilities capabilities() {
        return declared.toBuilder().containers(declared.containers() && check.pyxis()).build();
    }

    @Override
    public List<Problem> validate(Plan plan) {
        return check.problems(plan);
    }

    @Override
    public JobRef submit(Plan plan, SubmitOptions options) {
        return submitAll(List.of(new Submission(plan, options))).get(0);
    }

    /** One remote command for all of them: sbatch runs on the login node once per job, in order. */
    @Override
    public List<JobRef> submitAll(List<Submission> submissions) {
        for (Submission s : submissions) {
            List<Problem> problems = check.problems(s.plan());
            if (!problems.isEmpty()) {
                throw GantryException.invalid(ErrorCode.PLAN_REJECTED, problems);
            }
        }
        return submission.submitAll(submissions);
    }

    @Override
    public JobStatus status(JobRef job) {
        SlurmJobs.jobId(job);
        JobStatus status = statuses(List.of(job)).get(job);
        if (status.state() == JobState.UNKNOWN && status.message().startsWith("no job ")) {
            throw new GantryException(ErrorCode.JOB_NOT_FOUND, status.message());
        }
        return status;
    }

    /** One remote command, and in it one squeue, for all the jobs. */
    @Override
    public Map<JobRef, JobStatus> statuses(Collection<JobRef> jobs) {
        Map<JobRef, JobStatus> result = new LinkedHashMap<>();
        List<String> ids = new ArrayList<>();
        for (JobRef job : jobs) {
            if (SlurmJobs.isOurs(job)) {
                ids.add(job.id());
            } else {
                result.put(job, JobStatus.of(JobState.UNKNOWN, "not a job of the cyclecloud backend"));
            }
        }
        if (!ids.isEmpty()) {
            List<String> args = new ArrayList<>(List.of(settings.workDir(), login.slurmBin(),
                    settings.jobCompLog().orElse("")));
            args.addAll(ids);
            String output = login.run(SlurmLogin.Script.STATUS, args, java.util.Optional.empty());
            Map<String, JobStatus> parsed = SlurmStatusReport.parse(output, context.clock().instant());
            for (JobRef job : jobs) {
                if (SlurmJobs.isOurs(job)) {
                    result.put(job, parsed.getOrDefault(job.id(), JobStatus.of(JobState.UNKNOWN,
                            "the status command did not answer for " + job.id())));
                }
            }
        }
        Map<JobRef, JobStatus> ordered = new LinkedHashMap<>();
        for (JobRef job : jobs) {
            ordered.put(job, result.get(job));
        }
        return ordered;
    }

    @Override
    public void logs(JobRef job, LogOptions options, LogSink sink) throws InterruptedException {
        String id = SlurmJobs.jobId(job);
        status(job);
        new SlurmLogs(login.host(), SlurmJobs.directory(settings, id), () -> ended(job)).deliver(options, sink);
    }

    /** Whether a followed job has ended; a poll the controller cannot answer now is "not yet". */
    private boolean ended(JobRef job) {
        try {
            return status(job).state().isTerminal();
        } catch (GantryException e) {
            if (e.code() == ErrorCode.REMOTE_ERROR) {
                context.logger().log(System.Logger.Level.DEBUG, "following " + job + ": " + e.getMessage());
                return false;
            }
            throw e;
        }
    }

    @Override
    public void cancel(JobRef job) {
        String id = SlurmJobs.jobId(job);
        String answer = login.run(SlurmLogin.Script.CANCEL, List.of(SlurmJobs.directory(settings, id),
                login.slurmBin()), java.util.Optional.empty()).strip();
        if (answer.equals("MISSING")) {
            throw new GantryException(ErrorCode.JOB_NOT_FOUND, "no job " + id + " in " + settings.workDir() + " on "
                    + login.host().name());
        }
        if (answer.startsWith("FAILED")) {
            throw new GantryException(ErrorCode.REMOTE_ERROR, "scancel of " + id + " failed: "
                    + answer.substring("FAILED".length()).strip());
        }
    }

    /** The compute nodes (those of the plan's partition, with a plan), each probed through Slurm. */
    @Override
    public List<HostReport> doctor(Optional<Plan> plan) {
        return doctor.reports(plan);
    }

    @Override
    public OptionalLong remoteCalls() {
        return login.host().commands();
    }

    @Override
    public void close() {
        try {
            connections.close(); // jobs live on in Slurm; only the connections end
        } catch (Exception e) {
            context.logger().log(System.Logger.Level.WARNING, "closing the connection to the login node: " + e);
        }
    }
}
