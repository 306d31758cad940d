package dev.gantry.backend.cyclecloud.internal.slurm;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobEnvironment;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.cyclecloud.internal.CycleCloudSettings;
import dev.gantry.hosts.jobs.JobVariables;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Submits a plan as a Slurm batch job, exactly once per idempotency key: one remote command claims the job's
 * directory ({@code mkdir}, which succeeds once per key, ever), writes the environment file and the script, runs
 * sbatch and records the job id there, ignoring a hang-up so that a cut connection cannot stop it between sbatch and
 * the record. A retry finds the claim and adopts the id; when the claim's holder died before recording one, it asks
 * Slurm for the job by its name, which only that key's job has.
 */
final class SlurmSubmission {
    /** The contract's variables that are a node's own: each rank sets them from Slurm's at run time. */
    private static final List<String> PER_NODE = List.of(JobEnvironment.NODE_RANK_GANTRY, JobEnvironment.NODE_RANK,
            JobEnvironment.RANK, JobEnvironment.LOCAL_RANK, JobEnvironment.MASTER_ADDR);

    /** Jobs per remote command of a fan-out: its stdin and its run time stay bounded. */
    static final int BATCH = 100;
    private static final Duration PER_JOB = Duration.ofSeconds(1);

    private final SlurmLogin login;
    private final CycleCloudSettings settings;
    private final BackendContext context;
    private final PartitionChoice partitions;

    SlurmSubmission(SlurmLogin login, CycleCloudSettings settings, BackendContext context,
                    PartitionChoice partitions) {
        this.login = login;
        this.settings = settings;
        this.context = context;
        this.partitions = partitions;
    }

    /**
     * Every job in one remote command: its claims, environment files, scripts and sbatch calls, one after the
     * other, each answered on its own line.
     */
    List<JobRef> submitAll(List<Submission> submissions) {
        List<JobRef> refs = new ArrayList<>(submissions.size());
        for (int from = 0; from < submissions.size(); from += BATCH) {
            refs.addAll(submitBatch(submissions.subList(from, Math.min(submissions.size(), from + BATCH))));
        }
        return refs;
    }

    private List<JobRef> submitBatch(List<Submission> submissions) {
        byte[] common = SlurmBatchScript.common().getBytes(StandardCharsets.UTF_8);
        List<String> args = new ArrayList<>(List.of(login.slurmBin(), Integer.toString(common.length)));
        ByteArrayOutputStream stdin = new ByteArrayOutputStream();
        // The part of the script every job shares travels once; each job's own lines and environment follow.
        stdin.writeBytes(common);
        List<String> ids = new ArrayList<>();
        for (Submission submission : submissions) {
            Plan plan = submission.plan();
            SubmitOptions options = submission.options();
            String id = SlurmJobs.idFor(options.idempotencyKey());
            String directory = SlurmJobs.directory(settings, id);
            List<String> dependencyIds = options.dependencies().stream().map(d -> SlurmJobs.jobId(d.job())).toList();
            List<SbatchDirectives.Dependency> dependencies = new ArrayList<>();
            for (JobDependency dependency : options.dependencies()) {
                dependencies.add(new SbatchDirectives.Dependency(dependency.condition(),
                        slurmIdOf(dependency.job())));
            }
            byte[] environment = JobVariables.environmentFile(environment(plan, options, id));
            SlurmBatchScript script = script(plan, id, directory, dependencies, dependencyIds);
            byte[] head = script.head().getBytes(StandardCharsets.UTF_8);
            byte[] tail = script.tail().getBytes(StandardCharsets.UTF_8);
            // Sizes on the command line, contents on stdin: an SSH command line is bounded, stdin is not.
            args.addAll(List.of(directory, id, Integer.toString(environment.length), Integer.toString(head.length),
                    Integer.toString(tail.length)));
            stdin.writeBytes(environment);
            stdin.writeBytes(head);
            stdin.writeBytes(tail);
            ids.add(id);
        }
        // sbatch takes tens of milliseconds on a busy controller: the command's bound grows with its jobs.
        Duration limit = SlurmLogin.COMMAND_TIMEOUT.plus(PER_JOB.multipliedBy(ids.size()));
        List<String> answers = login.run(SlurmLogin.Script.SUBMIT, args, Optional.of(stdin.toByteArray()), limit)
                .lines().toList();
        List<JobRef> refs = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            if (i >= answers.size()) {
                throw new GantryException(ErrorCode.REMOTE_ERROR, "the submit on " + login.host().name()
                        + " answered for " + i + " of " + ids.size() + " jobs; retry: the retry adopts the jobs it "
                        + "made");
            }
            refs.add(ref(id, answers.get(i).strip()));
        }
        return refs;
    }

    private JobRef ref(String id, String answer) {
        String word = answer.split(" ", 2)[0];
        String rest = answer.contains(" ") ? answer.substring(answer.indexOf(' ') + 1) : "";
        return switch (word) {
            case "SUBMITTED", "ADOPTED", "FORGOTTEN", "CANCELLED" -> new JobRef(SlurmJobs.BACKEND, id);
            case "BUSY" -> throw new GantryException(ErrorCode.REMOTE_ERROR, "an earlier submit of " + id + " is "
                    + "still running on the login node " + login.host().name() + "; retry in a moment (the retry "
                    + "adopts its job)");
            case "NO_WORKDIR" -> throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "cannot create the work "
                    + "directory " + settings.workDir() + " on " + login.host().name() + "; create it, writable by "
                    + settings.login().user() + ", or set backends.cyclecloud.workDir to one that is");
            case "FAILED" -> throw new GantryException(ErrorCode.PLAN_REJECTED, "Slurm refused " + id + ": "
                    + rest.strip() + "; check the partition, node count, GPUs and memory against sinfo, or run "
                    + "gantry doctor");
            default -> throw new GantryException(ErrorCode.REMOTE_ERROR, "the submit of " + id + " answered '"
                    + answer + "'");
        };
    }

    private SlurmBatchScript script(Plan plan, String id, String directory,
                                    List<SbatchDirectives.Dependency> dependencies, List<String> dependencyIds) {
        Workload workload = plan.workload();
        Resources resources = workload.resources();
        int gpus = resources.gpus().orElse(plan.gpusPerNode());
        int cpus = resources.vcpus().orElse(plan.vmSize().vcpus());
        long memoryMib = resources.memoryGib().isPresent() ? (long) Math.ceil(resources.memoryGib().getAsDouble()
                * 1024) : 0;
        boolean exclusive = plan.nodes() > 1 && plan.vmSize().rdma();
        SbatchDirectives directives = new SbatchDirectives(id, partitions.partitionFor(plan),
                plan.nodes(), 1, gpus, settings.gpuRequest(), Math.max(1, cpus), memoryMib,
                Optional.empty(), directory, exclusive, plan.spot(), dependencies, settings.account(),
                settings.qos(), SlurmJobComment.of(dependencyIds));
        Optional<PyxisContainer> container = workload.container().map(c -> new PyxisContainer(c.image(),
                workload.checkpoint().map(k -> List.of(k.path())).orElse(List.of())));
        return new SlurmBatchScript(directives, id, directory, login.slurmBin(), workload.workingDir(),
                workload.command(), container);
    }

    /** The workload's variables and secrets, then the contract's job-wide variables; the per-node ones come later. */
    private Map<String, String> environment(Plan plan, SubmitOptions options, String id) {
        Map<String, String> env = new LinkedHashMap<>(JobVariables.workload(plan.workload(), context.secrets()));
        Map<String, String> contract = new LinkedHashMap<>(JobEnvironment.of(id, plan, options,
                new JobEnvironment.Rendezvous(0, "127.0.0.1", settings.masterPort())));
        PER_NODE.forEach(contract::remove);
        env.putAll(contract);
        return env;
    }

    private String slurmIdOf(JobRef job) {
        String id = SlurmJobs.jobId(job);
        String file = SlurmJobs.directory(settings, id) + "/" + SlurmJobs.SLURM_ID;
        return login.host().readText(file).map(s -> s.strip().split(";", 2)[0]).filter(s -> !s.isEmpty())
                .orElseThrow(() -> new GantryException(ErrorCode.JOB_NOT_FOUND, "the dependency " + job
                        + " has no Slurm job on " + login.host().name() + " (no " + file + ")"));
    }
}
