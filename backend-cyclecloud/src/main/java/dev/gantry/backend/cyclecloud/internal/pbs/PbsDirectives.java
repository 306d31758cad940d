package dev.gantry.backend.cyclecloud.internal.pbs;

import dev.gantry.api.backend.JobDependency;
import dev.gantry.backend.cyclecloud.internal.DirectiveHeader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The {@code #PBS} header of a job's script for PBS Professional / OpenPBS qsub, rendered from what the backend
 * decided for it: a pure function with golden tests, following qsub(1B) and pbs_job_attributes(7B) of OpenPBS.
 * The environment never travels through the scheduler: there is no {@code -V} (and no {@code -v}); the job reads its
 * secrets from a 0600 file in its directory. Spot plans are rerunnable ({@code -r y}), so that PBS can requeue the
 * job when its node fails instead of ending it (and a job that is not is never run twice).
 *
 * <p>Resources are one chunk per node, {@code -l select=N:ncpus=C:ngpus=G:mem=Mmb}, placed one per host
 * ({@code scatter}) when there are several, on whole hosts ({@code :excl}) when the plan is exclusive. PBS knows
 * {@code afterok} and {@code afterany} itself: dependencies go to {@code -W depend=}.
 *
 * @param name the job's name ({@code Job_Name}, derived from the idempotency key)
 * @param queue the queue, if not the server's default
 * @param account the account string ({@code -A}, {@code Account_Name}), if any
 * @param chunks how many chunks, one per node
 * @param cpusPerChunk CPUs per chunk ({@code ncpus})
 * @param gpusPerChunk GPUs per chunk ({@code ngpus}); 0 for none, when it is left out
 * @param memoryMibPerChunk memory per chunk in MiB; 0 to leave it to the queue's default
 * @param exclusive whole hosts for the job
 * @param walltime the job's walltime limit; empty: the queue's
 * @param jobDirectory the job's directory on the cluster, where its output goes
 * @param rerunnable whether PBS may run the job again after its node fails (Spot plans)
 * @param dependencies the jobs this one waits for
 */
public record PbsDirectives(String name, Optional<String> queue, Optional<String> account, int chunks,
                            int cpusPerChunk, int gpusPerChunk, long memoryMibPerChunk, boolean exclusive,
                            Optional<Duration> walltime, String jobDirectory, boolean rerunnable,
                            List<Dependency> dependencies) {
    private static final DirectiveHeader HEADER = DirectiveHeader.PBS;
    /**
     * A job name as qsub(1B) allows it ("an alphabetic or numeric character followed by printable, non-white-space
     * characters", at most 236), narrowed to one word.
     */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._%+=-]{0,235}");
    /** A queue, with or without its server ({@code workq}, {@code workq@server}). */
    private static final Pattern QUEUE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*(@[A-Za-z0-9._-]+)?");

    /** A job this one waits for. */
    public record Dependency(JobDependency.Condition condition, String jobId) {
        /** {@code 123}, {@code 123.server}, {@code 123[].server} (an array), {@code 123[4].server} (a subjob). */
        private static final Pattern JOB_ID = Pattern.compile("[0-9]+(\\[[0-9]*\\])?(\\.[A-Za-z0-9.-]+)?");

        public Dependency {
            Objects.requireNonNull(condition, "condition");
            if (!JOB_ID.matcher(jobId).matches()) {
                throw new IllegalArgumentException("not a PBS job id: '" + jobId + "'");
            }
        }
    }

    public PbsDirectives {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("name '" + name + "' is not a PBS job name of one word: a letter or "
                    + "digit, then up to 235 of letters, digits and ._%+=-");
        }
        queue.ifPresent(q -> {
            if (!QUEUE.matcher(q).matches()) {
                throw new IllegalArgumentException("queue '" + q + "' is not a PBS queue name ([queue][@server])");
            }
        });
        account.ifPresent(a -> HEADER.word("account", a));
        HEADER.jobDirectory(jobDirectory);
        if (chunks < 1 || cpusPerChunk < 1 || gpusPerChunk < 0 || memoryMibPerChunk < 0) {
            throw new IllegalArgumentException("chunks and CPUs are at least 1, GPUs and memory at least 0");
        }
        DirectiveHeader.positive("a walltime", walltime);
        dependencies = List.copyOf(dependencies);
    }

    /** The header lines, in a fixed order. */
    public List<String> lines() {
        List<String> options = new ArrayList<>();
        options.add("-N " + name);
        queue.ifPresent(q -> options.add("-q " + q));
        account.ifPresent(a -> options.add("-A " + a));
        options.add("-l select=" + select());
        options.add("-l place=" + place());
        walltime.ifPresent(t -> options.add("-l walltime=" + DirectiveHeader.clock(t)));
        if (!dependencies.isEmpty()) {
            options.add("-W depend=" + depend());
        }
        options.add("-r " + (rerunnable ? "y" : "n"));
        // Not merged: standard error stays apart from the output. PBS does not expand variables in these paths.
        options.add("-j n");
        options.add("-o " + jobDirectory + "/pbs.out");
        options.add("-e " + jobDirectory + "/pbs.err");
        return HEADER.lines(options);
    }

    /** {@code N:ncpus=C[:ngpus=G][:mem=Mmb]}: PBS sizes count in 1024s (qstat's size conversion), so mb is MiB. */
    private String select() {
        StringBuilder chunk = new StringBuilder().append(chunks).append(":ncpus=").append(cpusPerChunk);
        if (gpusPerChunk > 0) {
            chunk.append(":ngpus=").append(gpusPerChunk);
        }
        if (memoryMibPerChunk > 0) {
            chunk.append(":mem=").append(memoryMibPerChunk).append("mb");
        }
        return chunk.toString();
    }

    /** One chunk per host when there are several (a rank per node); whole hosts when exclusive. */
    private String place() {
        return (chunks > 1 ? "scatter" : "free") + (exclusive ? ":excl" : "");
    }

    /** {@code afterok:ID:ID,afterany:ID}: the jobs of each type together, afterok first. */
    private String depend() {
        List<String> groups = new ArrayList<>();
        for (JobDependency.Condition condition : JobDependency.Condition.values()) {
            List<String> ids = dependencies.stream().filter(d -> d.condition() == condition)
                    .map(Dependency::jobId).toList();
            if (!ids.isEmpty()) {
                groups.add(type(condition) + ":" + String.join(":", ids));
            }
        }
        return String.join(",", groups);
    }

    /** The dependency type of {@code -W depend=} for a condition: PBS has both natively. */
    static String type(JobDependency.Condition condition) {
        return switch (condition) {
            case AFTER_SUCCESS -> "afterok";
            case AFTER_ANY -> "afterany";
        };
    }
}
