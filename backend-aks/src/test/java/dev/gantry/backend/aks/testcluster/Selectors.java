package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import java.util.List;
import java.util.Map;

/** Label selectors and node selector terms, matched as apimachinery's labels package and the scheduler do. */
final class Selectors {
    private Selectors() {
    }

    static boolean matches(LabelSelector selector, Map<String, String> labels) {
        if (selector == null) {
            return false;
        }
        if (selector.getMatchLabels() != null) {
            for (Map.Entry<String, String> wanted : selector.getMatchLabels().entrySet()) {
                if (!wanted.getValue().equals(labels.get(wanted.getKey()))) {
                    return false;
                }
            }
        }
        for (LabelSelectorRequirement requirement : selector.getMatchExpressions()) {
            if (!matches(requirement.getKey(), requirement.getOperator(), requirement.getValues(), labels)) {
                return false;
            }
        }
        return true;
    }

    /** Terms are ORed, a term's expressions ANDed; an empty term matches nothing. */
    static boolean matchesAny(List<NodeSelectorTerm> terms, Map<String, String> labels, String nodeName) {
        for (NodeSelectorTerm term : terms) {
            if (term.getMatchExpressions().isEmpty() && term.getMatchFields().isEmpty()) {
                continue;
            }
            boolean all = term.getMatchExpressions().stream().allMatch(r -> matches(r, labels))
                    && term.getMatchFields().stream().allMatch(r -> matches(r, Map.of("metadata.name", nodeName)));
            if (all) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(NodeSelectorRequirement requirement, Map<String, String> labels) {
        return matches(requirement.getKey(), requirement.getOperator(), requirement.getValues(), labels);
    }

    private static boolean matches(String key, String operator, List<String> values, Map<String, String> labels) {
        String value = labels.get(key);
        return switch (operator) {
            case "In" -> value != null && values.contains(value);
            case "NotIn" -> value == null || !values.contains(value);
            case "Exists" -> labels.containsKey(key);
            case "DoesNotExist" -> !labels.containsKey(key);
            case "Gt" -> value != null && isInteger(value) && Long.parseLong(value) > Long.parseLong(values.get(0));
            case "Lt" -> value != null && isInteger(value) && Long.parseLong(value) < Long.parseLong(values.get(0));
            default -> throw new IllegalArgumentException("unknown selector operator " + operator);
        };
    }

    private static boolean isInteger(String value) {
        return value.matches("-?[0-9]+");
    }
}
