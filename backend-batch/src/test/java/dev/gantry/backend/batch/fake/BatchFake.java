package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.gantry.azure.fakes.BatchAccountModel;
import dev.gantry.azure.fakes.LocalHttps;
import dev.gantry.backend.batch.fake.nodes.NodeNetwork;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A local Azure Batch account that follows the published data-plane contract (BatchService.json, API
 * 2024-07-01.20.0): pools with autoscale and real nodes, jobs, tasks that run as real processes on their nodes, task
 * and node files, supported images, shared-key and bearer authentication, Batch's errors, and faults on demand. It
 * serves plain HTTP on loopback (or HTTPS through LocalHttps) until closed; closing kills every node's processes.
 */
public final class BatchFake implements AutoCloseable {
    private final BatchFakeOptions options;
    private final FakeState state;
    private final boolean ownsRoot;
    private final Faults faults = new Faults();
    private final RequestLog log = new RequestLog();
    private final TaskLifecycle tasks;
    private final NodeLifecycle nodes;
    private final ImageRoutes images;
    private final Map<String, Instant> deletions = new ConcurrentHashMap<>();
    private final HttpServer server;
    private final ScheduledExecutorService ticker;
    private final PoolRoutes poolRoutes;
    private ControlServer control;

    public BatchFake() {
        this(new BatchFakeOptions());
    }

    public BatchFake(BatchFakeOptions options) {
        this.options = options;
        if (options.processes == null) {
            // Fails, naming scripts/test-batch.sh nodes-up, where the node namespaces are missing.
            options.processes = new NamespacedNodes(NodeNetwork.all());
        }
        try {
            this.ownsRoot = options.root == null;
            Path root = ownsRoot ? Files.createTempDirectory("batch-fake") : options.root;
            this.state = new FakeState(options, root);
            this.tasks = new TaskLifecycle(state);
            this.nodes = new NodeLifecycle(state, tasks);
            this.images = new ImageRoutes(state);
            this.poolRoutes = new PoolRoutes(state, nodes, deletions);
            Router router = new Router(poolRoutes, new JobRoutes(state, tasks),
                    new TaskRoutes(state, tasks), new FileRoutes(state), images);
            BatchHttpFront front = new BatchHttpFront(state, router,
                    new AccountAuth(new SharedKey(options.account, options.key), options.sharedKey, options.entra),
                    faults, log);
            // Several requests at once (a slow reply must not hold the others), as Batch serves them.
            ExecutorService handlers = Executors.newCachedThreadPool(r -> {
                Thread thread = new Thread(r, "batch-fake-http");
                thread.setDaemon(true);
                return thread;
            });
            if (options.https) {
                server = LocalHttps.start(front, handlers);
            } else {
                server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
                server.createContext("/", front);
                server.setExecutor(handlers);
                server.start();
            }
            state.baseUrl = (options.https ? "https" : "http") + "://127.0.0.1:" + server.getAddress().getPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the Batch fake", e);
        }
        ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "batch-fake-ticker");
            thread.setDaemon(true);
            return thread;
        });
        ticker.scheduleWithFixedDelay(this::tick, 0, options.tick.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void tick() {
        try {
            synchronized (state) {
                Instant now = state.now();
                nodes.tick(now, deletions);
                tasks.tick(now);
            }
        } catch (RuntimeException e) {
            System.err.println("batch fake: a tick failed: " + e);
        }
    }

    /** The account URL, e.g. {@code http://127.0.0.1:41234} (no trailing slash). */
    public String url() {
        return state.baseUrl;
    }

    public String accountName() {
        return options.account;
    }

    /** The account key, Base64 as Azure shows it. */
    public String accountKey() {
        return Base64.getEncoder().encodeToString(options.key);
    }

    /** The directory under which every node has its own root ({@code nodes/NODE_ID}). */
    public Path root() {
        return state.root;
    }

    /** Faults to plan, per operation id ({@code Task_AddCollection}, {@code Pool_Add}, {@code Job_Add}, ...). */
    public Faults faults() {
        return faults;
    }

    /** Every request received so far, in order. */
    public List<RecordedRequest> requests() {
        return log.requests();
    }

    /** How many requests went to the operation (each HTTP attempt counts, refused and faulted ones too). */
    public int count(String operation) {
        return log.count(operation);
    }

    /** The count of every operation seen, by operation id. */
    public Map<String, Integer> counts() {
        return log.counts();
    }

    /** Forgets the recorded requests and counts (planned faults and state stay). */
    public void clearRequests() {
        log.clear();
    }

    /**
     * Preempts a Spot (low-priority) node: its processes die, its task goes back to active and runs again on another
     * node. A dedicated node is refused ({@link NotPreemptible}): Batch preempts only low-priority nodes.
     */
    public void preemptNode(String poolId, String nodeId) {
        synchronized (state) {
            preempt(state.pool(poolId), state.node(poolId, nodeId));
        }
    }

    /**
     * Preempts the node that runs the task (its primary's node for a multi-instance task) and answers its id.
     * Refused when the task runs on no node, and ({@link NotPreemptible}) when that node is a dedicated one.
     */
    public String preemptNodeOf(String jobId, String taskId) {
        synchronized (state) {
            FakeTask task = state.task(jobId, taskId);
            if (task.nodeIds.isEmpty()) {
                throw new IllegalStateException("the task " + taskId + " of job " + jobId + " runs on no node (it is "
                        + task.state() + ")");
            }
            String nodeId = task.nodeIds.get(0);
            FakeJob job = state.job(jobId);
            preempt(state.pool(job.poolId()), state.node(job.poolId(), nodeId));
            return nodeId;
        }
    }

    private void preempt(FakePool pool, FakeNode node) {
        if (node.dedicated) {
            throw new NotPreemptible(pool.id, node.id);
        }
        nodes.takeAway(pool, node, "preempted", state.now());
    }

    /** Turns a node unusable, with the same effect on its task as a preemption. */
    public void makeNodeUnusable(String poolId, String nodeId) {
        synchronized (state) {
            nodes.takeAway(state.pool(poolId), state.node(poolId, nodeId), "unusable", state.now());
        }
    }

    /**
     * Sets a resize error on the pool ({@code AccountCoreQuotaReached}, {@code AllocationFailed},
     * {@code AllocationTimedout}, ...). With {@code blocksAllocation} no node comes while it is set; without, it is
     * a stale error on a healthy pool.
     */
    public void resizeError(String poolId, String code, String message, boolean blocksAllocation) {
        synchronized (state) {
            FakePool pool = state.pool(poolId);
            pool.resizeErrors = Json.array();
            ObjectNode error = pool.resizeErrors.addObject();
            error.put("code", code);
            error.put("message", message);
            pool.allocationBlocked = blocksAllocation;
        }
    }

    /** Clears the pool's resize errors, letting nodes come again. */
    public void clearResizeErrors(String poolId) {
        synchronized (state) {
            FakePool pool = state.pool(poolId);
            pool.resizeErrors = null;
            pool.allocationBlocked = false;
        }
    }

    /** Makes the start task of the pool's new nodes fail (exit code 1): the nodes end in starttaskfailed. */
    public void failStartTask(String poolId) {
        synchronized (state) {
            state.pool(poolId).startTaskFails = true;
        }
    }

    /**
     * Adds a pool as Resource Manager creates one (its body in the data plane's PoolAddParameter shape, with the
     * user-assigned identities the data plane cannot set), sharing the data plane's state: the Resource Manager
     * fake's pool PUT calls this. Batch's refusals (PoolExists, PoolBeingDeleted, a bad body) are an
     * {@link IllegalStateException} whose message starts with Batch's code.
     */
    public void addPoolFromResourceManager(String poolAddBody, List<String> identityResourceIds) {
        synchronized (state) {
            try {
                poolRoutes.add(Json.parseObject(poolAddBody.getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                        .identities.addAll(identityResourceIds);
            } catch (BatchError e) {
                throw new IllegalStateException(e.code + ": " + e.getMessage() + " " + e.values, e);
            }
        }
    }

    /**
     * Shares this account's pools with Resource Manager's fake ({@code ArmFake}'s Batch routes over {@code account}):
     * a pool put there with a user-assigned identity is a pool here with that identity (its body translated to the
     * data plane's shape by {@link ResourceManagerPools}), Resource Manager sees the pools added here, a delete through
     * either door removes the pool from both (Resource Manager shows it {@code Deleting} until it is gone here), and
     * the account's {@code accountEndpoint} is this fake's address.
     */
    public void shareWith(BatchAccountModel account) {
        account.dataPlanePools(() -> Set.copyOf(state.poolIds));
        account.addPoolListener(new ResourceManagerPools(this));
        account.endpoint(url().replaceFirst("^https?://", ""));
        synchronized (state) {
            state.poolDeleting = account::dataPlaneDeleting;
            state.poolDeleted = account::dataPlaneDeleted;
        }
    }

    /** Starts deleting a pool as Batch's pool delete does (nothing when there is none, or it is being deleted). */
    public void deletePool(String poolId) {
        synchronized (state) {
            FakePool pool = state.pools.get(FakeState.key(poolId));
            if (pool != null) {
                poolRoutes.delete(pool);
            }
        }
    }

    /** Gives a pool a user-assigned identity, as a pool created through Resource Manager has. */
    public void addPoolIdentity(String poolId, String identityResourceId) {
        synchronized (state) {
            state.pool(poolId).identities.add(identityResourceId);
        }
    }

    /** Replaces the supported-images list (each entry in Batch's ImageInformation shape). */
    public void supportedImages(List<ObjectNode> list) {
        synchronized (state) {
            images.images = List.copyOf(list);
        }
    }

    /** Runs a scheduling round now (autoscale due, nodes, tasks), instead of waiting for the next tick. */
    public void tickNow() {
        tick();
    }

    /** A copy of a pool as GET would answer it, or empty. */
    public Optional<JsonNode> pool(String poolId) {
        synchronized (state) {
            FakePool pool = state.pools.get(FakeState.key(poolId));
            return Optional.ofNullable(pool == null ? null : pool.json(state.baseUrl));
        }
    }

    /** A copy of a job as GET would answer it, or empty. */
    public Optional<JsonNode> job(String jobId) {
        synchronized (state) {
            FakeJob job = state.jobs.get(FakeState.key(jobId));
            return Optional.ofNullable(job == null ? null : job.json(state.baseUrl));
        }
    }

    /** A copy of a task as GET would answer it, or empty. */
    public Optional<JsonNode> task(String jobId, String taskId) {
        synchronized (state) {
            FakeJob job = state.jobs.get(FakeState.key(jobId));
            FakeTask task = job == null ? null : job.task(taskId);
            return Optional.ofNullable(task == null ? null : task.json.deepCopy());
        }
    }

    /** The ids of the pool's nodes, in the order they came. */
    public List<String> nodeIds(String poolId) {
        synchronized (state) {
            FakePool pool = state.pools.get(FakeState.key(poolId));
            return pool == null ? List.of() : new ArrayList<>(pool.nodes.keySet());
        }
    }

    /** The ids of every pool, job, as Batch spells them. */
    public List<String> poolIds() {
        synchronized (state) {
            return state.pools.values().stream().map(pool -> pool.id).toList();
        }
    }

    public List<String> jobIds() {
        synchronized (state) {
            return state.jobs.values().stream().map(job -> job.id).toList();
        }
    }

    /**
     * Starts the control endpoint (see {@link ControlServer}) and answers its URL; for a fake run as a process, only
     * when its flag asks. Stopped with the fake.
     */
    public String startControl() {
        synchronized (state) {
            if (control == null) {
                try {
                    control = new ControlServer(this);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot start the control endpoint", e);
                }
            }
            return control.url();
        }
    }

    @Override
    public void close() {
        if (control != null) {
            control.close();
        }
        ticker.shutdownNow();
        server.stop(0);
        synchronized (state) {
            for (FakePool pool : state.pools.values()) {
                pool.nodes.values().forEach(FakeNode::killAll);
            }
        }
        options.processes.close();
        if (ownsRoot) {
            try (Stream<Path> paths = Files.walk(state.root)) {
                paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            } catch (IOException e) {
                // a temporary directory left behind is harmless
            }
        }
    }
}
