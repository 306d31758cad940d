package dev.gantry.backend.aks.internal.validate;

import dev.gantry.api.GpuVendor;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.backend.aks.internal.AksSettings;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What stops a plan from running on the cluster, decided from the plan, the settings and the cluster's facts: each
 * a {@link Problem} with its path and the fix.
 */
public final class PlanCheck {
    /** The oldest Kubernetes whose Job controller has everything the Job relies on (backoffLimitPerIndex, ...). */
    public static final int MIN_MINOR = 32;
    static final String SPOT_LABEL = "kubernetes.azure.com/scalesetpriority";

    private PlanCheck() {
    }

    /**
     * Problems found without the cluster: no image. (Environment names need no check here: a workload's own rule,
     * {@code [A-Za-z_][A-Za-z0-9_]*}, is stricter than the API server's.)
     */
    public static List<Problem> offline(Plan plan, AksSettings settings) {
        List<Problem> problems = new ArrayList<>();
        if (plan.workload().container().isEmpty() && settings.defaultImage().isEmpty()) {
            problems.add(Problem.of("container", "is not set and backends.aks.defaultImage is not either: every pod "
                    + "on Kubernetes runs an image; add container: IMAGE (e.g. nvcr.io/nvidia/pytorch:24.05-py3) or "
                    + "set backends.aks.defaultImage"));
        }
        return problems;
    }

    /** Problems the cluster's facts show. */
    public static List<Problem> against(Plan plan, AksSettings settings, ClusterFacts facts) {
        List<Problem> problems = new ArrayList<>();
        facts.minorVersion().filter(minor -> minor < MIN_MINOR).ifPresent(minor -> problems.add(Problem.of(
                "backends.aks", "the cluster runs Kubernetes 1." + minor + "; Gantry needs 1." + MIN_MINOR + " or "
                        + "newer (Indexed Jobs with backoffLimitPerIndex, podReplacementPolicy and pod failure "
                        + "policies): upgrade it (az aks upgrade --kubernetes-version 1." + MIN_MINOR + ")")));
        facts.namespaceExists().filter(exists -> !exists).ifPresent(missing -> problems.add(Problem.of(
                "backends.aks.namespace", "namespace '" + settings.namespace() + "' does not exist in the cluster: "
                        + "create it (kubectl create namespace " + settings.namespace() + ") or name another")));
        facts.nodesOfSize().ifPresent(nodes -> nodeProblems(plan, settings, nodes, problems));
        if (plan.nodes() > 1 && settings.checkpointClaim().isPresent()) {
            facts.claimAccessModes().ifPresent(modes -> claimProblems(settings, modes, problems));
        }
        return problems;
    }

    private static void nodeProblems(Plan plan, AksSettings settings, List<Node> all, List<Problem> problems) {
        String size = plan.vmSize().name();
        if (settings.azure().isPresent()) {
            int max = settings.azure().get().maxNodes();
            if (plan.nodes() > max) {
                problems.add(Problem.of("backends.aks.azure.maxNodes", "is " + max + " but the plan needs "
                        + plan.nodes() + " nodes of " + size + ": raise it to at least " + plan.nodes()));
            }
            return;
        }
        List<Node> usable = all.stream().filter(node -> plan.spot() == spot(node)).toList();
        String kind = plan.spot() ? "Spot " : "";
        if (usable.isEmpty()) {
            problems.add(Problem.of("backends.aks", "the cluster has no " + kind + "node of size " + size + " (label "
                    + "node.kubernetes.io/instance-type=" + size + "): add a " + kind + "node pool of that size "
                    + "(az aks nodepool add --node-vm-size " + size + (plan.spot() ? " --priority Spot" : "")
                    + "), or set backends.aks.azure.* for Gantry to create it"));
            return;
        }
        if (usable.size() < plan.nodes()) {
            problems.add(Problem.of("backends.aks", "the plan needs " + plan.nodes() + " " + kind + "nodes of size "
                    + size + " but the cluster has " + usable.size() + ": scale the node pool to at least "
                    + plan.nodes() + " (az aks nodepool scale), or plan fewer nodes"));
        }
        if (plan.gpusPerNode() > 0) {
            String resource = plan.vmSize().gpu().map(gpu -> gpu.vendor() == GpuVendor.AMD ? "amd.com/gpu"
                    : "nvidia.com/gpu").orElse("nvidia.com/gpu");
            boolean advertised = usable.stream().anyMatch(node -> allocatable(node, resource) > 0);
            if (!advertised) {
                problems.add(Problem.of("backends.aks", "no node of size " + size + " advertises " + resource
                        + ": install the " + (resource.startsWith("amd") ? "AMD GPU" : "NVIDIA") + " device plugin, "
                        + "or create the pool with AKS's GPU driver"));
            }
        }
    }

    private static void claimProblems(AksSettings settings, List<String> modes, List<Problem> problems) {
        String claim = settings.checkpointClaim().get();
        if (modes.isEmpty()) {
            problems.add(Problem.of("backends.aks.checkpointClaim", "claim '" + claim + "' does not exist in "
                    + "namespace " + settings.namespace() + ": create a ReadWriteMany PersistentVolumeClaim (Azure "
                    + "Files or Blob CSI) of that name"));
        } else if (!modes.contains("ReadWriteMany")) {
            problems.add(Problem.of("backends.aks.checkpointClaim", "claim '" + claim + "' is " + String.join(", ",
                    modes) + ", but the ranks of a multi-node plan run on several nodes and must all mount it: "
                    + "use a ReadWriteMany claim (Azure Files or Blob CSI)"));
        }
    }

    private static boolean spot(Node node) {
        Map<String, String> labels = node.getMetadata().getLabels();
        return labels != null && "spot".equals(labels.get(SPOT_LABEL));
    }

    private static double allocatable(Node node, String resource) {
        return Optional.ofNullable(node.getStatus()).map(status -> status.getAllocatable())
                .map(resources -> resources.get(resource)).map(Quantity::getAmountInBytes)
                .map(amount -> amount.doubleValue()).orElse(0.0);
    }
}
