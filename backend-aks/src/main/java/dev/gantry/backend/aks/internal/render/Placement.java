package dev.gantry.backend.aks.internal.render;

import dev.gantry.api.Plan;
import dev.gantry.backend.aks.internal.AksSettings;
import dev.gantry.backend.aks.internal.GpuToleration;
import dev.gantry.backend.aks.internal.pools.TargetPool;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a rank may run: on nodes of the planned size (and pool: the one Gantry keeps for it, else the one
 * {@code nodePools} lists), on Spot nodes exactly when the plan is Spot, through
 * the GPU taints for GPU plans, one rank per node for multi-node plans; and how long it stays on a node that stopped
 * answering ({@code nodeLossToleration} instead of Kubernetes' five minutes).
 */
public final class Placement {
    public static final String INSTANCE_TYPE = "node.kubernetes.io/instance-type";
    public static final String AGENT_POOL = "kubernetes.azure.com/agentpool";
    public static final String SCALE_SET_PRIORITY = "kubernetes.azure.com/scalesetpriority";
    public static final String SPOT = "spot";
    /**
     * On a Job submitted while Azure was still creating its node pool: the pool's name. Its ranks wait for the
     * pool's first nodes, which the status table says instead of the scheduler's message.
     */
    public static final String NEW_NODE_POOL = "gantry.dev/new-node-pool";
    public static final String HOSTNAME = "kubernetes.io/hostname";
    public static final List<String> NODE_LOSS_TAINTS = List.of("node.kubernetes.io/unreachable",
            "node.kubernetes.io/not-ready");

    private Placement() {
    }

    public static Map<String, String> nodeSelector(Plan plan, AksSettings settings, Optional<TargetPool> kept) {
        Map<String, String> selector = new LinkedHashMap<>();
        selector.put(INSTANCE_TYPE, plan.vmSize().name());
        kept.map(TargetPool::name).or(() -> settings.nodePools().poolFor(plan.vmSize().name()))
                .ifPresent(pool -> selector.put(AGENT_POOL, pool));
        return selector;
    }

    public static List<Toleration> tolerations(Plan plan, AksSettings settings) {
        List<Toleration> tolerations = new ArrayList<>();
        if (plan.spot()) {
            tolerations.add(new TolerationBuilder().withKey(SCALE_SET_PRIORITY).withOperator("Equal").withValue(SPOT)
                    .withEffect("NoSchedule").build());
        }
        if (plan.vmSize().hasGpu()) {
            for (GpuToleration gpu : settings.gpuTolerations()) {
                tolerations.add(new TolerationBuilder().withKey(gpu.key())
                        .withOperator(gpu.value().isPresent() ? "Equal" : "Exists").withValue(gpu.value().orElse(null))
                        .withEffect(gpu.effect()).build());
            }
        }
        for (String taint : NODE_LOSS_TAINTS) {
            tolerations.add(new TolerationBuilder().withKey(taint).withOperator("Exists").withEffect("NoExecute")
                    .withTolerationSeconds(settings.nodeLossToleration().toSeconds()).build());
        }
        return tolerations;
    }

    /** Spot or never Spot; for several nodes, never two ranks of one job on one node. */
    public static Affinity affinity(Plan plan, JobIdentity job) {
        AffinityBuilder affinity = new AffinityBuilder().withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution().addNewNodeSelectorTerm()
                .addNewMatchExpression().withKey(SCALE_SET_PRIORITY).withOperator(plan.spot() ? "In" : "NotIn")
                .withValues(SPOT).endMatchExpression().endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution().endNodeAffinity();
        if (plan.nodes() > 1) {
            affinity.withNewPodAntiAffinity().addNewRequiredDuringSchedulingIgnoredDuringExecution()
                    .withNewLabelSelector().addToMatchLabels(JobIdentity.JOB, job.name()).endLabelSelector()
                    .withTopologyKey(HOSTNAME).endRequiredDuringSchedulingIgnoredDuringExecution()
                    .endPodAntiAffinity();
        }
        return affinity.build();
    }
}
