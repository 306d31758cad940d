package dev.gantry.core.advisor;

import dev.gantry.api.Orchestrator;
import dev.gantry.api.OrchestratorAdvice;
import dev.gantry.api.Phase;
import dev.gantry.api.Workload;

/**
 * The orchestrator Azure's guidance recommends for a planned workload. Information only: the configured backend is
 * what runs. The first matching line wins:
 * <ol>
 *   <li>an open-source scheduler is wanted ({@code advice.scheduler}): CycleCloud;</li>
 *   <li>multi-node training on RDMA sizes: CycleCloud (an HPC cluster with a scheduler);</li>
 *   <li>inference: AKS (containers at scale, services);</li>
 *   <li>containerized work: Batch (built-in scheduling, no cluster to run);</li>
 *   <li>one node: manual VMs (minimal orchestration);</li>
 *   <li>otherwise (several nodes, no container): Batch.</li>
 * </ol>
 */
final class OrchestratorAdvisor {
    private OrchestratorAdvisor() {
    }

    static OrchestratorAdvice advise(Workload workload, int nodes, boolean rdma, AdvisorSettings settings) {
        if (settings.adviceScheduler().isPresent()) {
            return new OrchestratorAdvice(Orchestrator.CYCLECLOUD, "the configuration wants an open-source scheduler ("
                    + settings.adviceScheduler().get().configName() + "), which CycleCloud runs on an Azure HPC cluster");
        }
        if (workload.phase() == Phase.TRAINING && nodes > 1 && rdma) {
            return new OrchestratorAdvice(Orchestrator.CYCLECLOUD, "multi-node RDMA training (" + nodes
                    + " nodes): CycleCloud runs an HPC cluster with a scheduler that places jobs on the InfiniBand "
                    + "fabric");
        }
        if (workload.phase() == Phase.INFERENCE) {
            return new OrchestratorAdvice(Orchestrator.AKS, "inference services run best as containers at scale: "
                    + "AKS scales replicas and keeps the service up");
        }
        if (workload.container().isPresent()) {
            return new OrchestratorAdvice(Orchestrator.BATCH, "containerized batch work: Batch gives built-in "
                    + "scheduling with no cluster to run");
        }
        if (nodes == 1) {
            return new OrchestratorAdvice(Orchestrator.MANUAL, "one node and no container: orchestration needs are "
                    + "minimal, so manual VMs are enough");
        }
        return new OrchestratorAdvice(Orchestrator.BATCH, nodes + " nodes without RDMA: Batch runs them as a "
                + "multi-instance task with built-in scheduling and no cluster to run");
    }
}
