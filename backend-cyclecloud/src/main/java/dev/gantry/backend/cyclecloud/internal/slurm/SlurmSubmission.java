package dev.gantry.backend.cyclecloud.internal.slurm;

import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.StartChecks;
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
 * node): each job's script is rendered here; its dependencies' Slurm job ids are filled in by the submit script,
 * from their directories, in the same remote command.
 */
final class SlurmSubmission {
    private final LoginNode login;
    private final CycleCloudSettings settings;
    private final PartitionChoice partitions;
    private final BatchSubmit batches;

    SlurmSubmission(LoginNode login, CycleCloudSettings settings, BackendContext context,
                    PartitionChoice partitions) {
        this.login = login;
        this.settings = settings;
        this.partitions = partitions;
        this.batches = new BatchSubmit(login, SlurmScripts.SCRIPTS.submit(), "Slurm", settings.workDir(),
                settings.login().user(), "check the partition, node count, GPUs and memory against sinfo, or run "
                + "gantry doctor", context, settings.masterPort());
    }

    /**
     * Every job in one remote command per batch of up to {@link BatchSubmit#BATCH}: jobs that differ only in their
     * key go as one job array (one sbatch), where the cluster takes arrays that large; the others one sbatch each.
     *
     * @param arrays whether the cluster takes job arrays of a batch's size
     */
    List<JobRef> submitAll(List<Submission> submissions, boolean arrays) {
        List<BatchSubmit.JobFiles> jobs = new ArrayList<>(submissions.size());
        List<SlurmBatchScript> scripts = new ArrayList<>(submissions.size());
        for (Submission submission : submissions) {
            String id = BatchSubmit.idOf(submission);
            SlurmBatchScript script = script(submission.plan(), submission.options(), id, batches.directoryOf(id));
            scripts.add(script);
            jobs.add(batches.files(submission, script));
        }
        return batches.submit(SlurmBatchScript.common(), SlurmJobArray.batches(jobs, scripts, settings.workDir(),
                arrays));
    }

    private SlurmBatchScript script(Plan plan, SubmitOptions options, String id, String directory) {
        List<String> dependencyIds = options.dependencies().stream().map(d -> ClusterJobs.jobId(d.job())).toList();
        List<SbatchDirectives.Dependency> dependencies = new ArrayList<>();
        for (JobDependency dependency : options.dependencies()) {
            dependencies.add(new SbatchDirectives.Dependency(dependency.condition(),
                    ClusterJobs.recordedIdOf(dependency.job())));
        }
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
                StartChecks.command(plan), container);
    }
}
