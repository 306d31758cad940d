package dev.gantry.backend.cyclecloud.internal.slurm;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.cyclecloud.internal.CycleCloudSettings;
import dev.gantry.backend.cyclecloud.internal.PartitionChoice;
import dev.gantry.backend.cyclecloud.internal.login.BatchSubmit;
import dev.gantry.backend.cyclecloud.internal.login.ClusterJobs;
import dev.gantry.backend.cyclecloud.internal.login.LoginNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Submits plans as Slurm batch jobs, exactly once per idempotency key ({@link BatchSubmit}, sbatch on the login
 * node): each job's script is rendered here, its dependencies resolved to Slurm job ids.
 */
final class SlurmSubmission {
    private final LoginNode login;
    private final CycleCloudSettings settings;
    private final BackendContext context;
    private final PartitionChoice partitions;
    private final BatchSubmit batches;

    SlurmSubmission(LoginNode login, CycleCloudSettings settings, BackendContext context,
                    PartitionChoice partitions) {
        this.login = login;
        this.settings = settings;
        this.context = context;
        this.partitions = partitions;
        this.batches = new BatchSubmit(login, SlurmScripts.SUBMIT, "Slurm", settings.workDir(),
                settings.login().user(), "check the partition, node count, GPUs and memory against sinfo, or run "
                + "gantry doctor");
    }

    /** Every job in one remote command per batch: sbatch runs on the login node once per job, in order. */
    List<JobRef> submitAll(List<Submission> submissions) {
        List<BatchSubmit.JobFiles> jobs = new ArrayList<>(submissions.size());
        for (Submission submission : submissions) {
            Plan plan = submission.plan();
            SubmitOptions options = submission.options();
            String id = ClusterJobs.idFor(options.idempotencyKey());
            String directory = ClusterJobs.directory(settings.workDir(), id);
            List<String> dependencyIds = options.dependencies().stream().map(d -> ClusterJobs.jobId(d.job()))
                    .toList();
            List<SbatchDirectives.Dependency> dependencies = new ArrayList<>();
            for (JobDependency dependency : options.dependencies()) {
                dependencies.add(new SbatchDirectives.Dependency(dependency.condition(),
                        slurmIdOf(dependency.job())));
            }
            SlurmBatchScript script = script(plan, id, directory, dependencies, dependencyIds);
            jobs.add(new BatchSubmit.JobFiles(id, directory, BatchSubmit.environmentFile(plan, options, id, context,
                    settings.masterPort()), script.head(), script.tail()));
        }
        return batches.submitAll(SlurmBatchScript.common(), jobs);
    }

    private SlurmBatchScript script(Plan plan, String id, String directory,
                                    List<SbatchDirectives.Dependency> dependencies, List<String> dependencyIds) {
        Workload workload = plan.workload();
        Resources resources = workload.resources();
        int gpus = resources.gpus().orElse(plan.gpusPerNode());
        int cpus = resources.vcpus().orElse(plan.vmSize().vcpus());
        long memoryMib = resources.memoryGib().isPresent() ? (long) Math.ceil(resources.memoryGib().getAsDouble()
                * 1024) : 0;
        boolean exclusive = plan.nodes() > 1 && plan.vmSize().rdma();
        SbatchDirectives directives = new SbatchDirectives(id, partitions.partitionFor(plan),
                plan.nodes(), 1, gpus, settings.gpuRequest(), Math.max(1, cpus), memoryMib,
                Optional.empty(), directory, exclusive, plan.spot(), dependencies, settings.account(),
                settings.qos(), SlurmJobComment.of(dependencyIds));
        Optional<PyxisContainer> container = workload.container().map(c -> new PyxisContainer(c.image(),
                workload.checkpoint().map(k -> List.of(k.path())).orElse(List.of())));
        return new SlurmBatchScript(directives, id, directory, login.bin(), workload.workingDir(),
                workload.command(), container);
    }

    private String slurmIdOf(JobRef job) {
        String id = ClusterJobs.jobId(job);
        String file = ClusterJobs.directory(settings.workDir(), id) + "/" + SlurmScripts.SLURM_ID;
        return login.host().readText(file).map(s -> s.strip().split(";", 2)[0]).filter(s -> !s.isEmpty())
                .orElseThrow(() -> new GantryException(ErrorCode.JOB_NOT_FOUND, "the dependency " + job
                        + " has no Slurm job on " + login.host().name() + " (no " + file + ")"));
    }
}
