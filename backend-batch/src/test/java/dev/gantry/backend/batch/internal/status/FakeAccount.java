package dev.gantry.backend.batch.internal.status;

import com.microsoft.azure.batch.protocol.BatchServiceClient;
import com.microsoft.azure.batch.protocol.models.TaskAddParameter;
import dev.gantry.api.Architecture;
import dev.gantry.api.ImageRef;
import dev.gantry.api.NodeBoot;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.batch.fake.BatchFake;
import dev.gantry.backend.batch.fake.BatchFakeOptions;
import dev.gantry.backend.batch.internal.FakeAccounts;
import dev.gantry.backend.batch.internal.remote.AccountCalls;
import dev.gantry.backend.batch.internal.render.JobBody;
import dev.gantry.backend.batch.internal.render.PoolBody;
import dev.gantry.backend.batch.internal.render.PoolKey;
import dev.gantry.backend.batch.internal.render.TaskBody;
import dev.gantry.backend.batch.internal.render.TaskRef;
import dev.gantry.backend.batch.internal.rest.BatchAccountUrl;
import dev.gantry.backend.batch.internal.rest.BatchAuth;
import dev.gantry.backend.batch.internal.rest.BatchConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A fake Batch account with one pool and its job (rendered by {@code internal.render}), reached through Gantry's own
 * connection with shared key, and the records a caller would keep for the tasks submitted to it. The pool has
 * dedicated nodes, or Spot ones ({@link #onSpot}) for a test of preemption (the fake lets a shared-key account have
 * them, which Batch no longer does: what these tests hold is how Gantry reads tasks, not the account's mode).
 */
public final class FakeAccount implements AutoCloseable {
    static final VmSize D2 = new VmSize("Standard_D2s_v5", "D", 2, 8, Optional.empty(), false, Architecture.X64,
            Set.of("V2"));
    static final ImageRef UBUNTU = ImageRef.marketplace("Ubuntu Server 22.04",
            "canonical:0001-com-ubuntu-server-jammy:22_04-lts:latest");

    public final BatchFake fake;
    public final BatchConnection connection;
    public final String poolId;
    public final String jobId;
    public final Map<String, TrackedTask> tracked = new HashMap<>();
    /** The waits the retry policy asked for, in order. */
    public final List<Duration> waits = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final AccountCalls calls;

    /**
     * @param nodes the most nodes the pool grows to (Gantry's formula's cap), its formula evaluated every 100 ms;
     *     0 for a pool that gets no node while a test runs (evaluated once when made, with nothing waiting, and then
     *     only an hour later)
     */
    public FakeAccount(int nodes) {
        this(nodes, false);
    }

    /**
     * An account whose pool has Spot (low-priority) nodes, Gantry's formula for a Spot plan: the only nodes Batch
     * preempts, for the tests of preemption.
     *
     * @param nodes as for {@link #FakeAccount(int)}
     */
    public static FakeAccount onSpot(int nodes) {
        return new FakeAccount(nodes, true);
    }

    /**
     * An account whose pool's nodes run {@code bootScript} as their start task, as Gantry's boot script runs, Batch
     * waiting for its success.
     *
     * @param nodes as for {@link #FakeAccount(int)}
     */
    public static FakeAccount withStartTask(int nodes, String bootScript) {
        return new FakeAccount(nodes, false, Optional.of(bootScript));
    }

    private FakeAccount(int nodes, boolean spot) {
        this(nodes, spot, Optional.empty());
    }

    private FakeAccount(int nodes, boolean spot, Optional<String> bootScript) {
        fake = new BatchFake(new BatchFakeOptions().auth(true, false)
                .autoscaleInterval(nodes == 0 ? Duration.ofHours(1) : Duration.ofMillis(100)));
        connection = BatchConnection.open(BatchAccountUrl.of(fake.url()),
                new BatchAuth.SharedKey(fake.accountName(), fake.accountKey()));
        calls = FakeAccounts.calls(connection, waits);
        Plan plan = plan(spot, "true");
        PoolKey key = PoolKey.of(fake.accountName(), plan, Optional.empty(), Optional.empty());
        poolId = key.poolId("gantry-");
        jobId = poolId;
        protocol().pools().add(PoolBody.render(key, poolId, plan, bootScript, Math.max(1, nodes)));
        fake.tickNow(); // the pool's first evaluation, before any task: a pool of 0 nodes stays empty
        protocol().jobs().add(JobBody.render(jobId, poolId, key));
    }

    /** The account's calls, their retries' waits recorded in {@link #waits} and never slept. */
    public AccountCalls calls() {
        return calls;
    }

    public BatchServiceClient protocol() {
        return connection.protocol();
    }

    public Function<String, Optional<TrackedTask>> records() {
        return id -> Optional.ofNullable(tracked.get(id));
    }

    public static Plan plan(String... argv) {
        return plan(false, argv);
    }

    private static Plan plan(boolean spot, String... argv) {
        Workload workload = Workload.builder("status-test").phase(dev.gantry.api.Phase.TRAINING)
                .model(dev.gantry.api.ModelClass.SMALL).resources(Resources.builder().vcpus(1)).command(argv)
                .build();
        return Plan.builder(workload, D2).region("eastus").image(UBUNTU).spot(spot)
                .boot(new NodeBoot(Optional.empty(), Optional.of("batch.node.ubuntu 22.04"))).build();
    }

    /** Submits a one-node task running {@code argv} (through Gantry's launcher), tracked as the caller would. */
    public TrackedTask submit(String key, List<JobDependency> dependencies, String... argv) {
        TaskBody.Result result = TaskBody.render(new TaskBody.Input(plan(argv),
                SubmitOptions.withKey(key).dependingOn(dependencies), fake.accountName(), jobId, 29500,
                Duration.ofDays(7), List.of(), Optional.empty()));
        TrackedTask task;
        if (result instanceof TaskBody.Ready ready) {
            protocol().tasks().add(jobId, ready.task());
            task = TrackedTask.submitted(ready.ref(), poolId, Instant.now(), 1, argv[0], dependencies);
        } else {
            TaskBody.Hold hold = (TaskBody.Hold) result;
            task = TrackedTask.held(new TaskRef(fake.accountName(), jobId, TaskBody.taskId(SubmitOptions.withKey(key))),
                    poolId, Instant.now(), 1, argv[0], dependencies, hold.reason());
        }
        tracked.put(task.ref().id(), task);
        return task;
    }

    /** Adds a raw task body (for what the renderer never writes), tracked as the caller would. */
    public TrackedTask add(TaskAddParameter body, int nodes) {
        protocol().tasks().add(jobId, body);
        TrackedTask task = TrackedTask.submitted(new TaskRef(fake.accountName(), jobId, body.id()), poolId,
                Instant.now(), nodes, "sh", List.of());
        tracked.put(task.ref().id(), task);
        return task;
    }

    /** Persists what a poll says to persist, as the caller does. */
    public void persist(Poll poll) {
        poll.records().forEach((id, record) -> tracked.put(id, tracked.get(id).withRecord(record)));
        poll.ended().forEach((id, status) -> tracked.put(id, tracked.get(id).withEnded(status)));
    }

    /** Polls until {@code until} holds for the task's status, persisting each poll; fails after 30 s. */
    public Poll pollUntil(TaskStatuses statuses, TrackedTask task, Predicate<dev.gantry.api.backend.JobStatus> until)
            throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(30);
        List<String> seen = new ArrayList<>();
        while (Instant.now().isBefore(deadline)) {
            Poll poll = statuses.statuses(List.of(task.ref().id()), records());
            persist(poll);
            var status = poll.statuses().get(task.ref().id());
            seen.add(status.state() + ": " + status.message());
            if (until.test(status)) {
                return poll;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the status never came; seen " + seen.subList(Math.max(0, seen.size() - 5),
                seen.size()));
    }

    @Override
    public void close() {
        connection.close();
        fake.close();
    }
}
