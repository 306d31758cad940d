package dev.gantry.backend.cyclecloud.internal.gridengine;

import dev.gantry.api.backend.JobDependency;
import dev.gantry.backend.cyclecloud.internal.DirectiveHeader;
import dev.gantry.backend.cyclecloud.internal.login.ClusterJobs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code #$} header of a job's script for Grid Engine's qsub, rendered from what the backend decided for it: a
 * pure function with golden tests. The environment never travels through the scheduler: there is no {@code -V} (and
 * no {@code -v}); the job reads its secrets from a 0600 file in its directory. Spot plans are rerunnable
 * ({@code -r y}) so that Grid Engine reschedules the job after its host is lost instead of ending it; it does so only
 * where the cluster sets {@code reschedule_unknown} (sge_conf(5); its default, 00:00:00, never reschedules).
 *
 * <p>No directive changes what qsub answers, so {@code qsub -terse} prints the job id alone ({@code 2}, or
 * {@code 6.1-4:1} for an array): the header never holds {@code -sync}, {@code -now}, {@code -verify} or {@code -terse}
 * itself.
 *
 * <p><b>Dependencies.</b> Grid Engine knows one kind of dependency: {@code -hold_jid} holds the job until the jobs
 * named have left the system, however they ended ({@link JobDependency.Condition#AFTER_ANY}). An
 * {@link JobDependency.Condition#AFTER_SUCCESS} dependency is rendered as the same hold, and <em>the caller checks the
 * dependency's exit itself</em> (qacct's {@code exit_status} and {@code failed}, see {@link QacctRecord}) before it
 * lets the dependent job run, deleting it when the dependency did not succeed; {@link #dependenciesCheckedByCaller()}
 * lists them. Grid Engine 8.1.9 accepts a hold on a job id it no longer knows (ended and gone) and drops it, so the
 * dependent job starts at once. Its one other lever, a dependency that exits with 100 keeps the dependent job held
 * (sge_submit(1)), is not used: it also leaves the failed dependency queued in error state.
 *
 * @param name the job's name as qstat shows it (derived from the idempotency key)
 * @param queue the cluster queue, if not the cluster's default
 * @param project the project charged ({@code -P}, Grid Engine's account), if any
 * @param slots how many slots; more than one needs a parallel environment
 * @param parallelEnvironment the parallel environment for a multi-slot or multi-node job ({@code smpslots},
 *        {@code mpi} on CycleCloud); its allocation rule decides how slots spread over hosts
 * @param timeLimit the hard run-time limit ({@code h_rt}); empty: the queue's
 * @param memoryPerSlotMib memory per slot in MiB, as the memory complex counts it; 0 to ask for none
 * @param memoryComplex the complex that carries the memory request: {@code h_vmem} (a limit) or a consumable such as
 *        {@code m_mem_free}, as the cluster configures it
 * @param gpus the value asked of the GPU complex; 0 for none. Grid Engine multiplies a per-slot consumable
 *        ({@code consumable YES}) by the slot count, so this is per slot there and per job for a
 *        {@code consumable JOB} complex
 * @param gpuComplex the complex that counts GPUs ({@code gpu} by convention)
 * @param exclusive whole hosts for the job ({@code -l exclusive=true}, the EXCL complex CycleCloud defines)
 * @param jobDirectory the job's directory on the cluster: its working directory and where its output goes
 * @param rerunnable whether Grid Engine may run the job again after its host is lost (Spot plans)
 * @param dependencies the jobs this one waits for
 */
public record QsubDirectives(String name, Optional<String> queue, Optional<String> project, int slots,
                             Optional<String> parallelEnvironment, Optional<Duration> timeLimit,
                             long memoryPerSlotMib, String memoryComplex, int gpus, String gpuComplex,
                             boolean exclusive, String jobDirectory, boolean rerunnable,
                             List<Dependency> dependencies) {
    /** qsub splits a {@code #$} line into words as a shell would; {@code $} would also be expanded at run time. */
    private static final DirectiveHeader HEADER = DirectiveHeader.QSUB;
    /**
     * A name as sge_types(5) defines it for jobs, projects and parallel environments, narrowed to one word: no
     * {@code / : @ \ * ?}. A job name also may not start with a digit, which would read as a job number.
     */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._%+=,-]+");
    /** Complex names as complex(5) allows them; they are also the left side of a {@code -l} request. */
    private static final Pattern COMPLEX = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** The dependency conditions Grid Engine honours by itself; the others the caller checks. */
    public static final Set<JobDependency.Condition> NATIVE_CONDITIONS =
            Set.copyOf(EnumSet.of(JobDependency.Condition.AFTER_ANY));

    /**
     * A job this one waits for, by Grid Engine job number, or by the placeholder of the number recorded in its
     * directory ({@link ClusterJobs#recordedIdOf}), which the submit script fills in.
     */
    public record Dependency(JobDependency.Condition condition, String jobNumber) {
        public Dependency {
            Objects.requireNonNull(condition, "condition");
            // A job number, not a name or a pattern: -hold_jid also takes those, and they would match other jobs.
            if (!jobNumber.matches("[1-9][0-9]*") && !ClusterJobs.isRecordedId(jobNumber)) {
                throw new IllegalArgumentException("not a Grid Engine job number or the placeholder of a recorded "
                        + "one: '" + jobNumber + "'");
            }
        }

        /** Whether Grid Engine enforces the condition itself ({@code -hold_jid} is "after any end"). */
        public boolean isNative() {
            return NATIVE_CONDITIONS.contains(condition);
        }
    }

    public QsubDirectives {
        name("name", name);
        if (Character.isDigit(name.charAt(0))) {
            throw new IllegalArgumentException("name '" + name + "' starts with a digit, which Grid Engine reads as a "
                    + "job number");
        }
        queue.ifPresent(q -> HEADER.word("queue", q));
        project.ifPresent(p -> name("project", p));
        parallelEnvironment.ifPresent(pe -> name("parallelEnvironment", pe));
        complex("memoryComplex", memoryComplex);
        complex("gpuComplex", gpuComplex);
        HEADER.jobDirectory(jobDirectory);
        if (slots < 1 || gpus < 0 || memoryPerSlotMib < 0) {
            throw new IllegalArgumentException("slots are at least 1, GPUs and memory at least 0");
        }
        // Without a parallel environment Grid Engine grants one slot, whatever else was asked.
        if (slots > 1 && parallelEnvironment.isEmpty()) {
            throw new IllegalArgumentException(slots + " slots need a parallel environment (-pe)");
        }
        DirectiveHeader.positive("a time limit", timeLimit);
        dependencies = List.copyOf(dependencies);
    }

    /** The header lines, in a fixed order. */
    public List<String> lines() {
        List<String> options = new ArrayList<>();
        options.add("-N " + name);
        queue.ifPresent(q -> options.add("-q " + q));
        project.ifPresent(p -> options.add("-P " + p));
        parallelEnvironment.ifPresent(pe -> options.add("-pe " + pe + " " + slots));
        timeLimit.ifPresent(t -> options.add("-l h_rt=" + DirectiveHeader.clock(t)));
        if (memoryPerSlotMib > 0) {
            options.add("-l " + memoryComplex + "=" + memoryPerSlotMib + "M");
        }
        if (gpus > 0) {
            options.add("-l " + gpuComplex + "=" + gpus);
        }
        if (exclusive) {
            options.add("-l exclusive=true");
        }
        if (!dependencies.isEmpty()) {
            options.add("-hold_jid " + String.join(",", dependencies.stream().map(Dependency::jobNumber).toList()));
        }
        options.add("-r " + (rerunnable ? "y" : "n"));
        // $JOB_ID is one of the pseudo variables qsub expands in -o and -e paths; a rerun appends to the same files.
        options.add("-o " + jobDirectory + "/gridengine-$JOB_ID.out");
        options.add("-e " + jobDirectory + "/gridengine-$JOB_ID.err");
        options.add("-wd " + jobDirectory);
        options.add("-S /bin/bash");
        return HEADER.lines(options);
    }

    /** The dependencies Grid Engine only holds for: the caller checks that they succeeded. */
    public List<Dependency> dependenciesCheckedByCaller() {
        return dependencies.stream().filter(d -> !d.isNative()).toList();
    }

    private static void name(String field, String value) {
        if (!NAME.matcher(value).matches()) {
            throw new IllegalArgumentException(field + " '" + value + "' is not one word of letters, digits and "
                    + "._%+=,-, which a #$ line can carry and Grid Engine takes as a name");
        }
    }

    private static void complex(String field, String value) {
        if (!COMPLEX.matcher(value).matches()) {
            throw new IllegalArgumentException(field + " '" + value + "' is not a Grid Engine complex name");
        }
    }
}
