package dev.gantry.backend.cyclecloud.internal.gridengine;

import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.backend.cyclecloud.internal.ClusterProblems;
import dev.gantry.backend.cyclecloud.internal.CycleCloudSettings;
import dev.gantry.backend.cyclecloud.internal.PartitionChoice;
import dev.gantry.backend.cyclecloud.internal.login.LoginNode;
import dev.gantry.backend.cyclecloud.internal.login.Once;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether a plan can run on this Grid Engine cluster: no container, a queue that exists, the parallel environment
 * its slots or hosts need ({@link GridEngineJobShape}), the GPU and memory complexes when it asks for them, and a
 * writable work directory. The cluster is probed once, with one command, and the answer kept.
 */
final class GridEngineCheck {
    private final LoginNode login;
    private final CycleCloudSettings settings;
    private final PartitionChoice queues;
    private final Once<GridEngineFacts> facts;

    GridEngineCheck(LoginNode login, CycleCloudSettings settings, PartitionChoice queues) {
        this.login = login;
        this.settings = settings;
        this.queues = queues;
        this.facts = new Once<>(() -> GridEngineFacts.parse(login.run(GridEngineScripts.SCRIPTS.probe(),
                probeArguments(settings, login), Optional.empty())));
    }

    private static List<String> probeArguments(CycleCloudSettings settings, LoginNode login) {
        List<String> args = new ArrayList<>(List.of(settings.workDir(), login.bin(), settings.parallelEnvironment()));
        settings.multiNodeParallelEnvironment().ifPresent(args::add);
        return args;
    }

    GridEngineFacts facts() {
        return facts.get();
    }

    List<Problem> problems(Plan plan) {
        List<Problem> problems = new ArrayList<>();
        // What the plan asks that no Grid Engine cluster runs through this version comes first: no probe needed.
        if (plan.workload().container().isPresent()) {
            problems.add(Problem.of("container", "the workload runs in the image " + plan.workload().container()
                    .get().image() + ", but this version of Gantry runs no containers on Grid Engine clusters: run "
                    + "the workload without a container, or on a Slurm cluster with Pyxis"));
        }
        // A cluster that cannot be asked is an error (BACKEND_UNAVAILABLE), not a reason the plan does not fit.
        GridEngineFacts cluster = facts();
        if (cluster.queuesError().isPresent()) {
            problems.add(Problem.of("backends.cyclecloud", "qconf -sql failed on the login node: "
                    + cluster.queuesError().get() + "; is sge_qmaster up and is this a Grid Engine submit host?"));
            return problems;
        }
        if (!ClusterProblems.addLayoutProblems(queues, plan, problems)) {
            return problems;
        }
        Optional<String> queue = queues.partitionFor(plan);
        if (queue.isPresent() && !cluster.queues().contains(queue.get())) {
            problems.add(Problem.of("backends.cyclecloud.partitions", "the plan's VM size " + plan.vmSize().name()
                    + " maps to the queue " + queue.get() + ", which the cluster does not have (it has "
                    + String.join(", ", cluster.queues()) + "); fix the partitions setting"));
        }
        problems.addAll(GridEngineJobShape.of(plan, settings, cluster).problems());
        if (GridEngineJobShape.gpus(plan) > 0 && !cluster.complexes().contains(settings.gpuComplex())) {
            problems.add(Problem.of("backends.cyclecloud.gpuComplex", "the plan needs " + GridEngineJobShape
                    .gpus(plan) + " GPU(s), and the cluster defines no complex " + settings.gpuComplex()
                    + " to count them; define it (qconf -mc, consumable) with each GPU host's count, or set "
                    + "gpuComplex to the cluster's"));
        }
        if (GridEngineJobShape.memoryMib(plan) > 0 && !cluster.complexes().contains(settings.memoryComplex())) {
            problems.add(Problem.of("backends.cyclecloud.memoryComplex", "the plan asks for memory, and the cluster "
                    + "defines no complex " + settings.memoryComplex() + "; set memoryComplex to the cluster's "
                    + "(h_vmem, or a consumable such as m_mem_free)"));
        }
        if (!cluster.workDirWritable()) {
            problems.add(ClusterProblems.workDirNotWritable(settings));
        }
        return problems;
    }
}
