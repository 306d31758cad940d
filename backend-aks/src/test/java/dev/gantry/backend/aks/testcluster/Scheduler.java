package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * kube-scheduler's filters for one pod, a pure function: the nodes that pass every filter (in the default profile's
 * order: NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit, InterPodAffinity; a node fails at its
 * first filter), the first such node chosen (nodes in name order), or the scheduler's own message when none passes:
 * {@code 0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {k: v}. preemption: ...}.
 */
final class Scheduler {
    /** Where the pod goes, or why it cannot go anywhere. */
    record Decision(Optional<String> node, String message) {
        static Decision to(String node) {
            return new Decision(Optional.of(node), "");
        }
    }

    private record Failure(String reason, boolean resolvableByPreemption) {
    }

    private Scheduler() {
    }

    /** {@code pods}: the pods bound to any node (terminal ones are ignored). */
    static Decision place(Pod pod, List<Node> nodes, List<Pod> pods) {
        Map<String, Integer> reasons = new TreeMap<>();
        int notHelped = 0;
        List<Node> sorted = new ArrayList<>(nodes);
        sorted.sort((a, b) -> a.getMetadata().getName().compareTo(b.getMetadata().getName()));
        for (Node node : sorted) {
            List<Failure> failures = filter(pod, node, pods);
            if (failures.isEmpty()) {
                return Decision.to(node.getMetadata().getName());
            }
            failures.forEach(f -> reasons.merge(f.reason(), 1, Integer::sum));
            if (!failures.get(0).resolvableByPreemption()) {
                notHelped++;
            }
        }
        return new Decision(Optional.empty(), message(nodes.size(), reasons, notHelped));
    }

    private static String message(int nodes, Map<String, Integer> reasons, int notHelped) {
        List<String> parts = new ArrayList<>();
        reasons.forEach((reason, count) -> parts.add(count + " " + reason));
        parts.sort(String::compareTo);
        String message = "0/" + nodes + " nodes are available: " + String.join(", ", parts) + ".";
        List<String> preemption = new ArrayList<>();
        if (notHelped > 0) {
            preemption.add(notHelped + " Preemption is not helpful for scheduling");
        }
        if (nodes - notHelped > 0) {
            preemption.add((nodes - notHelped) + " No preemption victims found for incoming pod");
        }
        preemption.sort(String::compareTo);
        return message + " preemption: 0/" + nodes + " nodes are available: " + String.join(", ", preemption) + ".";
    }

    private static List<Failure> filter(Pod pod, Node node, List<Pod> pods) {
        if (Boolean.TRUE.equals(node.getSpec().getUnschedulable())) {
            return List.of(new Failure("node(s) were unschedulable", false));
        }
        Optional<Taint> untolerated = untoleratedTaint(pod, node);
        if (untolerated.isPresent()) {
            Taint t = untolerated.get();
            return List.of(new Failure("node(s) had untolerated taint {" + t.getKey() + ": "
                    + (t.getValue() == null ? "" : t.getValue()) + "}", false));
        }
        if (!matchesNodeSelectorAndAffinity(pod, node)) {
            return List.of(new Failure("node(s) didn't match Pod's node affinity/selector", false));
        }
        List<Failure> insufficient = resourceFit(pod, node, podsOn(node, pods));
        if (!insufficient.isEmpty()) {
            return insufficient;
        }
        if (violatesAntiAffinity(pod, node, pods)) {
            return List.of(new Failure("node(s) didn't match pod anti-affinity rules", true));
        }
        return List.of();
    }

    static Optional<Taint> untoleratedTaint(Pod pod, Node node) {
        for (Taint taint : node.getSpec().getTaints()) {
            boolean blocks = "NoSchedule".equals(taint.getEffect()) || "NoExecute".equals(taint.getEffect());
            if (blocks && pod.getSpec().getTolerations().stream().noneMatch(t -> tolerates(t, taint))) {
                return Optional.of(taint);
            }
        }
        return Optional.empty();
    }

    static boolean tolerates(Toleration toleration, Taint taint) {
        if (toleration.getEffect() != null && !toleration.getEffect().isEmpty()
                && !toleration.getEffect().equals(taint.getEffect())) {
            return false;
        }
        String key = toleration.getKey() == null ? "" : toleration.getKey();
        String operator = toleration.getOperator() == null ? "Equal" : toleration.getOperator();
        if (key.isEmpty()) {
            return operator.equals("Exists");
        }
        if (!key.equals(taint.getKey())) {
            return false;
        }
        if (operator.equals("Exists")) {
            return true;
        }
        String wanted = toleration.getValue() == null ? "" : toleration.getValue();
        return wanted.equals(taint.getValue() == null ? "" : taint.getValue());
    }

    private static boolean matchesNodeSelectorAndAffinity(Pod pod, Node node) {
        Map<String, String> labels = node.getMetadata().getLabels();
        Map<String, String> selector = pod.getSpec().getNodeSelector();
        if (selector != null && selector.entrySet().stream()
                .anyMatch(e -> !e.getValue().equals(labels.get(e.getKey())))) {
            return false;
        }
        var affinity = pod.getSpec().getAffinity();
        if (affinity == null || affinity.getNodeAffinity() == null
                || affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
            return true;
        }
        return Selectors.matchesAny(affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()
                .getNodeSelectorTerms(), labels, node.getMetadata().getName());
    }

    private static List<Failure> resourceFit(Pod pod, Node node, List<Pod> onNode) {
        Map<String, BigDecimal> allocatable = new LinkedHashMap<>();
        node.getStatus().getAllocatable().forEach((k, v) -> allocatable.put(k, Quantity.getAmountInBytes(v)));
        List<Failure> failures = new ArrayList<>();
        BigDecimal maxPods = allocatable.getOrDefault("pods", BigDecimal.valueOf(110));
        if (BigDecimal.valueOf(onNode.size() + 1L).compareTo(maxPods) > 0) {
            failures.add(new Failure("Too many pods", true));
        }
        Map<String, BigDecimal> used = new TreeMap<>();
        onNode.forEach(p -> requests(p).forEach((k, v) -> used.merge(k, v, BigDecimal::add)));
        for (Map.Entry<String, BigDecimal> wanted : new TreeMap<>(requests(pod)).entrySet()) {
            if (wanted.getValue().signum() == 0) {
                continue;
            }
            BigDecimal free = allocatable.getOrDefault(wanted.getKey(), BigDecimal.ZERO)
                    .subtract(used.getOrDefault(wanted.getKey(), BigDecimal.ZERO));
            if (wanted.getValue().compareTo(free) > 0) {
                failures.add(new Failure("Insufficient " + wanted.getKey(), true));
            }
        }
        return failures;
    }

    /** What a pod requests: each container's requests, or its limits where it gives only those (as defaulted). */
    static Map<String, BigDecimal> requests(Pod pod) {
        Map<String, BigDecimal> total = new TreeMap<>();
        for (Container container : pod.getSpec().getContainers()) {
            if (container.getResources() == null) {
                continue;
            }
            Map<String, Quantity> requests = new LinkedHashMap<>();
            if (container.getResources().getLimits() != null) {
                requests.putAll(container.getResources().getLimits());
            }
            if (container.getResources().getRequests() != null) {
                requests.putAll(container.getResources().getRequests());
            }
            requests.forEach((k, v) -> total.merge(k, Quantity.getAmountInBytes(v), BigDecimal::add));
        }
        return total;
    }

    private static boolean violatesAntiAffinity(Pod pod, Node node, List<Pod> pods) {
        for (Pod other : pods) {
            if (other.getSpec().getNodeName() == null || isTerminal(other)
                    || other.getMetadata().getUid().equals(pod.getMetadata().getUid())) {
                continue;
            }
            for (PodAffinityTerm term : antiAffinityTerms(pod)) {
                if (sameDomain(node, other, term) && selects(term, pod, other)) {
                    return true;
                }
            }
            for (PodAffinityTerm term : antiAffinityTerms(other)) {
                if (sameDomain(node, other, term) && selects(term, other, pod)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean sameDomain(Node node, Pod other, PodAffinityTerm term) {
        String key = term.getTopologyKey();
        if (key.equals(NodeTemplate.HOSTNAME)) {
            String hostname = node.getMetadata().getLabels().getOrDefault(key, node.getMetadata().getName());
            return other.getSpec().getNodeName().equals(hostname)
                    || other.getSpec().getNodeName().equals(node.getMetadata().getName());
        }
        return other.getSpec().getNodeName().equals(node.getMetadata().getName());
    }

    private static boolean selects(PodAffinityTerm term, Pod owner, Pod candidate) {
        List<String> namespaces = term.getNamespaces().isEmpty() ? List.of(owner.getMetadata().getNamespace())
                : term.getNamespaces();
        return namespaces.contains(candidate.getMetadata().getNamespace())
                && Selectors.matches(term.getLabelSelector(), candidate.getMetadata().getLabels());
    }

    private static List<PodAffinityTerm> antiAffinityTerms(Pod pod) {
        var affinity = pod.getSpec().getAffinity();
        if (affinity == null || affinity.getPodAntiAffinity() == null) {
            return List.of();
        }
        return affinity.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
    }

    private static List<Pod> podsOn(Node node, List<Pod> pods) {
        return pods.stream().filter(p -> node.getMetadata().getName().equals(p.getSpec().getNodeName()))
                .filter(p -> !isTerminal(p)).toList();
    }

    static boolean isTerminal(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }
}
