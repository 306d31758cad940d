package dev.gantry.backend.batch.internal.submit;

import com.microsoft.azure.batch.protocol.models.TaskAddCollectionResult;
import com.microsoft.azure.batch.protocol.models.TaskAddParameter;
import com.microsoft.azure.batch.protocol.models.TaskAddResult;
import com.microsoft.azure.batch.protocol.models.TaskAddStatus;
import com.microsoft.azure.batch.protocol.models.TaskGetOptions;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.backend.JobEnvironment;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.api.backend.Submission;
import dev.gantry.backend.batch.internal.BatchSettings;
import dev.gantry.backend.batch.internal.pools.PoolEnsurer;
import dev.gantry.backend.batch.internal.pools.PoolTarget;
import dev.gantry.backend.batch.internal.records.TaskEntries;
import dev.gantry.backend.batch.internal.records.TaskEntry;
import dev.gantry.backend.batch.internal.remote.Accounts;
import dev.gantry.backend.batch.internal.remote.BatchCalls;
import dev.gantry.backend.batch.internal.remote.Refused;
import dev.gantry.backend.batch.internal.render.TaskBody;
import dev.gantry.backend.batch.internal.render.TaskChunks;
import dev.gantry.backend.batch.internal.render.TaskRef;
import dev.gantry.backend.batch.internal.render.WireJson;
import dev.gantry.backend.batch.internal.secrets.SecretBlobs;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * {@code submitAll}: submissions grouped by pool; each group's pool and job made sure of once
 * ({@link PoolEnsurer}); each task rendered ({@link TaskBody}), held ones recorded and not sent; the others sent as
 * add-task-collection chunks ({@link TaskChunks}: at most 100 tasks, under 1 MB), a few chunks in flight. Per task:
 * {@code success} and {@code TaskExists} adopt the task (its id is derived from its idempotency key, in a job only
 * Gantry adds to, so a task of that id is the one an earlier try sent); {@code servererror} is sent again; any other
 * error fails that submission only, in Batch's words. {@code 413 RequestBodyTooLarge} splits the chunk. A reply lost
 * after Batch applied a chunk sends the same chunk again ({@link BatchCalls}), which then answers {@code TaskExists}:
 * exactly one task. Each task's entry is saved before and after every remote call that concerns it.
 */
public final class TaskSubmitter {
    /** How often a task Batch answered {@code servererror} is sent again before its submission fails. */
    static final int SERVER_ERROR_ROUNDS = 3;
    /** Chunks sent at once per submitAll: enough to overlap round trips, few enough not to be throttled. */
    public static final int DEFAULT_CHUNKS_IN_FLIGHT = 4;
    private static final Set<String> CHUNK_EXPECTED = Set.of("RequestBodyTooLarge", "JobNotFound");
    /** A task GET's answers that say Batch does not have the task. */
    private static final Set<String> NEVER_ADDED = Set.of("TaskNotFound", "JobNotFound");

    private final BatchSettings settings;
    private final Accounts accounts;
    private final BatchCalls calls;
    private final PoolEnsurer pools;
    private final SecretBlobs secrets;
    private final TaskEntries entries;
    private final Function<Plan, List<String>> containerRunOptions;
    private final Function<List<TaskAddParameter>, List<List<TaskAddParameter>>> chunker;
    private final int chunksInFlight;
    private final Clock clock;

    /**
     * @param containerRunOptions the container run options of a plan (the hosts module's: IPC, memlock, the GPU
     *     vendor's devices), one token each
     * @param chunker how tasks are cut into requests: {@link TaskChunks#chunk} (tests force a 413 with another)
     */
    public TaskSubmitter(BatchSettings settings, Accounts accounts, BatchCalls calls, PoolEnsurer pools,
                         SecretBlobs secrets, TaskEntries entries, Function<Plan, List<String>> containerRunOptions,
                         Function<List<TaskAddParameter>, List<List<TaskAddParameter>>> chunker, int chunksInFlight,
                         Clock clock) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.accounts = Objects.requireNonNull(accounts, "accounts");
        this.calls = Objects.requireNonNull(calls, "calls");
        this.pools = Objects.requireNonNull(pools, "pools");
        this.secrets = Objects.requireNonNull(secrets, "secrets");
        this.entries = Objects.requireNonNull(entries, "entries");
        this.containerRunOptions = Objects.requireNonNull(containerRunOptions, "containerRunOptions");
        this.chunker = Objects.requireNonNull(chunker, "chunker");
        if (chunksInFlight < 1) {
            throw new IllegalArgumentException("chunksInFlight must be at least 1, not " + chunksInFlight);
        }
        this.chunksInFlight = chunksInFlight;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** {@code submitAll} of one: its failure thrown. */
    public TaskEntry submit(Plan plan, SubmitOptions options) {
        SubmitOutcome outcome = submitAll(List.of(new Submission(plan, options))).get(0);
        if (outcome instanceof SubmitOutcome.Failed failed) {
            throw failed.error();
        }
        return ((SubmitOutcome.Submitted) outcome).entry();
    }

    /** One outcome per submission, in their order. */
    public List<SubmitOutcome> submitAll(List<Submission> submissions) {
        SubmitOutcome[] outcomes = new SubmitOutcome[submissions.size()];
        Map<String, Integer> firstOfKey = new LinkedHashMap<>();
        Map<String, Group> groups = new LinkedHashMap<>();
        for (int i = 0; i < submissions.size(); i++) {
            Submission submission = submissions.get(i);
            String key = submission.options().idempotencyKey();
            if (firstOfKey.putIfAbsent(key, i) != null) {
                continue; // the same key twice in one call: one task, answered for both below
            }
            Optional<TaskEntry> known = entries.byKey(key);
            if (known.isPresent() && (known.get().phase() == TaskEntry.Phase.ADDED
                    || known.get().phase() == TaskEntry.Phase.HELD)) {
                outcomes[i] = new SubmitOutcome.Submitted(known.get());
                continue;
            }
            try {
                PoolTarget target = pools.target(submission.plan());
                if (!submission.plan().workload().secrets().isEmpty() && !target.existing()) {
                    // Before its pool and job are made (an existing pool's identity is read when the task is).
                    secrets.requireReadable(new TaskRef(target.account().name(), target.jobId(),
                            TaskBody.taskId(submission.options())), target.identity());
                }
                groups.computeIfAbsent(target.groupKey(), k -> new Group(target)).members.add(i);
            } catch (GantryException e) {
                outcomes[i] = new SubmitOutcome.Failed(submission, e);
            } catch (IllegalArgumentException e) {
                outcomes[i] = new SubmitOutcome.Failed(submission, new GantryException(ErrorCode.USAGE,
                        "the plan for " + submission.plan().workload().name() + " cannot run on Batch: "
                                + e.getMessage(), e));
            }
        }
        for (Group group : groups.values()) {
            submitGroup(group, submissions, outcomes);
        }
        for (int i = 0; i < submissions.size(); i++) {
            if (outcomes[i] == null) {
                outcomes[i] = outcomes[firstOfKey.get(submissions.get(i).options().idempotencyKey())];
            }
        }
        return List.of(outcomes);
    }

    private void submitGroup(Group group, List<Submission> submissions, SubmitOutcome[] outcomes) {
        Plan first = submissions.get(group.members.get(0)).plan();
        try {
            pools.ensure(group.target, first);
        } catch (GantryException e) {
            group.members.forEach(i -> outcomes[i] = new SubmitOutcome.Failed(submissions.get(i), e));
            return;
        }
        Map<String, Integer> byTaskId = new LinkedHashMap<>();
        Map<String, TaskEntry> sending = new LinkedHashMap<>();
        List<TaskAddParameter> ready = new ArrayList<>();
        for (int i : group.members) {
            Submission submission = submissions.get(i);
            try {
                Prepared prepared = prepare(group.target, submission);
                if (prepared.entry().phase() == TaskEntry.Phase.HELD) {
                    outcomes[i] = new SubmitOutcome.Submitted(prepared.entry());
                } else {
                    byTaskId.put(prepared.task().id(), i);
                    sending.put(prepared.task().id(), prepared.entry());
                    ready.add(prepared.task());
                }
            } catch (GantryException e) {
                // Its secrets could not be written: the entry says so, so that no one waits for a task never sent.
                entries.byKey(submission.options().idempotencyKey())
                        .filter(entry -> entry.phase() == TaskEntry.Phase.SENDING)
                        .ifPresent(entry -> entries.save(entry.failed(e.getMessage())));
                outcomes[i] = new SubmitOutcome.Failed(submission, e);
            }
        }
        Map<String, Optional<GantryException>> results = send(group.target, first, ready);
        results.forEach((taskId, failure) -> {
            int i = byTaskId.get(taskId);
            TaskEntry entry = sending.get(taskId);
            if (failure.isPresent()) {
                entries.save(entry.failed(failure.get().getMessage()));
                entry.secretsBlob().ifPresent(blob -> deleteSecretsIfNeverAdded(group.target, entry.ref(), blob));
                outcomes[i] = new SubmitOutcome.Failed(submissions.get(i), failure.get());
            } else {
                TaskEntry added = entry.added();
                entries.save(added);
                outcomes[i] = new SubmitOutcome.Submitted(added);
            }
        });
    }

    /**
     * A task whose add failed never reads its secrets unless Batch has it after all (a reply lost after Batch applied
     * it): asked with one GET, its blob is deleted at once when Batch has no such task, instead of by gc a
     * {@code taskRetention} later. It is kept when Batch has the task or cannot say: the task's end, a resubmit with
     * the same key (which adopts the task) or gc deletes it then.
     */
    private void deleteSecretsIfNeverAdded(PoolTarget target, TaskRef ref, String blob) {
        try {
            calls.on(accounts.connection(target.account())).call("checking whether Batch has task " + ref
                    + " after its add failed", NEVER_ADDED, batch -> batch.tasks().get(ref.jobId(), ref.taskId(),
                            new TaskGetOptions().withSelect("id")));
        } catch (Refused neverAdded) {
            try {
                secrets.delete(blob);
            } catch (RuntimeException e) {
                // Left for gc, which deletes secrets blobs whose task Batch does not have.
            }
        } catch (RuntimeException e) {
            // Batch could not say: kept, as above.
        }
    }

    /** A task's body and its entry, saved: held, or about to be sent (its secrets already in their blob). */
    private Prepared prepare(PoolTarget target, Submission submission) {
        Plan plan = submission.plan();
        SubmitOptions options = submission.options();
        TaskRef ref = new TaskRef(target.account().name(), target.jobId(), TaskBody.taskId(options));
        String program = plan.workload().command().isEmpty() ? "" : plan.workload().command().get(0);
        boolean hasSecrets = !plan.workload().secrets().isEmpty();
        Optional<String> blobName = hasSecrets ? Optional.of(SecretBlobs.blobName(ref)) : Optional.empty();
        TaskEntry entry = entries.byKey(options.idempotencyKey())
                .filter(known -> known.phase() == TaskEntry.Phase.SENDING && known.ref().equals(ref))
                .orElseGet(() -> TaskEntry.sending(ref, options.idempotencyKey(), target.poolId(), clock.instant(),
                        program, blobName, plan.nodes(), options.dependencies()));
        // Saved before the blob is written, so that the blob is never unknown to the state directory.
        entries.save(entry);
        Optional<TaskBody.SecretsBlob> blob = hasSecrets
                ? Optional.of(secrets.put(ref, plan.workload().secrets(), pools.identity(target)))
                : Optional.empty();
        TaskBody.Result result = TaskBody.render(input(target, plan, options, blob));
        if (result instanceof TaskBody.Ready ready) {
            return new Prepared(ready.task(), entry);
        }
        // Held: the body to add later is this task without dependencies, added once Gantry has seen them all end.
        TaskBody.Ready later = (TaskBody.Ready) TaskBody.render(input(target, plan, options.dependingOn(List.of()),
                blob));
        TaskEntry held = TaskEntry.held(ref, options.idempotencyKey(), target.poolId(), entry.submittedAt(), program,
                blobName, options.dependencies(), WireJson.compact(later.task()), plan.nodes());
        entries.save(held);
        return new Prepared(later.task(), held);
    }

    private TaskBody.Input input(PoolTarget target, Plan plan, SubmitOptions options,
                                 Optional<TaskBody.SecretsBlob> blob) {
        return new TaskBody.Input(plan, options, target.account().name(), target.jobId(),
                JobEnvironment.DEFAULT_MASTER_PORT, settings.taskRetention(), containerRunOptions.apply(plan), blob);
    }

    /** Sends the tasks, a few chunks at once; per task id, empty when Batch has it, else why it failed. */
    private Map<String, Optional<GantryException>> send(PoolTarget target, Plan plan, List<TaskAddParameter> tasks) {
        Map<String, Optional<GantryException>> results = new LinkedHashMap<>();
        if (tasks.isEmpty()) {
            return results;
        }
        List<List<TaskAddParameter>> chunks = chunker.apply(tasks);
        ExecutorService executor = Executors.newFixedThreadPool(Math.min(chunksInFlight, chunks.size()), r -> {
            Thread thread = new Thread(r, "gantry-batch-submit");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<Map<String, Optional<GantryException>>>> futures = new ArrayList<>();
            for (List<TaskAddParameter> chunk : chunks) {
                futures.add(executor.submit(() -> new ChunkSender(target, plan).send(chunk)));
            }
            for (Future<Map<String, Optional<GantryException>>> future : futures) {
                results.putAll(future.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GantryException(ErrorCode.REMOTE_ERROR, "interrupted while adding tasks to Batch job "
                    + target.jobId(), e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime
                    : new IllegalStateException(e.getCause());
        } finally {
            executor.shutdownNow();
        }
        return results;
    }

    /** One chunk through Batch, with its splits and resends. */
    private final class ChunkSender {
        private final PoolTarget target;
        private final Plan plan;
        private boolean jobMadeAgain;

        ChunkSender(PoolTarget target, Plan plan) {
            this.target = target;
            this.plan = plan;
        }

        Map<String, Optional<GantryException>> send(List<TaskAddParameter> chunk) {
            Map<String, Optional<GantryException>> results = new LinkedHashMap<>();
            List<TaskAddParameter> pending = chunk;
            for (int round = 1; !pending.isEmpty(); round++) {
                Map<String, TaskAddParameter> again = new LinkedHashMap<>();
                for (TaskAddResult result : add(pending, results)) {
                    String code = result.error() == null ? "none" : result.error().code();
                    if (result.status() == TaskAddStatus.SUCCESS || "TaskExists".equals(code)) {
                        results.put(result.taskId(), Optional.empty());
                    } else if (result.status() == TaskAddStatus.SERVER_ERROR && round < SERVER_ERROR_ROUNDS) {
                        pending.stream().filter(task -> task.id().equalsIgnoreCase(result.taskId())).findFirst()
                                .ifPresent(task -> again.put(task.id(), task));
                    } else {
                        results.put(result.taskId(), Optional.of(refusal(result, round)));
                    }
                }
                pending = List.copyOf(again.values());
            }
            // Batch answers each task it was sent; one it did not name has not been added.
            for (TaskAddParameter task : chunk) {
                results.putIfAbsent(task.id(), Optional.of(new GantryException(ErrorCode.REMOTE_ERROR, "Azure Batch "
                        + "did not answer for task " + task.id() + " in its add-task-collection reply; submit again")));
            }
            return results;
        }

        /** The chunk's per-task results; a 413 splits it, and a refusal of the whole chunk fails all of it. */
        private List<TaskAddResult> add(List<TaskAddParameter> chunk, Map<String, Optional<GantryException>> failed) {
            String what = "adding " + chunk.size() + " tasks to job " + target.jobId() + " of Batch account "
                    + target.account().name();
            try {
                TaskAddCollectionResult answer = calls.on(accounts.connection(target.account())).call(what,
                        CHUNK_EXPECTED, batch -> batch.tasks().addCollection(target.jobId(), chunk));
                return answer.value() == null ? List.of() : answer.value();
            } catch (Refused refused) {
                if (refused.code().equals("RequestBodyTooLarge") && chunk.size() > 1) {
                    List<TaskAddResult> results = new ArrayList<>();
                    for (List<TaskAddParameter> half : TaskChunks.split(chunk)) {
                        results.addAll(add(half, failed));
                    }
                    return results;
                }
                if (refused.code().equals("JobNotFound") && !jobMadeAgain) {
                    // gc removed the idle pool and job since they were made sure of: make them again, once.
                    jobMadeAgain = true;
                    pools.forget(target);
                    pools.ensure(target, plan);
                    return add(chunk, failed);
                }
                GantryException error = BatchCalls.failure(what, refused.refusal());
                chunk.forEach(task -> failed.put(task.id(), Optional.of(error)));
                return List.of();
            } catch (GantryException e) {
                chunk.forEach(task -> failed.put(task.id(), Optional.of(e)));
                return List.of();
            }
        }

        private GantryException refusal(TaskAddResult result, int round) {
            String code = result.error() == null ? "none" : result.error().code();
            String message = result.error() == null || result.error().message() == null ? "no message"
                    : result.error().message().value();
            StringBuilder details = new StringBuilder();
            if (result.error() != null && result.error().values() != null) {
                result.error().values().forEach(detail -> details.append(' ').append(detail.key()).append('=')
                        .append(detail.value()));
            }
            return new GantryException(ErrorCode.REMOTE_ERROR, "Azure Batch refused task " + result.taskId()
                    + " of job " + target.jobId() + " (" + result.status() + " " + code + "): " + message + details
                    + (result.status() == TaskAddStatus.SERVER_ERROR ? " (still after " + round + " tries)" : ""));
        }
    }

    private record Prepared(TaskAddParameter task, TaskEntry entry) {
    }

    private static final class Group {
        final PoolTarget target;
        final List<Integer> members = new ArrayList<>();

        Group(PoolTarget target) {
            this.target = target;
        }
    }
}
