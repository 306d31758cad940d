package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyOnExitCodesRequirement;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyOnPodConditionsPattern;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A Job's {@code podFailurePolicy} applied to one failed pod, as the Job controller's matchPodFailurePolicy does:
 * the first matching rule decides; exit-code rules look at terminated containers with a non-zero exit code
 * (init containers first), condition rules at the pod's conditions; no match counts the failure.
 */
final class PodFailurePolicy {
    enum Action { FAIL_JOB, FAIL_INDEX, IGNORE, COUNT }

    /** The action and, for FailJob, the message the Job's conditions carry. */
    record Outcome(Action action, String message) {
        boolean counts() {
            return action != Action.IGNORE;
        }
    }

    private PodFailurePolicy() {
    }

    static Outcome evaluate(Job job, Pod pod) {
        if (job.getSpec().getPodFailurePolicy() == null) {
            return new Outcome(Action.COUNT, "");
        }
        List<PodFailurePolicyRule> rules = job.getSpec().getPodFailurePolicy().getRules();
        for (int index = 0; index < rules.size(); index++) {
            PodFailurePolicyRule rule = rules.get(index);
            Action action = action(rule.getAction());
            if (rule.getOnExitCodes() != null) {
                Optional<ContainerStatus> container = matchingContainer(pod, rule.getOnExitCodes());
                if (container.isPresent()) {
                    return new Outcome(action, "Container " + container.get().getName() + " for pod "
                            + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName()
                            + " failed with exit code " + container.get().getState().getTerminated().getExitCode()
                            + " matching " + rule.getAction() + " rule at index " + index);
                }
            } else if (!rule.getOnPodConditions().isEmpty()) {
                Optional<PodCondition> condition = matchingCondition(pod, rule.getOnPodConditions());
                if (condition.isPresent()) {
                    return new Outcome(action, "Pod " + pod.getMetadata().getNamespace() + "/"
                            + pod.getMetadata().getName() + " has condition " + condition.get().getType()
                            + " matching " + rule.getAction() + " rule at index " + index);
                }
            }
        }
        return new Outcome(Action.COUNT, "");
    }

    private static Action action(String action) {
        return switch (action) {
            case "FailJob" -> Action.FAIL_JOB;
            case "FailIndex" -> Action.FAIL_INDEX;
            case "Ignore" -> Action.IGNORE;
            case "Count" -> Action.COUNT;
            default -> throw new IllegalArgumentException("unknown podFailurePolicy action " + action);
        };
    }

    private static Optional<ContainerStatus> matchingContainer(Pod pod,
            PodFailurePolicyOnExitCodesRequirement requirement) {
        List<ContainerStatus> statuses = new ArrayList<>(pod.getStatus().getInitContainerStatuses());
        statuses.addAll(pod.getStatus().getContainerStatuses());
        for (ContainerStatus status : statuses) {
            if (status.getState() == null || status.getState().getTerminated() == null) {
                continue;
            }
            if (requirement.getContainerName() != null && !requirement.getContainerName().equals(status.getName())) {
                continue;
            }
            int exitCode = status.getState().getTerminated().getExitCode();
            if (exitCode == 0) {
                continue;
            }
            boolean in = requirement.getValues().contains(exitCode);
            if (requirement.getOperator().equals("In") == in) {
                return Optional.of(status);
            }
        }
        return Optional.empty();
    }

    private static Optional<PodCondition> matchingCondition(Pod pod,
            List<PodFailurePolicyOnPodConditionsPattern> patterns) {
        for (PodCondition condition : pod.getStatus().getConditions()) {
            for (PodFailurePolicyOnPodConditionsPattern pattern : patterns) {
                String status = pattern.getStatus() == null ? "True" : pattern.getStatus();
                if (condition.getType().equals(pattern.getType()) && status.equals(condition.getStatus())) {
                    return Optional.of(condition);
                }
            }
        }
        return Optional.empty();
    }
}
