package dev.gantry.backend.cyclecloud.internal.slurm;

import dev.gantry.backend.cyclecloud.internal.login.BatchSubmit;
import dev.gantry.ssh.ShellQuoting;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A fan-out of jobs that differ only in their idempotency key, as one Slurm job array: one {@code sbatch} for up to
 * a hundred jobs instead of one each. Every task is still its own Gantry job, with its own directory, claim,
 * environment file, {@code job.sh}, Slurm id ({@code ARRAY_TASK}), status, logs and cancel; the array is only how
 * they reach the controller. A pure function with golden tests.
 *
 * <p>The array's script is its tasks' shared header, a {@code case} that gives task N the directory of the batch's
 * job N, and then the body and srun line every task shares. The login node's submit script names the array after
 * its first task claimed there ({@code job-KEY+array}: no key's job has a {@code +} in its name) and passes
 * {@code --array} with the indices of the jobs it claimed, so a retry of a batch never submits a job twice.
 *
 * @param directives the first task's header: every task has its shape ({@link SbatchDirectives#sameArrayShape})
 * @param directory where Slurm writes each task's own output ({@code slurm-ARRAY_TASK.out}) and where the array's
 *     script is kept
 * @param jobDirectories task N's job directory, for every N of the batch
 * @param slurmBin the directory of Slurm's commands on the nodes, ending in {@code /}; empty: their PATH
 * @param common the body every job's script shares ({@link SlurmBatchScript#common()})
 * @param tail the srun line every task shares
 */
public record SlurmJobArray(SbatchDirectives directives, String directory, List<String> jobDirectories,
                            String slurmBin, String common, String tail) {
    /** Where a work directory's arrays keep their scripts and Slurm's own output of their tasks. */
    static final String ARRAYS = "arrays";

    public SlurmJobArray {
        Objects.requireNonNull(directives, "directives");
        Objects.requireNonNull(directory, "directory");
        jobDirectories = List.copyOf(jobDirectories);
        Objects.requireNonNull(slurmBin, "slurmBin");
        Objects.requireNonNull(common, "common");
        Objects.requireNonNull(tail, "tail");
        if (jobDirectories.size() < 2) {
            throw new IllegalArgumentException("an array has at least two tasks");
        }
    }

    /**
     * The batches of a fan-out: each longest run of consecutive jobs of one array shape (and one srun line) becomes
     * arrays of at most {@link BatchSubmit#BATCH} tasks; the jobs between such runs go one submit each, in batches.
     * The order of the jobs, and so of their answers, is kept.
     *
     * @param scripts each job's script, in the order of {@code jobs}
     * @param workDir the backend's work directory
     * @param arrays whether the cluster takes arrays of {@link BatchSubmit#BATCH} tasks (its MaxArraySize)
     */
    static List<BatchSubmit.Batch> batches(List<BatchSubmit.JobFiles> jobs, List<SlurmBatchScript> scripts,
                                           String workDir, boolean arrays) {
        if (jobs.size() != scripts.size()) {
            throw new IllegalArgumentException(jobs.size() + " jobs, " + scripts.size() + " scripts");
        }
        List<BatchSubmit.Batch> batches = new ArrayList<>();
        List<BatchSubmit.JobFiles> single = new ArrayList<>();
        int from = 0;
        while (from < jobs.size()) {
            int to = from + 1;
            while (arrays && to < jobs.size() && to - from < BatchSubmit.BATCH && alike(scripts.get(from),
                    scripts.get(to))) {
                to++;
            }
            if (to - from == 1) {
                single.add(jobs.get(from));
            } else {
                batches.addAll(BatchSubmit.Batch.each(single));
                single.clear();
                List<String> directories = scripts.subList(from, to).stream().map(SlurmBatchScript::jobDirectory)
                        .toList();
                SlurmBatchScript first = scripts.get(from);
                SlurmJobArray array = new SlurmJobArray(first.directives(), workDir + "/" + ARRAYS, directories,
                        first.slurmBin(), SlurmBatchScript.common(), first.tail());
                batches.add(new BatchSubmit.Batch(jobs.subList(from, to), Optional.of(array.text())));
            }
            from = to;
        }
        batches.addAll(BatchSubmit.Batch.each(single));
        return batches;
    }

    private static boolean alike(SlurmBatchScript a, SlurmBatchScript b) {
        return a.directives().sameArrayShape(b.directives()) && a.tail().equals(b.tail())
                && a.slurmBin().equals(b.slurmBin());
    }

    /** The array's script. */
    public String text() {
        StringBuilder text = new StringBuilder("#!/bin/bash\n");
        for (String line : directives.arrayLines(directory)) {
            text.append(line).append('\n');
        }
        text.append("# A Gantry job array: task N runs the Gantry job whose directory is case N below. Written by "
                + "Gantry: each job's variables and secrets are in its directory's ./env (mode 0600), never in "
                + "this script.\n");
        text.append("case ${SLURM_ARRAY_TASK_ID:-} in\n");
        for (int task = 0; task < jobDirectories.size(); task++) {
            text.append(task).append(") job_dir=").append(ShellQuoting.quote(jobDirectories.get(task)))
                    .append(" ;;\n");
        }
        text.append("*) echo \"gantry: task ${SLURM_ARRAY_TASK_ID:-?} is not one of this array's\" >&2; exit 1 ;;\n");
        text.append("esac\n");
        // A task's batch script writes its own output into its job's directory, as a single job's does.
        text.append("exec >>\"$job_dir/slurm-$SLURM_JOB_ID.out\" 2>>\"$job_dir/slurm-$SLURM_JOB_ID.err\" || exit 120\n");
        text.append("slurm_bin=").append(ShellQuoting.quote(slurmBin)).append('\n');
        return text.append(common).append(tail).toString();
    }
}
