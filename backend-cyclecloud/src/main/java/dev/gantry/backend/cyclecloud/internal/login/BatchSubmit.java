package dev.gantry.backend.cyclecloud.internal.login;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.JobEnvironment;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.hosts.jobs.JobVariables;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Submits jobs through a scheduler's submit script ({@code login/claim.sh} after the scheduler's own lines), exactly
 * once per idempotency key: one remote command per batch claims each job's directory (a file created once per key,
 * ever), writes its environment file and script, submits it and records the scheduler's id there, ignoring a hang-up
 * so that a cut connection cannot stop it between the submit and the record. A retry finds the claim and adopts the
 * id; when the claim's holder died before recording one, the script asks the scheduler for the job by its name,
 * which only that key's job has.
 */
public final class BatchSubmit {
    /** Jobs per remote command of a fan-out: its stdin and its run time stay bounded. */
    public static final int BATCH = 100;
    private static final Duration PER_JOB = Duration.ofSeconds(1);
    /** The contract's variables that are a node's own: each rank sets them from the scheduler's at run time. */
    private static final List<String> PER_NODE = List.of(JobEnvironment.NODE_RANK_GANTRY, JobEnvironment.NODE_RANK,
            JobEnvironment.RANK, JobEnvironment.LOCAL_RANK, JobEnvironment.MASTER_ADDR);

    /** A job's batch script as the submit sends it: its own first and last lines around the shared part. */
    public interface BatchScript {
        String head();

        String tail();
    }

    /** Renders one submission's batch script, given Gantry's id of the job and its directory. */
    @FunctionalInterface
    public interface Renderer {
        BatchScript render(Plan plan, SubmitOptions options, String id, String directory);
    }

    /**
     * One job as the submit script takes it.
     *
     * @param id Gantry's id, also the job's name in the scheduler
     * @param directory the job's directory on the cluster
     * @param environment the environment file's bytes (0600 on the cluster)
     * @param head the job's own first lines of its script
     * @param tail the job's own last lines of its script
     */
    public record JobFiles(String id, String directory, byte[] environment, String head, String tail) {
        public JobFiles {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(directory, "directory");
            Objects.requireNonNull(environment, "environment");
            Objects.requireNonNull(head, "head");
            Objects.requireNonNull(tail, "tail");
        }
    }

    private final LoginNode login;
    private final LoginScript script;
    private final String scheduler;
    private final String workDir;
    private final String user;
    private final String refusalAdvice;
    private final BackendContext context;
    private final int masterPort;

    /**
     * @param script the scheduler's submit script
     * @param scheduler the scheduler's name, for messages ({@code Slurm}, {@code Grid Engine})
     * @param user the login user, for the advice when the work directory cannot be made
     * @param refusalAdvice what to check when the scheduler refuses a job
     * @param masterPort {@code MASTER_PORT} of the job environment contract
     */
    public BatchSubmit(LoginNode login, LoginScript script, String scheduler, String workDir, String user,
                       String refusalAdvice, BackendContext context, int masterPort) {
        this.login = login;
        this.script = script;
        this.scheduler = scheduler;
        this.workDir = workDir;
        this.user = user;
        this.refusalAdvice = refusalAdvice;
        this.context = context;
        this.masterPort = masterPort;
    }

    /**
     * Every submission, a batch per remote command: claims, environment files, scripts and submits, each answered
     * on its own line, in order.
     *
     * @param common the part of the script every job shares: it travels once per batch, joined to each job's head
     *     and tail on the login node
     * @param renderer each job's own script
     */
    public List<JobRef> submitAll(List<Submission> submissions, String common, Renderer renderer) {
        List<JobFiles> jobs = new ArrayList<>(submissions.size());
        for (Submission submission : submissions) {
            String id = idOf(submission);
            jobs.add(files(submission, renderer.render(submission.plan(), submission.options(), id,
                    directoryOf(id))));
        }
        return submit(common, Batch.each(jobs));
    }

    /** Gantry's id of a submission's job, from its idempotency key. */
    public static String idOf(Submission submission) {
        return ClusterJobs.idFor(submission.options().idempotencyKey());
    }

    /** A job's directory on the cluster. */
    public String directoryOf(String id) {
        return ClusterJobs.directory(workDir, id);
    }

    /** What the submit script takes of one job: its environment file and its script's own head and tail. */
    public JobFiles files(Submission submission, BatchScript script) {
        String id = idOf(submission);
        return new JobFiles(id, directoryOf(id), environmentFile(submission.plan(), submission.options(), id),
                script.head(), script.tail());
    }

    /**
     * The jobs of one remote command, and how they reach the scheduler.
     *
     * @param jobs at most {@link #BATCH} jobs, in the order their answers come back
     * @param arrayScript where the scheduler takes the batch as one array job: the array's script, whose task N
     *     is the batch's job N (from 0), and which the jobs claimed by this command are submitted through, in one
     *     submit; empty: one submit per job
     */
    public record Batch(List<JobFiles> jobs, Optional<String> arrayScript) {
        public Batch {
            jobs = List.copyOf(jobs);
            Objects.requireNonNull(arrayScript, "arrayScript");
            if (jobs.isEmpty() || jobs.size() > BATCH) {
                throw new IllegalArgumentException("a batch holds 1 to " + BATCH + " jobs, not " + jobs.size());
            }
        }

        /** The jobs in batches of at most {@link #BATCH}, one submit per job. */
        public static List<Batch> each(List<JobFiles> jobs) {
            List<Batch> batches = new ArrayList<>();
            for (int from = 0; from < jobs.size(); from += BATCH) {
                batches.add(new Batch(jobs.subList(from, Math.min(jobs.size(), from + BATCH)), Optional.empty()));
            }
            return batches;
        }
    }

    /** The batches, one remote command each, in order; the refs in the order of their jobs. */
    public List<JobRef> submit(String common, List<Batch> batches) {
        List<JobRef> refs = new ArrayList<>();
        for (Batch batch : batches) {
            refs.addAll(submitBatch(common, batch));
        }
        return refs;
    }

    private List<JobRef> submitBatch(String common, Batch batch) {
        List<JobFiles> jobs = batch.jobs();
        byte[] shared = common.getBytes(StandardCharsets.UTF_8);
        byte[] array = batch.arrayScript().orElse("").getBytes(StandardCharsets.UTF_8);
        List<String> args = new ArrayList<>(List.of(login.bin(), Integer.toString(shared.length),
                Integer.toString(array.length)));
        ByteArrayOutputStream stdin = new ByteArrayOutputStream();
        stdin.writeBytes(shared);
        stdin.writeBytes(array);
        for (JobFiles job : jobs) {
            byte[] head = job.head().getBytes(StandardCharsets.UTF_8);
            byte[] tail = job.tail().getBytes(StandardCharsets.UTF_8);
            // Sizes on the command line, contents on stdin: an SSH command line is bounded, stdin is not.
            args.addAll(List.of(job.directory(), job.id(), Integer.toString(job.environment().length),
                    Integer.toString(head.length), Integer.toString(tail.length)));
            stdin.writeBytes(job.environment());
            stdin.writeBytes(head);
            stdin.writeBytes(tail);
        }
        // A submit takes tens of milliseconds on a busy controller: the command's bound grows with its jobs.
        Duration limit = LoginNode.COMMAND_TIMEOUT.plus(PER_JOB.multipliedBy(jobs.size()));
        List<String> answers = login.run(script, args, Optional.of(stdin.toByteArray()), limit).lines().toList();
        List<JobRef> refs = new ArrayList<>();
        for (int i = 0; i < jobs.size(); i++) {
            String id = jobs.get(i).id();
            if (i >= answers.size()) {
                throw new GantryException(ErrorCode.REMOTE_ERROR, "the submit on " + login.host().name()
                        + " answered for " + i + " of " + jobs.size() + " jobs; retry: the retry adopts the jobs it "
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
            case "SUBMITTED", "ADOPTED", "FORGOTTEN", "CANCELLED" -> new JobRef(ClusterJobs.BACKEND, id);
            case "BUSY" -> throw new GantryException(ErrorCode.REMOTE_ERROR, "an earlier submit of " + id + " is "
                    + "still running on the login node " + login.host().name() + "; retry in a moment (the retry "
                    + "adopts its job)");
            case "NO_WORKDIR" -> throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "cannot create the work "
                    + "directory " + workDir + " on " + login.host().name() + "; create it, writable by " + user
                    + ", or set backends.cyclecloud.workDir to one that is");
            case "NO_DEPENDENCY" -> throw new GantryException(ErrorCode.JOB_NOT_FOUND, "the dependency "
                    + ClusterJobs.BACKEND + ":" + rest.strip() + " of " + id + " has no " + scheduler + " job on "
                    + login.host().name() + " (its directory records none); submit it first");
            case "FAILED" -> throw new GantryException(ErrorCode.PLAN_REJECTED, scheduler + " refused " + id + ": "
                    + rest.strip() + "; " + refusalAdvice);
            default -> throw new GantryException(ErrorCode.REMOTE_ERROR, "the submit of " + id + " answered '"
                    + answer + "'");
        };
    }

    /**
     * A job's environment file: the workload's variables and resolved secrets, then the contract's job-wide
     * variables; the per-node ones each rank sets from the scheduler's at run time.
     */
    private byte[] environmentFile(Plan plan, SubmitOptions options, String id) {
        Map<String, String> env = new LinkedHashMap<>(JobVariables.workload(plan.workload(), context.secrets()));
        Map<String, String> contract = new LinkedHashMap<>(JobEnvironment.of(id, plan, options,
                new JobEnvironment.Rendezvous(0, "127.0.0.1", masterPort)));
        PER_NODE.forEach(contract::remove);
        env.putAll(contract);
        return JobVariables.environmentFile(env);
    }
}
