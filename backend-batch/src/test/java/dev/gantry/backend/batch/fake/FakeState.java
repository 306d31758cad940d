package dev.gantry.backend.batch.fake;

import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Everything the account holds: pools and jobs by lower-cased id (Batch ids are case-insensitive, so {@code Job1} and
 * {@code job1} are one id), the nodes' root directory and the account's URL. Every reader and writer holds this
 * object's monitor: the fake is small, so one lock keeps it simple and consistent.
 */
final class FakeState {
    final BatchFakeOptions options;
    final Path root;
    final Map<String, FakePool> pools = new LinkedHashMap<>();
    /**
     * The ids of the pools held (deleting ones too), as Batch spells them, readable without this object's monitor:
     * Resource Manager's fake reads them under its own lock, and taking this one there could deadlock.
     */
    final Set<String> poolIds = ConcurrentHashMap.newKeySet();
    /** Told of every pool whose deletion starts, through either door (Resource Manager's view shows it Deleting). */
    Consumer<String> poolDeleting = id -> { };
    /** Told of every pool gone once deleted (Resource Manager's view forgets it too). */
    Consumer<String> poolDeleted = id -> { };
    final Map<String, FakeJob> jobs = new LinkedHashMap<>();
    String baseUrl = "";
    private int nodeSequence;

    FakeState(BatchFakeOptions options, Path root) {
        this.options = options;
        this.root = root;
    }

    Instant now() {
        return Instant.now();
    }

    static String key(String id) {
        return id.toLowerCase(Locale.ROOT);
    }

    FakePool pool(String id) {
        FakePool pool = pools.get(key(id));
        if (pool == null) {
            throw BatchError.notFound("PoolNotFound", "pool");
        }
        return pool;
    }

    FakeJob job(String id) {
        FakeJob job = jobs.get(key(id));
        if (job == null) {
            throw BatchError.notFound("JobNotFound", "job");
        }
        return job;
    }

    FakeTask task(String jobId, String taskId) {
        FakeTask task = job(jobId).task(taskId);
        if (task == null) {
            throw BatchError.notFound("TaskNotFound", "task");
        }
        return task;
    }

    FakeNode node(String poolId, String nodeId) {
        FakeNode node = pool(poolId).nodes.get(nodeId);
        if (node == null) {
            throw BatchError.notFound("NodeNotFound", "node");
        }
        return node;
    }

    /** A node of any pool by id (node ids are unique in the account), or null. */
    FakeNode anyNode(String nodeId) {
        for (FakePool pool : pools.values()) {
            FakeNode node = pool.nodes.get(nodeId);
            if (node != null) {
                return node;
            }
        }
        return null;
    }

    String nextNodeId(boolean dedicated) {
        return String.format("tvmps_%012x_%s", ++nodeSequence, dedicated ? "d" : "p");
    }

    long activeJobs() {
        return jobs.values().stream().filter(job -> job.state.equals("active")).count();
    }
}
