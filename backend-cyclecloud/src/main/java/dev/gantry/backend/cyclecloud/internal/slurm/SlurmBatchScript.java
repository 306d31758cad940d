package dev.gantry.backend.cyclecloud.internal.slurm;

import dev.gantry.backend.cyclecloud.internal.login.BatchSubmit;
import dev.gantry.backend.cyclecloud.internal.login.JobScripts;
import dev.gantry.backend.cyclecloud.internal.login.LoginScript;
import dev.gantry.ssh.ShellQuoting;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A job's batch script, rendered from its directives and command: a pure function with golden tests. The script
 * holds no variable value and no secret: it reads the job's environment from the 0600 file {@code env} beside it
 * (Slurm keeps every submitted script under its state directory and shows it to {@code scontrol write batch_script}).
 * The command's words are quoted one by one and reach the workload's process as its arguments, never as shell text.
 *
 * <p>What it does on every run (a requeued job runs it again): records {@code started} (Slurm job id, run number,
 * time), loads the environment, sets {@code GANTRY_RESUME=1} on a rerun, finds the first node's address for
 * {@code MASTER_ADDR}, starts one rank per node with {@code srun} (each rank's stdout and stderr in
 * {@code rank-N.out} and {@code rank-N.err}), then records {@code exit} (code, time, run number) and removes the
 * environment file.
 *
 * @param directives the {@code #SBATCH} header
 * @param jobId Gantry's id of the job, for the comment that says what the script is
 * @param jobDirectory the job's directory on the cluster's shared file system
 * @param slurmBin the directory of Slurm's commands on the nodes, ending in {@code /}; empty: their PATH
 * @param workingDirectory the workload's working directory; empty: the user's home directory
 * @param command the workload's command, one word per element
 * @param container the container the ranks run in, through Pyxis; empty: on the node itself
 */
public record SlurmBatchScript(SbatchDirectives directives, String jobId, String jobDirectory, String slurmBin,
                               Optional<String> workingDirectory, List<String> command,
                               Optional<PyxisContainer> container) implements BatchSubmit.BatchScript {
    private static final String COMMON = JobScripts.common(LoginScript.resource(SlurmBatchScript.class,
            "batch-body.sh"));

    /** Where the job's output goes, per rank: srun replaces {@code %t} with the rank. */
    public static final String RANK_STDOUT = "rank-%t.out";
    public static final String RANK_STDERR = "rank-%t.err";

    public SlurmBatchScript {
        Objects.requireNonNull(directives, "directives");
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(jobDirectory, "jobDirectory");
        Objects.requireNonNull(slurmBin, "slurmBin");
        Objects.requireNonNull(workingDirectory, "workingDirectory");
        Objects.requireNonNull(container, "container");
        command = List.copyOf(command);
        if (command.isEmpty()) {
            throw new IllegalArgumentException("a job has a command");
        }
        if (!slurmBin.isEmpty() && !slurmBin.endsWith("/")) {
            throw new IllegalArgumentException("slurmBin ends in '/': " + slurmBin);
        }
    }

    /** The script's text: {@link #head()}, then {@link #common()}, then {@link #tail()}. */
    public String text() {
        return head() + common() + tail();
    }

    /** This job's own first lines: the directives and the job's directory. */
    @Override
    public String head() {
        StringBuilder text = JobScripts.head(directives.lines(), jobId, jobDirectory);
        text.append("slurm_bin=").append(ShellQuoting.quote(slurmBin)).append('\n');
        return text.toString();
    }

    /**
     * The middle of every job's script, the same for all of them (the rank script and the body): a fan-out sends it
     * once and the login node joins it to each job's head and tail.
     */
    public static String common() {
        return COMMON;
    }

    /** This job's own last lines: its srun line. */
    @Override
    public String tail() {
        return String.join(" ", srun()) + " </dev/null &\nwait $!\nfinish $?\n";
    }

    /** The srun line, word by word as the script spells them. */
    List<String> srun() {
        List<String> words = new ArrayList<>();
        words.add("\"${slurm_bin}srun\"");
        // The job's environment was loaded above; --export=NONE on sbatch would otherwise reach srun too.
        words.add("--export=ALL");
        words.add("--ntasks-per-node=" + directives.tasksPerNode());
        words.add("--kill-on-bad-exit=1");
        words.add("--output=\"$job_dir/" + RANK_STDOUT + "\"");
        words.add("--error=\"$job_dir/" + RANK_STDERR + "\"");
        container.ifPresent(c -> words.addAll(c.srunOptions(jobDirectory, workingDirectory)));
        words.add("--");
        words.add("/bin/sh");
        words.add("-c");
        words.add("\"$rank_script\"");
        words.add("gantry-rank");
        words.add("\"$job_dir\"");
        // In a container the ranks start where it puts them (--container-workdir, else the image's WORKDIR).
        words.add(ShellQuoting.quote(workingDirectory.orElse(container.isPresent() ? "-" : "")));
        for (String word : command) {
            words.add(ShellQuoting.quote(word));
        }
        return words;
    }
}
