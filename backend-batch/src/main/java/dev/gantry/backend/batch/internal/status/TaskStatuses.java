package dev.gantry.backend.batch.internal.status;

import com.microsoft.azure.PagedList;
import com.microsoft.azure.batch.protocol.models.CloudPool;
import com.microsoft.azure.batch.protocol.models.CloudTask;
import com.microsoft.azure.batch.protocol.models.ComputeNode;
import com.microsoft.azure.batch.protocol.models.ComputeNodeListOptions;
import com.microsoft.azure.batch.protocol.models.PoolGetOptions;
import com.microsoft.azure.batch.protocol.models.TaskListOptions;
import com.microsoft.azure.batch.protocol.models.TaskState;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.backend.batch.internal.remote.AccountCalls;
import dev.gantry.backend.batch.internal.remote.Refused;
import dev.gantry.backend.batch.internal.render.TaskRef;
import dev.gantry.backend.batch.internal.state.RankFailures;
import dev.gantry.backend.batch.internal.state.Requeues;
import dev.gantry.backend.batch.internal.state.ResizeErrors;
import dev.gantry.backend.batch.internal.state.StartTaskFailures;
import dev.gantry.backend.batch.internal.state.StatusTable;
import dev.gantry.backend.batch.internal.state.TaskRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The status of tasks of one Batch account, with one paged list-tasks call per Batch job per poll, never a GET per
 * task. Terminal statuses the caller recorded are answered without a call. Around the list, and only when needed:
 * one pool GET per pool with waiting tasks (its resize errors explain the wait) and, when that pool has nodes, one list
 * of those that failed their start task (Gantry's boot script: Batch gives them no work), one list of a pool's
 * preempted nodes when a requeue is suspected (the eviction's reason), list-subtasks for an ended multi-node task (a
 * failed rank), a terminate for a task whose native dependency failed (Batch would leave it waiting for ever).
 *
 * <p>The list's {@code $filter} on {@code stateTransitionTime}: the "OData filters in Batch" page
 * (learn.microsoft.com/rest/api/batchservice/odata-filters-in-batch) has a "List tasks" section in its contents, but
 * the searchable copies of the page end before it, so the property is not confirmed from the docs; every time table
 * the page shows (certificates, nodes, jobs of a schedule) allows {@code stateTransitionTime} with all six
 * comparisons. Were Batch to refuse it, the filter is one constant to drop ({@link #SINCE_FILTER}): the list is then
 * still one call per job, only longer.
 */
public final class TaskStatuses {
    /** Batch's page size limit: 1000 tasks a page. */
    static final int PAGE = 1000;
    /** The fields the status table, requeue detection and rank failures read. */
    static final String TASK_FIELDS = "id,state,stateTransitionTime,previousState,executionInfo,nodeInfo";
    static final String SINCE_FILTER = "stateTransitionTime ge datetime'%s'";
    static final String PREEMPTED = "state eq 'preempted'";
    static final String START_TASK_FAILED = "state eq 'starttaskfailed'";
    static final String JOB_NOT_FOUND = "JobNotFound";
    /** How far the account's clock may be behind this machine's: tasks are listed from their submit time less this. */
    public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofMinutes(5);

    private final AccountCalls calls;
    private final Clock clock;
    private final Duration clockSkew;
    private final RankNodes rankNodes;

    /** @param calls the account's calls, each through the one retry policy */
    public TaskStatuses(AccountCalls calls, Clock clock, Duration clockSkew) {
        this.calls = Objects.requireNonNull(calls, "calls");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.clockSkew = Objects.requireNonNull(clockSkew, "clockSkew");
        this.rankNodes = new RankNodes(calls);
    }

    /**
     * The status of one task: {@code JOB_NOT_FOUND} naming it when {@code tracked} does not know it.
     *
     * @param tracked the caller's records, by {@code TaskRef.id()} (dependencies are looked up there too)
     */
    public Poll status(String id, Function<String, Optional<TrackedTask>> tracked) {
        if (tracked.apply(id).isEmpty()) {
            throw new GantryException(ErrorCode.JOB_NOT_FOUND, "batch job '" + id + "' is not known here: no task "
                    + "of that id was submitted through this state directory (ids look like ACCOUNT.JOB.TASK; "
                    + "'gantry status' lists the jobs it knows)");
        }
        return statuses(List.of(id), tracked);
    }

    /**
     * The status of many tasks: an unknown id is UNKNOWN.
     *
     * @param tracked the caller's records, by {@code TaskRef.id()} (dependencies are looked up there too)
     */
    public Poll statuses(Collection<String> ids, Function<String, Optional<TrackedTask>> tracked) {
        Round round = new Round();
        Map<String, TrackedTask> asked = new LinkedHashMap<>();
        for (String id : ids) {
            tracked.apply(id).ifPresent(task -> asked.put(id, task));
        }
        Map<String, TrackedTask> involved = new LinkedHashMap<>(asked);
        for (TrackedTask task : asked.values()) {
            if (task.ended().isEmpty()) {
                for (JobDependency dependency : task.dependencies()) {
                    tracked.apply(dependency.job().id()).ifPresent(d -> involved.putIfAbsent(d.ref().id(), d));
                }
            }
        }
        Map<String, JobStatus> known = new HashMap<>();
        involved.forEach((id, task) -> task.ended().ifPresent(status -> known.put(id, status)));
        Map<String, List<TrackedTask>> byJob = involved.values().stream()
                .filter(task -> task.ended().isEmpty() && !task.held())
                .collect(Collectors.groupingBy(task -> task.ref().jobId(), LinkedHashMap::new, Collectors.toList()));
        byJob.forEach((jobId, tasks) -> statusOfJob(jobId, tasks, round, known));
        for (TrackedTask task : involved.values()) {
            if (task.ended().isEmpty() && !task.held()) {
                nativeDependencyFailure(task, known, round);
            }
        }
        for (TrackedTask task : involved.values()) {
            if (task.ended().isEmpty() && task.held()) {
                known.put(task.ref().id(), held(task, known, round));
            }
        }
        Map<String, JobStatus> statuses = new LinkedHashMap<>();
        for (String id : ids) {
            statuses.put(id, asked.containsKey(id) ? known.get(id) : JobStatus.of(JobState.UNKNOWN, "batch job '"
                    + id + "' is not known here"));
        }
        return new Poll(statuses, round.records, round.decisions);
    }

    private void statusOfJob(String jobId, List<TrackedTask> tasks, Round round, Map<String, JobStatus> known) {
        Instant since = tasks.stream().map(TrackedTask::submittedAt).min(Instant::compareTo).orElseThrow()
                .minus(clockSkew);
        Map<String, CloudTask> listed = new HashMap<>();
        try {
            for (CloudTask task : listTasks(jobId, since)) {
                listed.put(task.id().toLowerCase(Locale.ROOT), task);
            }
        } catch (Refused jobNotFound) {
            for (TrackedTask task : tasks) {
                known.put(task.ref().id(), JobStatus.of(JobState.UNKNOWN, "its Batch job " + jobId + " is gone "
                        + "(deleted, or removed by gantry gc), and with it what Batch knew of the task"));
            }
            return;
        }
        for (TrackedTask task : tasks) {
            CloudTask cloud = listed.get(task.ref().taskId().toLowerCase(Locale.ROOT));
            if (cloud == null) {
                known.put(task.ref().id(), JobStatus.of(JobState.UNKNOWN, "Batch lists no task " + task.ref().taskId()
                        + " in job " + jobId + ": it was deleted, or its job was (taskRetention, gantry gc)"));
                continue;
            }
            known.put(task.ref().id(), statusOfTask(task, cloud, round));
        }
    }

    private JobStatus statusOfTask(TrackedTask task, CloudTask cloud, Round round) {
        TaskRecord record = task.record();
        if (Requeues.evicted(cloud, record)) {
            String lastNode = record.lastRunning().orElseThrow().nodeId();
            Optional<String> preempted = round.preemptedNodes(task.poolId()).contains(lastNode)
                    ? Optional.of(lastNode) : Optional.empty();
            Instant at = cloud.stateTransitionTime() == null ? clock.instant()
                    : Instant.ofEpochMilli(cloud.stateTransitionTime().getMillis());
            record = record.withEviction(Requeues.eviction(at, preempted, lastNode));
        }
        if (cloud.state() == TaskState.RUNNING || cloud.state() == TaskState.COMPLETED) {
            Optional<TaskRecord.Sighting> now = Requeues.sighting(cloud);
            if (now.isPresent() && !now.equals(record.lastRunning())) {
                record = record.withLastRunning(now);
            }
        }
        Optional<String> waiting = cloud.state() == TaskState.ACTIVE ? round.waitingReason(task.poolId())
                : Optional.empty();
        Optional<RankFailures.Failure> rankFailure = cloud.state() == TaskState.COMPLETED && task.nodes() > 1
                ? rankFailure(task) : Optional.empty();
        round.update(task, record);
        return StatusTable.map(cloud, record, waiting, rankFailure);
    }

    private Optional<RankFailures.Failure> rankFailure(TrackedTask task) {
        var subtasks = rankNodes.subtasks(task.ref());
        Optional<RankFailures.Failure> unnamed = RankFailures.describe(subtasks, Map.of());
        if (unnamed.isEmpty()) {
            return unnamed;
        }
        // Only now are the rank files read, and only for the failed subtasks' nodes.
        var failed = subtasks.stream().filter(s -> s.failureInfo() != null
                || s.exitCode() != null && s.exitCode() != 0).toList();
        return RankFailures.describe(subtasks, rankNodes.ranks(task.poolId(), failed, task.nodes()));
    }

    /**
     * A task whose native dependency ended without succeeding: Batch leaves it {@code active} for ever, so Gantry
     * terminates it and reports it CANCELLED naming the dependency.
     */
    private void nativeDependencyFailure(TrackedTask task, Map<String, JobStatus> known, Round round) {
        JobStatus status = known.get(task.ref().id());
        if (status == null || status.state() != JobState.PENDING) {
            return;
        }
        Optional<String> blocking = blockingDependency(task, known, false);
        if (blocking.isEmpty()) {
            return;
        }
        terminate(task.ref());
        TaskRecord record = round.records.getOrDefault(task.ref().id(), task.record()).withCancel();
        round.update(task, record);
        known.put(task.ref().id(), JobStatus.of(JobState.CANCELLED, blocking.get())
                .withEvictions(record.evictions(), record.lastEviction()));
    }

    private JobStatus held(TrackedTask task, Map<String, JobStatus> known, Round round) {
        List<String> waiting = new ArrayList<>();
        for (JobDependency dependency : task.dependencies()) {
            JobStatus status = known.get(dependency.job().id());
            if (status != null && !status.state().isTerminal()) {
                waiting.add(dependency.job().id());
            }
        }
        Optional<String> blocking = blockingDependency(task, known, true);
        if (blocking.isPresent()) {
            round.decisions.add(new HoldDecision.Cancel(task.ref(), blocking.get()));
            return JobStatus.of(JobState.CANCELLED, blocking.get());
        }
        if (!waiting.isEmpty()) {
            return JobStatus.of(JobState.PENDING, "held by Gantry until " + String.join(", ", waiting) + " end ("
                    + task.heldReason().orElseThrow() + ")");
        }
        round.decisions.add(new HoldDecision.AddNow(task.ref()));
        return JobStatus.of(JobState.PENDING, "its dependencies ended; being added to Batch");
    }

    /**
     * The first dependency that ended in a way that keeps the task from ever starting, as a message.
     *
     * @param unknownBlocks whether a dependency the records do not know blocks: for a held task (nothing else would
     *     ever release it), not for a native dependent (Batch knows its dependency; Gantry never terminates on a
     *     guess)
     */
    private static Optional<String> blockingDependency(TrackedTask task, Map<String, JobStatus> known,
                                                       boolean unknownBlocks) {
        for (JobDependency dependency : task.dependencies()) {
            JobStatus status = known.get(dependency.job().id());
            if (status == null && !unknownBlocks) {
                continue;
            }
            if (status == null) {
                return Optional.of("never started: its dependency " + dependency.job().id() + " is not known here");
            }
            if (status.state().isTerminal() && !dependency.satisfiedBy(status.state())) {
                return Optional.of("never started: its dependency " + dependency.job().id() + " ended "
                        + status.state() + " (" + status.message() + ")");
            }
        }
        return Optional.empty();
    }

    /** One paged list of the job's tasks that changed state since {@code since} (the SDK follows odata.nextLink). */
    List<CloudTask> listTasks(String jobId, Instant since) throws Refused {
        TaskListOptions options = new TaskListOptions().withSelect(TASK_FIELDS).withMaxResults(PAGE)
                .withFilter(String.format(Locale.ROOT, SINCE_FILTER,
                        DateTimeFormatter.ISO_INSTANT.format(since.truncatedTo(ChronoUnit.SECONDS))));
        return calls.call("listing the tasks of Batch job " + jobId, Set.of(JOB_NOT_FOUND), batch -> {
            PagedList<CloudTask> tasks = batch.tasks().list(jobId, options);
            tasks.loadAll(); // the next pages, inside the same retried request
            return tasks;
        });
    }

    /** The pool's resize errors, VM size and node counts. */
    CloudPool getPool(String poolId) {
        return calls.call("reading the resize errors of pool " + poolId, batch -> batch.pools().get(poolId,
                new PoolGetOptions().withSelect("id,vmSize,resizeErrors,currentDedicatedNodes,"
                        + "currentLowPriorityNodes")));
    }

    /** The pool's nodes whose start task failed, with what it ended with. */
    List<ComputeNode> listStartTaskFailedNodes(String poolId) {
        return calls.call("listing the nodes of pool " + poolId + " that failed their start task", batch -> {
            PagedList<ComputeNode> nodes = batch.computeNodes().list(poolId, new ComputeNodeListOptions()
                    .withFilter(START_TASK_FAILED).withSelect("id,state,startTaskInfo").withMaxResults(PAGE));
            nodes.loadAll();
            return List.copyOf(nodes);
        });
    }

    /** Why the pool's waiting tasks wait: its resize errors, its nodes that failed their start task. */
    private Optional<String> waitingReasonOf(String poolId) {
        CloudPool pool = getPool(poolId);
        Optional<String> resize = ResizeErrors.waitingReason(poolId, String.valueOf(pool.vmSize()),
                pool.resizeErrors());
        int nodes = count(pool.currentDedicatedNodes()) + count(pool.currentLowPriorityNodes());
        // Without nodes there is no start task to have failed: a pool parked at zero costs no list.
        Optional<String> startTask = nodes == 0 ? Optional.empty()
                : StartTaskFailures.waitingReason(poolId, listStartTaskFailedNodes(poolId));
        if (resize.isPresent() && startTask.isPresent()) {
            return Optional.of(resize.get() + "; " + startTask.get());
        }
        return resize.isPresent() ? resize : startTask;
    }

    private static int count(Integer nodes) {
        return nodes == null ? 0 : nodes;
    }

    /** The ids of the pool's preempted nodes. */
    Set<String> listPreemptedNodes(String poolId) {
        return calls.call("listing the preempted nodes of pool " + poolId, batch -> {
            PagedList<ComputeNode> nodes = batch.computeNodes().list(poolId, new ComputeNodeListOptions()
                    .withFilter(PREEMPTED).withSelect("id,state").withMaxResults(PAGE));
            nodes.loadAll();
            return nodes.stream().map(ComputeNode::id).collect(Collectors.toSet());
        });
    }

    /** Terminates a task; one that already ended ({@code 409 TaskCompleted}) is left as it is. */
    void terminate(TaskRef ref) {
        TaskCancel.terminate(calls, ref);
    }

    /** What one poll found and fetched: each pool's calls at most once. */
    private final class Round {
        final Map<String, TaskRecord> records = new LinkedHashMap<>();
        final List<HoldDecision> decisions = new ArrayList<>();
        private final Map<String, Optional<String>> waiting = new HashMap<>();
        private final Map<String, Set<String>> preempted = new HashMap<>();

        Optional<String> waitingReason(String poolId) {
            return waiting.computeIfAbsent(poolId, TaskStatuses.this::waitingReasonOf);
        }

        Set<String> preemptedNodes(String poolId) {
            return preempted.computeIfAbsent(poolId, TaskStatuses.this::listPreemptedNodes);
        }

        void update(TrackedTask task, TaskRecord record) {
            if (!record.equals(task.record())) {
                records.put(task.ref().id(), record);
            }
        }
    }
}
