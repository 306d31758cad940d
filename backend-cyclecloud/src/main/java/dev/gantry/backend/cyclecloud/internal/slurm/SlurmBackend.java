package dev.gantry.backend.cyclecloud.internal.slurm;

import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.HostReport;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.Submission;
import dev.gantry.backend.cyclecloud.internal.CycleCloudSettings;
import dev.gantry.backend.cyclecloud.internal.PartitionChoice;
import dev.gantry.backend.cyclecloud.internal.login.ClusterBackend;
import dev.gantry.backend.cyclecloud.internal.login.LoginNode;
import dev.gantry.backend.cyclecloud.internal.login.LoginScript;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The CycleCloud backend on a Slurm cluster: jobs are Slurm batch jobs (sbatch, one squeue per poll, scancel), with
 * one directory per job on the cluster's shared file system. Submit, status, logs and validation are classes of
 * their own; this one routes.
 */
public final class SlurmBackend extends ClusterBackend {
    /** How many ranks a job has: its batch script's node count. */
    private static final Pattern NODES = Pattern.compile("(?m)^#SBATCH --nodes=(\\d+)$");

    private final CycleCloudSettings settings;
    private final Capabilities declared;
    private final ClusterCheck check;
    private final SlurmSubmission submission;
    private final SlurmDoctor doctor;
    private final PartitionChoice partitions;

    /**
     * @param login the login node (an SSH host; tests may pass one that counts its commands)
     * @param declared what the backend can do on any Slurm cluster; {@link #capabilities()} narrows it to this one
     * @param connections what {@link #close()} closes (the SSH pool)
     */
    public SlurmBackend(LoginNode login, CycleCloudSettings settings, BackendContext context, Capabilities declared,
                        AutoCloseable connections) {
        super(login, settings.workDir(), "Slurm", context, connections);
        this.settings = settings;
        this.declared = declared;
        this.partitions = new PartitionChoice(settings, context);
        this.check = new ClusterCheck(login, settings, partitions);
        this.submission = new SlurmSubmission(login, settings, context, partitions);
        this.doctor = new SlurmDoctor(login, settings.workDir(), partitions);
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
    protected List<JobRef> submitBatches(List<Submission> submissions) {
        // A fan-out asks the cluster's array limit (probed once, with validate's facts); a single job never does.
        return submission.submitAll(submissions, submissions.size() > 1 && check.arrays());
    }

    @Override
    protected Map<String, JobStatus> statusOf(List<String> ids) {
        List<String> args = new ArrayList<>(List.of(settings.workDir(), login().bin(),
                settings.jobCompLog().orElse("")));
        args.addAll(ids);
        return SlurmStatusReport.parse(login().run(SlurmScripts.SCRIPTS.status(), args, Optional.empty()),
                context().clock().instant());
    }

    @Override
    protected LoginScript cancelScript() {
        return SlurmScripts.SCRIPTS.cancel();
    }

    @Override
    protected long serviceCalls() {
        return partitions.calls();
    }

    @Override
    protected Optional<Pattern> nodeCount() {
        return Optional.of(NODES);
    }

    /** The compute nodes (those of the plan's partition, with a plan), each probed through Slurm. */
    @Override
    public List<HostReport> doctor(Optional<Plan> plan) {
        return doctor.reports(plan);
    }
}
