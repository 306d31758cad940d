package dev.gantry.backend.aks.internal.state;

import dev.gantry.api.backend.Eviction;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.backend.aks.internal.render.JobManifest;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why a failed Job failed, and whether that was the workload's doing (FAILED) or its capacity's (PREEMPTED): a
 * {@code DisruptionTarget} condition, or a pod ended by a signal (137, 143) while its node was going away or after
 * someone deleted it, is an eviction; an exit code, a runtime error or an OOM kill is the workload's.
 */
final class JobFailure {
    static final int COMMAND_NOT_FOUND = 127;
    static final int NOT_EXECUTABLE = 126;
    static final int SIGKILL = 137;
    static final int SIGTERM = 143;
    /** The pod the Job controller's failure message names: {@code ... pod NAMESPACE/NAME ...}. */
    private static final Pattern POD = Pattern.compile("[Pp]od ([a-z0-9.-]+)/([a-z0-9.-]+)");
    private static final Pattern EXIT_CODE = Pattern.compile("exit code (\\d+)");

    private JobFailure() {
    }

    /**
     * The status of a failed Job.
     *
     * @param failed its {@code Failed} (or {@code FailureTarget}) condition
     * @param ranks its number of ranks: messages name the rank only when there are several
     */
    static JobStatus of(JobCondition failed, int ranks, List<Pod> pods, Map<String, Node> nodes, Requeues requeues,
                        Optional<Instant> started) {
        Optional<Instant> ended = PodFacts.time(failed.getLastTransitionTime());
        String reason = Optional.ofNullable(failed.getReason()).orElse("Failed");
        String message = Optional.ofNullable(failed.getMessage()).orElse("");
        if (reason.equals("DeadlineExceeded")) {
            return status(JobState.FAILED, OptionalInt.empty(), "ran longer than its deadline: " + message, started,
                    ended, requeues);
        }
        Optional<Pod> culprit = culprit(message, pods);
        Optional<PodCondition> disruption = culprit.flatMap(p -> PodFacts.condition(p, JobManifest.DISRUPTION_TARGET));
        if (disruption.isPresent()) {
            return preempted(Requeues.eviction(disruption.get()), culprit.get(), ended, started, requeues);
        }
        if (message.contains(JobManifest.DISRUPTION_TARGET)) {
            return preempted(new Eviction(ended.orElse(Instant.EPOCH), JobManifest.DISRUPTION_TARGET + ": " + message),
                    null, ended, started, requeues);
        }
        Optional<ContainerStateTerminated> terminated = culprit.flatMap(PodFacts::terminated);
        OptionalInt exit = terminated.map(t -> t.getExitCode()).map(OptionalInt::of)
                .orElseGet(() -> exitCodeIn(message));
        String rank = culprit.filter(p -> ranks > 1).flatMap(p -> PodFacts.rank(p).stream().boxed().findFirst())
                .map(r -> "rank " + r + ": ").orElse("");
        if (terminated.map(t -> "OOMKilled".equals(t.getReason())).orElse(false)) {
            return status(JobState.FAILED, exit, rank + "out of memory: killed at its memory limit", started, ended,
                    requeues);
        }
        if (capacityWentAway(culprit, nodes, exit)) {
            String why = culprit.map(p -> evictionCause(p, nodes)).orElse("its pod was deleted");
            return preempted(new Eviction(ended.orElse(Instant.EPOCH), "ended by signal without DisruptionTarget: "
                    + why), culprit.orElse(null), ended, started, requeues);
        }
        if (terminated.map(t -> "StartError".equals(t.getReason())).orElse(false)) {
            String runtime = Optional.ofNullable(terminated.get().getMessage()).orElse("");
            String text = runtime.contains("/bin/sh") ? "the image has no /bin/sh, which Gantry starts every rank "
                    + "with: " + runtime : "could not start: " + runtime;
            return status(JobState.FAILED, exit, rank + text, started, ended, requeues);
        }
        if (exit.isPresent()) {
            String program = culprit.flatMap(PodFacts::program).orElse("the program");
            return status(JobState.FAILED, exit, rank + exited(exit.getAsInt(), program), started, ended, requeues);
        }
        if (culprit.isEmpty() || PodFacts.deleted(culprit.get())) {
            return preempted(new Eviction(ended.orElse(Instant.EPOCH), "pod gone before it ended: " + reason + ": "
                    + message), culprit.orElse(null), ended, started, requeues);
        }
        return status(JobState.FAILED, exit, reason + ": " + message, started, ended, requeues);
    }

    /** Words for an exit code, as the manual backend gives them. */
    static String exited(int code, String program) {
        return switch (code) {
            case COMMAND_NOT_FOUND -> "command not found: " + program;
            case NOT_EXECUTABLE -> "command not executable (permission denied?): " + program;
            default -> code > 128 && code < 160 ? "exited with code " + code + " (killed by signal " + (code - 128)
                    + ")" : "exited with code " + code;
        };
    }

    /**
     * A pod ended by SIGKILL or SIGTERM (or without an exit code) that was deleted by someone (Gantry deletes only
     * Jobs it cancels, which never come here), whose node is gone, or whose node was being deleted: its capacity was
     * taken, whatever the condition says.
     */
    private static boolean capacityWentAway(Optional<Pod> culprit, Map<String, Node> nodes, OptionalInt exit) {
        boolean signalled = exit.isPresent() && (exit.getAsInt() == SIGKILL || exit.getAsInt() == SIGTERM);
        if (!signalled) {
            return false;
        }
        if (culprit.isEmpty() || PodFacts.deleted(culprit.get())) {
            return true;
        }
        Optional<String> node = PodFacts.nodeName(culprit.get());
        return node.isPresent() && (!nodes.containsKey(node.get()) || PodFacts.deleted(nodes.get(node.get())));
    }

    private static String evictionCause(Pod pod, Map<String, Node> nodes) {
        Optional<String> node = PodFacts.nodeName(pod);
        if (node.isPresent() && !nodes.containsKey(node.get())) {
            return "its node " + node.get() + " is gone";
        }
        if (node.isPresent() && PodFacts.deleted(nodes.get(node.get()))) {
            return "its node " + node.get() + " was being deleted";
        }
        return "its pod " + PodFacts.name(pod) + " was deleted";
    }

    private static JobStatus preempted(Eviction eviction, Pod pod, Optional<Instant> ended, Optional<Instant> started,
                                       Requeues requeues) {
        String rank = pod == null ? "" : PodFacts.rank(pod).stream().boxed().findFirst()
                .map(r -> " (rank " + r + ")").orElse("");
        return new JobStatus(JobState.PREEMPTED, OptionalInt.empty(), "evicted" + rank + ": " + eviction.reason()
                + "; resumable from its last checkpoint", started, ended, requeues.count() + 1, Optional.of(eviction));
    }

    private static JobStatus status(JobState state, OptionalInt exit, String message, Optional<Instant> started,
                                    Optional<Instant> ended, Requeues requeues) {
        return new JobStatus(state, exit, message, started, ended, requeues.count(), requeues.last());
    }

    /** The failed pod the Job's condition names, else the newest failed pod. */
    private static Optional<Pod> culprit(String message, List<Pod> pods) {
        Matcher named = POD.matcher(message);
        if (named.find()) {
            String name = named.group(2);
            return pods.stream().filter(p -> PodFacts.name(p).equals(name)).findFirst();
        }
        return pods.stream().filter(p -> PodFacts.phase(p).equals("Failed")).min(PodFacts.newestFirst());
    }

    private static OptionalInt exitCodeIn(String message) {
        Matcher m = EXIT_CODE.matcher(message);
        return m.find() ? OptionalInt.of(Integer.parseInt(m.group(1))) : OptionalInt.empty();
    }
}
