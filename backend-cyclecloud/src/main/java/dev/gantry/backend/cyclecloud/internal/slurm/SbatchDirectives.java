package dev.gantry.backend.cyclecloud.internal.slurm;

import dev.gantry.api.backend.JobDependency;
import dev.gantry.backend.cyclecloud.internal.DirectiveHeader;
import dev.gantry.backend.cyclecloud.internal.login.ClusterJobs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code #SBATCH} header of a job's batch script, rendered from what the backend decided for it: a pure function
 * with golden tests. The job's environment never travels in the script or through Slurm ({@code --export=NONE}:
 * Slurm keeps the submitted environment and script under its state directory), and Spot plans ask for
 * {@code --requeue}, so that an eviction brings the job back instead of failing it.
 *
 * @param name the job's name as squeue shows it (derived from the idempotency key)
 * @param partition the partition for the planned VM size; empty: the cluster's default
 * @param nodes how many nodes
 * @param tasksPerNode tasks per node (one rank per node)
 * @param gpusPerNode GPUs per node; 0 for none
 * @param gpuRequest how GPUs are asked for: {@code --gpus-per-node} or the older {@code --gres=gpu:N}
 * @param cpusPerTask CPUs per task
 * @param memoryMib memory per node in MiB; 0 to leave it to the partition's default
 * @param timeLimit the job's time limit; empty: the partition's
 * @param jobDirectory the job's directory on the cluster, where Slurm writes its output
 * @param exclusive whole nodes for the job (multi-node RDMA plans)
 * @param requeue whether Slurm requeues the job after an eviction (Spot plans) rather than ending it
 * @param dependencies the jobs this one waits for, by Slurm job id
 * @param account the account to charge, if any
 * @param qos the quality of service, if any
 * @param comment the job's comment ({@link SlurmJobComment}), if any
 */
public record SbatchDirectives(String name, Optional<String> partition, int nodes, int tasksPerNode, int gpusPerNode,
                               GpuRequest gpuRequest, int cpusPerTask, long memoryMib, Optional<Duration> timeLimit,
                               String jobDirectory, boolean exclusive, boolean requeue, List<Dependency> dependencies,
                               Optional<String> account, Optional<String> qos, Optional<String> comment) {
    private static final DirectiveHeader HEADER = DirectiveHeader.SBATCH;

    /** How GPUs are asked for; clusters configured before Slurm 19.05 know only GRES. */
    public enum GpuRequest {
        GPUS_PER_NODE, GRES
    }

    /**
     * A job this one waits for, by Slurm job id, or by the placeholder of the id recorded in its directory
     * ({@link ClusterJobs#recordedIdOf}), which the submit script fills in.
     */
    public record Dependency(JobDependency.Condition condition, String slurmJobId) {
        public Dependency {
            Objects.requireNonNull(condition, "condition");
            if (!slurmJobId.matches("[0-9]+(_[0-9]+)?") && !ClusterJobs.isRecordedId(slurmJobId)) {
                throw new IllegalArgumentException("not a Slurm job id or the placeholder of a recorded one: '"
                        + slurmJobId + "'");
            }
        }

        String render() {
            return (condition == JobDependency.Condition.AFTER_SUCCESS ? "afterok:" : "afterany:") + slurmJobId;
        }
    }

    public SbatchDirectives {
        HEADER.word("name", name);
        partition.ifPresent(p -> HEADER.word("partition", p));
        account.ifPresent(a -> HEADER.word("account", a));
        qos.ifPresent(q -> HEADER.word("qos", q));
        comment.ifPresent(c -> HEADER.word("comment", c));
        HEADER.jobDirectory(jobDirectory);
        if (nodes < 1 || tasksPerNode < 1 || cpusPerTask < 1 || gpusPerNode < 0 || memoryMib < 0) {
            throw new IllegalArgumentException("nodes, tasks and CPUs are at least 1, GPUs and memory at least 0");
        }
        Objects.requireNonNull(gpuRequest, "gpuRequest");
        DirectiveHeader.positive("a time limit", timeLimit);
        dependencies = List.copyOf(dependencies);
    }

    /** The header lines, in a fixed order. */
    public List<String> lines() {
        return lines(Optional.of(name), jobDirectory + "/slurm-%j", jobDirectory);
    }

    /**
     * The header of a job array whose every task has this job's shape, with Slurm's own output of each task in
     * {@code directory}. No name: the submit names the array when it knows which of its jobs it claimed.
     */
    public List<String> arrayLines(String directory) {
        HEADER.word("directory", directory);
        return lines(Optional.empty(), directory + "/slurm-%A_%a", directory);
    }

    /**
     * Whether this job and {@code other} could be tasks of one job array: everything but the name and the directory
     * is the same (an array's tasks share one header), and neither waits for another job.
     */
    public boolean sameArrayShape(SbatchDirectives other) {
        return dependencies.isEmpty() && other.dependencies.isEmpty()
                && withNameAndDirectory("-", "/").equals(other.withNameAndDirectory("-", "/"));
    }

    private SbatchDirectives withNameAndDirectory(String newName, String newDirectory) {
        return new SbatchDirectives(newName, partition, nodes, tasksPerNode, gpusPerNode, gpuRequest, cpusPerTask,
                memoryMib, timeLimit, newDirectory, exclusive, requeue, dependencies, account, qos, comment);
    }

    private List<String> lines(Optional<String> jobName, String output, String directory) {
        List<String> lines = new ArrayList<>();
        jobName.ifPresent(n -> lines.add("--job-name=" + n));
        partition.ifPresent(p -> lines.add("--partition=" + p));
        account.ifPresent(a -> lines.add("--account=" + a));
        qos.ifPresent(q -> lines.add("--qos=" + q));
        lines.add("--nodes=" + nodes);
        lines.add("--ntasks-per-node=" + tasksPerNode);
        lines.add("--cpus-per-task=" + cpusPerTask);
        if (gpusPerNode > 0) {
            lines.add(gpuRequest == GpuRequest.GPUS_PER_NODE ? "--gpus-per-node=" + gpusPerNode
                    : "--gres=gpu:" + gpusPerNode);
        }
        if (memoryMib > 0) {
            lines.add("--mem=" + memoryMib + "M");
        }
        timeLimit.ifPresent(t -> lines.add("--time=" + slurmTime(t)));
        if (exclusive) {
            lines.add("--exclusive");
        }
        lines.add(requeue ? "--requeue" : "--no-requeue");
        if (!dependencies.isEmpty()) {
            lines.add("--dependency=" + String.join(",", dependencies.stream().map(Dependency::render).toList()));
            // A dependency that can never be met (its job failed) ends this job instead of leaving it pending.
            lines.add("--kill-on-invalid-dep=yes");
        }
        comment.ifPresent(c -> lines.add("--comment=" + c));
        lines.add("--output=" + output + ".out");
        lines.add("--error=" + output + ".err");
        lines.add("--chdir=" + directory);
        lines.add("--export=NONE");
        return HEADER.lines(lines);
    }

    /** {@code [D-]HH:MM:SS}, rounded up to the second. */
    static String slurmTime(Duration limit) {
        long seconds = DirectiveHeader.seconds(limit);
        String clock = DirectiveHeader.clock(seconds % 86_400);
        return seconds >= 86_400 ? seconds / 86_400 + "-" + clock : clock;
    }
}
