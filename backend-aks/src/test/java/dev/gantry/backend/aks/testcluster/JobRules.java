package dev.gantry.backend.aks.testcluster;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Kubernetes' {@code validateJobSpec} ({@code pkg/apis/batch/validation}) for the fields the AKS backend relies on, over
 * a Job as the API server sees it after its defaults (completions 1 when neither it nor parallelism is set,
 * restartPolicy Always when unset, a pod-condition pattern's status True): counts never negative, the per-index
 * fields only with Indexed completion, the restart policy a Job allows (Never with a pod failure policy),
 * {@code podReplacementPolicy: Failed} with a pod failure policy, and each pod failure policy rule.
 */
final class JobRules {
    private static final List<String> ACTIONS = List.of("Count", "FailIndex", "FailJob", "Ignore");
    private static final List<String> OPERATORS = List.of("In", "NotIn");
    private static final List<String> CONDITION_STATUSES = List.of("False", "True", "Unknown");
    private static final List<String> REPLACEMENT_POLICIES = List.of("Failed", "TerminatingOrFailed");

    private JobRules() {
    }

    static List<FieldError> check(JsonNode spec) {
        List<FieldError> errors = new ArrayList<>();
        for (String count : List.of("parallelism", "completions", "activeDeadlineSeconds", "backoffLimit",
                "ttlSecondsAfterFinished", "backoffLimitPerIndex", "maxFailedIndexes")) {
            if (spec.path(count).asLong(0) < 0) {
                errors.add(FieldError.invalid("spec." + count, spec.path(count).asLong(),
                        "must be greater than or equal to 0"));
            }
        }
        boolean indexed = "Indexed".equals(spec.path("completionMode").asText("NonIndexed"));
        boolean perIndex = spec.hasNonNull("backoffLimitPerIndex");
        if (spec.hasNonNull("maxFailedIndexes") && !perIndex) {
            errors.add(FieldError.required("spec.backoffLimitPerIndex", "when maxFailedIndexes is specified"));
        }
        String mode = spec.path("completionMode").asText("NonIndexed");
        if (!mode.equals("Indexed") && !mode.equals("NonIndexed")) {
            errors.add(FieldError.notSupported("spec.completionMode", mode, List.of("NonIndexed", "Indexed")));
        }
        if (indexed && !spec.hasNonNull("completions") && spec.hasNonNull("parallelism")) {
            errors.add(FieldError.required("spec.completions", "when completion mode is Indexed"));
        }
        if (!indexed) {
            for (String field : List.of("backoffLimitPerIndex", "maxFailedIndexes")) {
                if (spec.hasNonNull(field)) {
                    errors.add(FieldError.invalid("spec." + field, spec.get(field).asLong(),
                            "requires indexed completion mode"));
                }
            }
        }
        JsonNode policy = spec.path("podFailurePolicy");
        boolean hasPolicy = policy.isObject();
        if (hasPolicy) {
            rules(policy.path("rules"), perIndex, containerNames(spec.path("template").path("spec")), errors);
        }
        String replacement = spec.path("podReplacementPolicy").asText(null);
        if (replacement != null && hasPolicy && !replacement.equals("Failed")) {
            errors.add(FieldError.notSupported("spec.podReplacementPolicy", replacement, List.of("Failed")));
        } else if (replacement != null && !REPLACEMENT_POLICIES.contains(replacement)) {
            errors.add(FieldError.notSupported("spec.podReplacementPolicy", replacement, REPLACEMENT_POLICIES));
        }
        restartPolicy(spec.path("template").path("spec").path("restartPolicy").asText(""), hasPolicy, errors);
        return errors;
    }

    private static void restartPolicy(String restartPolicy, boolean hasPolicy, List<FieldError> errors) {
        String path = "spec.template.spec.restartPolicy";
        if (restartPolicy.isEmpty() || restartPolicy.equals("Always")) {
            errors.add(FieldError.required(path, "valid values: \"OnFailure\", \"Never\""));
        } else if (!restartPolicy.equals("OnFailure") && !restartPolicy.equals("Never")) {
            errors.add(FieldError.notSupported(path, restartPolicy, List.of("OnFailure", "Never")));
        } else if (hasPolicy && !restartPolicy.equals("Never")) {
            errors.add(FieldError.invalid(path, restartPolicy,
                    "only \"Never\" is supported when podFailurePolicy is specified"));
        }
    }

    private static Set<String> containerNames(JsonNode podSpec) {
        Set<String> names = new HashSet<>();
        for (String list : List.of("containers", "initContainers")) {
            podSpec.path(list).forEach(container -> names.add(container.path("name").asText("")));
        }
        return names;
    }

    private static void rules(JsonNode rules, boolean perIndex, Set<String> containers, List<FieldError> errors) {
        for (int i = 0; i < rules.size(); i++) {
            JsonNode rule = rules.get(i);
            String at = "spec.podFailurePolicy.rules[" + i + "]";
            String action = rule.path("action").asText("");
            if (action.isEmpty()) {
                errors.add(FieldError.required(at + ".action", "valid values: " + goList(ACTIONS)));
            } else if (action.equals("FailIndex") && !perIndex) {
                errors.add(FieldError.invalid(at + ".action", action, "requires the backoffLimitPerIndex to be set"));
            } else if (!ACTIONS.contains(action)) {
                errors.add(FieldError.notSupported(at + ".action", action, ACTIONS));
            }
            boolean onExitCodes = rule.path("onExitCodes").isObject();
            boolean onConditions = rule.path("onPodConditions").size() > 0;
            if (onExitCodes) {
                exitCodes(rule.path("onExitCodes"), at + ".onExitCodes", containers, errors);
            }
            JsonNode patterns = rule.path("onPodConditions");
            for (int j = 0; j < patterns.size(); j++) {
                String status = patterns.get(j).path("status").asText("True");
                if (!CONDITION_STATUSES.contains(status)) {
                    errors.add(FieldError.notSupported(at + ".onPodConditions[" + j + "].status", status,
                            CONDITION_STATUSES));
                }
            }
            if (onExitCodes && onConditions) {
                errors.add(FieldError.invalidWithoutValue(at,
                        "specifying both OnExitCodes and OnPodConditions is not supported"));
            } else if (!onExitCodes && !onConditions) {
                errors.add(FieldError.invalidWithoutValue(at,
                        "specifying one of OnExitCodes and OnPodConditions is required"));
            }
        }
    }

    private static void exitCodes(JsonNode onExitCodes, String at, Set<String> containers, List<FieldError> errors) {
        String operator = onExitCodes.path("operator").asText("");
        if (operator.isEmpty()) {
            errors.add(FieldError.required(at + ".operator", "valid values: " + goList(OPERATORS)));
        } else if (!OPERATORS.contains(operator)) {
            errors.add(FieldError.notSupported(at + ".operator", operator, OPERATORS));
        }
        String container = onExitCodes.path("containerName").asText(null);
        if (container != null && !containers.contains(container)) {
            errors.add(FieldError.invalid(at + ".containerName", container,
                    "must be one of the container or initContainer names in the pod template"));
        }
        List<Long> values = new ArrayList<>();
        onExitCodes.path("values").forEach(value -> values.add(value.asLong()));
        String int32s = "[]int32{" + values.stream().map(String::valueOf).collect(Collectors.joining(", ")) + "}";
        if (values.isEmpty()) {
            errors.add(FieldError.invalidRendered(at + ".values", int32s, "at least one value is required"));
        }
        Set<Long> seen = new HashSet<>();
        boolean ordered = true;
        for (int j = 0; j < values.size(); j++) {
            long value = values.get(j);
            if (operator.equals("In") && value == 0) {
                errors.add(FieldError.invalid(at + ".values[" + j + "]", value, "must not be 0 for the In operator"));
            }
            if (!seen.add(value)) {
                errors.add(FieldError.duplicate(at + ".values[" + j + "]", value));
            }
            ordered &= j == 0 || values.get(j - 1) <= value;
        }
        if (!ordered) {
            errors.add(FieldError.invalidRendered(at + ".values", int32s, "must be ordered"));
        }
    }

    /** Go's {@code %q} of a string slice: {@code ["Count" "FailIndex"]}. */
    private static String goList(List<String> values) {
        return values.stream().map(FieldError::quoted).collect(Collectors.joining(" ", "[", "]"));
    }
}
