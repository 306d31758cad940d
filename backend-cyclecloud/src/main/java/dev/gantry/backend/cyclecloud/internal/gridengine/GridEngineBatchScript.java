package dev.gantry.backend.cyclecloud.internal.gridengine;

import dev.gantry.backend.cyclecloud.internal.login.BatchSubmit;
import dev.gantry.backend.cyclecloud.internal.login.JobScripts;
import dev.gantry.backend.cyclecloud.internal.login.LoginScript;
import dev.gantry.ssh.ShellQuoting;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A job's batch script for Grid Engine, rendered from its directives and command: a pure function with golden
 * tests. Like Slurm's, it holds no variable value and no secret (the qmaster spools every script): it reads the
 * job's environment from the 0600 file {@code env} beside it. The command's words are quoted one by one, each on
 * one line of the script ({@link #oneLine}), and reach the workload's process as its arguments, never as shell text
 * and never as a {@code #$} line.
 *
 * <p>What it does on every run (a rescheduled job runs it again, with {@code RESTARTED=1}): records {@code started}
 * (job number, run number, time); checks that the dependencies it needs to have succeeded did ({@code -hold_jid}
 * only waits for them to end), else records {@code unsatisfied} and runs nothing; loads the environment; sets
 * {@code GANTRY_RESUME=1} on a rerun; runs one rank per host, rank 0 on the job's own host and the others through
 * {@code qrsh -inherit} on the other hosts of its parallel environment ({@code node.sh}), each with its stdout and
 * stderr in {@code rank-N.out} and {@code rank-N.err}; records {@code exit} (the first failing rank's status) and
 * removes the environment file.
 *
 * @param directives the {@code #$} header
 * @param jobId Gantry's id of the job
 * @param jobDirectory the job's directory on the cluster's shared file system
 * @param nodes the hosts the job spans, one rank each; more than one needs a parallel environment that grants a
 *     fixed number of slots per host
 * @param geBin the directory of Grid Engine's commands on the nodes, ending in {@code /}; empty: their PATH
 * @param requireSuccess Gantry's ids of the jobs this one runs only after they succeeded
 * @param workingDirectory the workload's working directory; empty: the user's home directory
 * @param command the workload's command, one word per element
 */
public record GridEngineBatchScript(QsubDirectives directives, String jobId, String jobDirectory, int nodes,
                                    String geBin,
                                    List<String> requireSuccess, Optional<String> workingDirectory,
                                    List<String> command) implements BatchSubmit.BatchScript {
    private static final String COMMON = JobScripts.common("node_script=" + ShellQuoting.quote(LoginScript.resource(
            GridEngineBatchScript.class, "node.sh")) + "\n" + LoginScript.resource(GridEngineBatchScript.class,
            "batch-body.sh"));

    public GridEngineBatchScript {
        Objects.requireNonNull(directives, "directives");
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(jobDirectory, "jobDirectory");
        Objects.requireNonNull(geBin, "geBin");
        Objects.requireNonNull(workingDirectory, "workingDirectory");
        if (nodes < 1) {
            throw new IllegalArgumentException("a job spans at least one host: " + nodes);
        }
        if (nodes > 1 && directives.parallelEnvironment().isEmpty()) {
            throw new IllegalArgumentException(nodes + " hosts need a parallel environment (-pe)");
        }
        requireSuccess = List.copyOf(requireSuccess);
        for (String id : requireSuccess) {
            // They are words of a for loop: Gantry's ids, never anything a shell would split or expand.
            if (!id.matches("job-[A-Za-z0-9._-]+")) {
                throw new IllegalArgumentException("not a Gantry job id: '" + id + "'");
            }
        }
        command = List.copyOf(command);
        if (command.isEmpty()) {
            throw new IllegalArgumentException("a job has a command");
        }
        if (!geBin.isEmpty() && !geBin.endsWith("/")) {
            throw new IllegalArgumentException("geBin ends in '/': " + geBin);
        }
    }

    /** The script's text: {@link #head()}, then {@link #common()}, then {@link #tail()}. */
    public String text() {
        return head() + common() + tail();
    }

    /** This job's own first lines: the directives and the assignments the body reads. */
    @Override
    public String head() {
        StringBuilder text = JobScripts.head(directives.lines(), jobId, jobDirectory);
        text.append("nodes=").append(nodes).append('\n');
        text.append("ge_bin=").append(ShellQuoting.quote(geBin)).append('\n');
        text.append("rerunnable=").append(directives.rerunnable() ? "y" : "n").append('\n');
        text.append("require_success=").append(ShellQuoting.quote(String.join(" ", requireSuccess))).append('\n');
        return text.toString();
    }

    /** The middle of every job's script, the same for all of them: a fan-out sends it once. */
    public static String common() {
        return COMMON;
    }

    /**
     * A word quoted for bash so that it stays on one line of the script: qsub reads a {@code #$} line anywhere in
     * a script as its options, so a word with a line break followed by {@code #$ -N x} would otherwise rename the
     * job (or worse). Words without control characters are single-quoted; the others take bash's {@code $'...'}
     * form, every control character escaped.
     */
    static String oneLine(String word) {
        if (word.chars().noneMatch(c -> c < 0x20 || c == 0x7f)) {
            return ShellQuoting.quote(word);
        }
        StringBuilder quoted = new StringBuilder("$'");
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            switch (c) {
                case '\\' -> quoted.append("\\\\");
                case '\'' -> quoted.append("\\'");
                case '\n' -> quoted.append("\\n");
                case '\t' -> quoted.append("\\t");
                case '\r' -> quoted.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        quoted.append(String.format("\\x%02x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('\'').toString();
    }

    /** This job's own last lines: its ranks, then the end. */
    @Override
    public String tail() {
        List<String> words = new ArrayList<>(List.of("ranks", oneLine(workingDirectory.orElse(""))));
        command.forEach(word -> words.add(oneLine(word)));
        return String.join(" ", words) + "\nfinish $?\n";
    }
}
