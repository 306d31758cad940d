package dev.gantry.backend.aks.internal.render;

import java.util.ArrayList;
import java.util.List;

/**
 * The fixed start of every rank: {@code /bin/sh -c SHIM gantry-rank ARGV...}. The shim only marks a rerun of a
 * requeued rank as resuming ({@code GANTRY_RESUME=1}, since the Job controller replaced its evicted pod and the
 * downward API hands it the count of ignored failures) and then {@code exec}s the workload's argv unchanged: no
 * workload text is ever part of the shim, so nothing of it passes through a shell.
 */
public final class RankShim {
    /** Where the downward API puts {@value #IGNORED_FAILURES_ANNOTATION}: empty or 0 on a first run. */
    public static final String REQUEUES_VARIABLE = "GANTRY_RANK_REQUEUES";
    /** The annotation the Job controller sets on the replacement of a pod whose failure a rule ignored. */
    public static final String IGNORED_FAILURES_ANNOTATION = "batch.kubernetes.io/job-index-ignored-failure-count";
    /** The program name the shell reports its errors under ({@code $0}). */
    public static final String NAME = "gantry-rank";
    /** The shim as the shell runs it. */
    public static final String SCRIPT = "[ \"${" + REQUEUES_VARIABLE + ":-0}\" = 0 ] || export GANTRY_RESUME=1; "
            + "exec \"$@\"";
    /** The shell every image must have. */
    public static final String SHELL = "/bin/sh";
    /** Where the workload's argv starts in the container's command. */
    public static final int ARGV_START = 4;

    private RankShim() {
    }

    /** The container's command: the shim, then the argv, every {@code $} doubled for the kubelet. */
    public static List<String> command(List<String> argv) {
        List<String> command = new ArrayList<>(List.of(SHELL, "-c", SCRIPT, NAME));
        command.addAll(argv);
        return KubeText.verbatim(command);
    }
}
