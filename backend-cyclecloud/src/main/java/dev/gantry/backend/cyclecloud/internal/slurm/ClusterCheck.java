package dev.gantry.backend.cyclecloud.internal.slurm;

import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.backend.cyclecloud.internal.ClusterProblems;
import dev.gantry.backend.cyclecloud.internal.CycleCloudSettings;
import dev.gantry.backend.cyclecloud.internal.PartitionChoice;
import dev.gantry.backend.cyclecloud.internal.login.LoginNode;
import dev.gantry.backend.cyclecloud.internal.login.BatchSubmit;
import dev.gantry.backend.cyclecloud.internal.login.Once;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether a plan can run on this cluster: its partition exists and has enough nodes, CPUs and GPUs (GRES), the
 * cluster has Pyxis when the workload has a container image, and the work directory is writable. The cluster is
 * probed once, with one command, and the answer kept for this backend's life.
 */
final class ClusterCheck {
    private final LoginNode login;
    private final CycleCloudSettings settings;
    private final PartitionChoice partitions;
    private final Once<ClusterFacts> facts;

    ClusterCheck(LoginNode login, CycleCloudSettings settings, PartitionChoice partitions) {
        this.login = login;
        this.settings = settings;
        this.partitions = partitions;
        this.facts = new Once<>(() -> ClusterFacts.parse(login.run(SlurmScripts.SCRIPTS.probe(),
                List.of(settings.workDir(), login.bin()), Optional.empty())));
    }

    /**
     * The cluster's facts, probed on first use; BACKEND_UNAVAILABLE naming the login node's address and its setting
     * when the login node cannot be reached, REMOTE_ERROR when the probe failed there. Either way nothing is known
     * about the cluster, so nothing is concluded from it: the error goes to the caller.
     */
    ClusterFacts facts() {
        return facts.get();
    }

    /** Whether srun has Pyxis's container options, as the probe found; its error when the cluster cannot be asked. */
    boolean pyxis() {
        return facts().pyxis();
    }

    /**
     * Whether a fan-out may go as job arrays of up to {@link BatchSubmit#BATCH} tasks (MaxArraySize), as the probe
     * found; its error when the cluster cannot be asked.
     */
    boolean arrays() {
        return facts().maxArraySize() >= BatchSubmit.BATCH;
    }

    List<Problem> problems(Plan plan) {
        List<Problem> problems = new ArrayList<>();
        // A cluster that cannot be asked is an error, not a reason the plan does not fit.
        ClusterFacts cluster = facts();
        if (cluster.sinfoError().isPresent()) {
            problems.add(Problem.of("backends.cyclecloud", "sinfo failed on the login node: "
                    + cluster.sinfoError().get() + "; is slurmctld up and is this a Slurm login node?"));
            return problems;
        }
        String size = plan.vmSize().name();
        if (!ClusterProblems.addLayoutProblems(partitions, plan, problems)) {
            return problems;
        }
        Optional<String> named = partitions.partitionFor(plan);
        Optional<ClusterFacts.Partition> partition = named.isPresent() ? cluster.partition(named.get())
                : cluster.defaultPartition();
        String which = named.map(p -> "partition " + p).orElse("the default partition");
        if (named.isPresent() && partition.isEmpty()) {
            problems.add(Problem.of("backends.cyclecloud.partitions", "the plan's VM size " + size + " maps to "
                    + which + ", which the cluster does not have (it has " + names(cluster) + "); fix the "
                    + "partitions setting"));
        } else if (partition.isEmpty()) {
            problems.add(Problem.of("backends.cyclecloud.partitions", "the cluster has no default partition and "
                    + "the plan's VM size " + size + " is not listed; add " + size + "=PARTITION to partitions (one "
                    + "of " + names(cluster) + ") or set defaultPartition"));
        } else {
            fits(plan, partition.get(), which, problems);
        }
        if (plan.workload().container().isPresent() && !cluster.pyxis()) {
            problems.add(Problem.of("container", "the workload runs in the image " + plan.workload().container()
                    .get().image() + ", but srun on this cluster has no --container-image: install Pyxis and Enroot "
                    + "on the cluster (docs/backends/cyclecloud.md) or run the workload without a container"));
        }
        if (!cluster.workDirWritable()) {
            problems.add(ClusterProblems.workDirNotWritable(settings));
        }
        return problems;
    }

    private static void fits(Plan plan, ClusterFacts.Partition partition, String which, List<Problem> problems) {
        String name = partition.name().replace("*", "");
        if (!partition.up()) {
            problems.add(Problem.of("backends.cyclecloud.partitions", which + " (" + name + ") is not up; ask the "
                    + "cluster's admin (scontrol update partitionname=" + name + " state=up)"));
        }
        if (plan.nodes() > partition.nodes()) {
            problems.add(Problem.of("nodes", "the plan needs " + plan.nodes() + " nodes, " + which + " has "
                    + partition.nodes() + "; ask for fewer nodes or raise the node array's maximum count in "
                    + "CycleCloud"));
        }
        int gpus = plan.workload().resources().gpus().orElse(plan.gpusPerNode());
        if (gpus > partition.gpus()) {
            problems.add(Problem.of("resources.gpus", "the plan needs " + gpus + " GPU(s) per node, the nodes of "
                    + which + " have " + partition.gpus() + " in their GRES"
                    + (partition.gpus() == 0 ? " (no gres/gpu: add GresTypes=gpu and the nodes' Gres= to slurm.conf,"
                    + " or map the size to a GPU partition)" : "") + "; choose a partition whose nodes have them"));
        }
        int cpus = plan.workload().resources().vcpus().orElse(plan.vmSize().vcpus());
        if (partition.cpus() > 0 && cpus > partition.cpus()) {
            problems.add(Problem.of("resources.vcpus", "the plan asks " + cpus + " CPUs per node, the nodes of "
                    + which + " have " + partition.cpus() + "; map the size " + plan.vmSize().name() + " to the "
                    + "partition of that node array"));
        }
    }

    private static String names(ClusterFacts cluster) {
        return String.join(", ", cluster.partitions().keySet());
    }
}
