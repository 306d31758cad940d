package dev.gantry.backend.batch.internal.pools;

import com.microsoft.azure.batch.protocol.models.CloudJob;
import com.microsoft.azure.batch.protocol.models.CloudPool;
import com.microsoft.azure.batch.protocol.models.CloudTask;
import com.microsoft.azure.batch.protocol.models.ComputeNode;
import com.microsoft.azure.batch.protocol.models.ComputeNodeListOptions;
import com.microsoft.azure.batch.protocol.models.JobGetOptions;
import com.microsoft.azure.batch.protocol.models.NodeRemoveParameter;
import com.microsoft.azure.batch.protocol.models.PoolGetOptions;
import com.microsoft.azure.batch.protocol.models.PoolListOptions;
import com.microsoft.azure.batch.protocol.models.PoolState;
import com.microsoft.azure.batch.protocol.models.TaskListOptions;
import com.microsoft.azure.batch.protocol.models.TaskState;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.IdleResource;
import dev.gantry.azure.batch.BatchAccountId;
import dev.gantry.azure.batch.BatchManagement;
import dev.gantry.backend.batch.internal.BatchAccountSettings;
import dev.gantry.backend.batch.internal.BatchSettings;
import dev.gantry.backend.batch.internal.ExistingPool;
import dev.gantry.backend.batch.internal.remote.AccountCalls;
import dev.gantry.backend.batch.internal.remote.BatchRefusal;
import dev.gantry.backend.batch.internal.render.PoolMetadata;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The pools Gantry created in one account that cost money or hold quota with nothing to do, for the SPI's gc hook
 * ({@code Backend.idleResources()} and {@code release}): a pool whose Gantry job has had no active, preparing or
 * running task for {@code idlePoolTimeout} (kind {@value #POOL}), and a preempted Spot node still in a busy Gantry
 * pool (kind {@value #NODE}, id {@code POOL/NODE}). Only pools whose metadata marks them as Gantry's are looked at,
 * never one of {@code pools[*]}. Looking changes nothing; {@link #release} checks again before it removes anything.
 */
public final class IdlePools {
    public static final String POOL = "pool";
    public static final String NODE = "node";
    /** What a task list needs to tell a busy job from an idle one, and since when it is idle. */
    private static final String TASK_FIELDS = "id,state,stateTransitionTime";
    private static final int PAGE = 1000;
    /** A terminate's or delete's refusals that mean it is done: gone (404), already ending or being deleted (409). */
    private static final Predicate<BatchRefusal> GONE_OR_ENDING = refusal -> refusal.status() == 404
            || refusal.status() == 409;

    private final BatchAccountSettings account;
    private final BatchSettings settings;
    private final AccountCalls calls;
    private final Optional<BatchManagement> management;
    private final Clock clock;

    /**
     * @param calls the account's calls, each through the one retry policy
     * @param management Resource Manager's Batch calls, for pools that carry an identity (created there, deleted
     *     there); empty when the account has no {@code resourceId}
     */
    public IdlePools(BatchAccountSettings account, BatchSettings settings, AccountCalls calls,
            Optional<BatchManagement> management, Clock clock) {
        this.account = Objects.requireNonNull(account, "account");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.calls = Objects.requireNonNull(calls, "calls");
        this.management = Objects.requireNonNull(management, "management");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Where this account's resources are, as {@link IdleResource#location()} says it: the account's host. */
    public String location() {
        return account.url().getHost();
    }

    /** Idle pools, then preempted nodes of the Gantry pools that are not idle. */
    public List<IdleResource> idleResources() {
        List<IdleResource> idle = new ArrayList<>();
        for (CloudPool pool : gantryPools()) {
            Optional<Instant> since = idleSince(pool);
            if (since.isPresent()) {
                idle.add(poolResource(pool.id(), since.get()));
            } else {
                for (ComputeNode node : preemptedNodes(pool.id())) {
                    idle.add(nodeResource(pool.id(), node));
                }
            }
        }
        return idle;
    }

    /**
     * Releases a pool (terminates and deletes its job, deletes the pool) or a preempted node (removed from its pool),
     * after checking that it is still idle; true when released or already gone, false when in use again.
     */
    public boolean release(IdleResource resource) {
        if (!resource.location().equals(Optional.of(location()))) {
            throw notOurs(resource, "it is not in account " + location());
        }
        return switch (resource.kind()) {
            case POOL -> releasePool(resource);
            case NODE -> releaseNode(resource);
            default -> throw notOurs(resource, "this backend reports only kinds " + POOL + " and " + NODE);
        };
    }

    private boolean releasePool(IdleResource resource) {
        String poolId = resource.id();
        checkNotExisting(resource, poolId);
        Optional<CloudPool> pool = pool(poolId);
        if (pool.isEmpty() || pool.get().state() == PoolState.DELETING) {
            return true;
        }
        if (!PoolMetadata.isGantrys(pool.get().metadata())) {
            throw notOurs(resource, "its metadata does not mark it as Gantry's");
        }
        if (idleSince(pool.get()).isEmpty()) {
            return false;
        }
        terminateJob(poolId);
        deleteJob(poolId);
        deletePool(pool.get());
        return true;
    }

    private boolean releaseNode(IdleResource resource) {
        int slash = resource.id().indexOf('/');
        if (slash < 1 || slash == resource.id().length() - 1) {
            throw notOurs(resource, "a node's id reads POOL/NODE");
        }
        String poolId = resource.id().substring(0, slash);
        String nodeId = resource.id().substring(slash + 1);
        checkNotExisting(resource, poolId);
        Optional<CloudPool> pool = pool(poolId);
        if (pool.isEmpty() || pool.get().state() == PoolState.DELETING) {
            return true;
        }
        if (!PoolMetadata.isGantrys(pool.get().metadata())) {
            throw notOurs(resource, "its pool's metadata does not mark it as Gantry's");
        }
        List<ComputeNode> preempted = preemptedNodes(poolId);
        if (preempted.stream().noneMatch(node -> node.id().equals(nodeId))) {
            // Gone, or back in service: the node list tells which.
            return !nodeExists(poolId, nodeId);
        }
        removeNode(poolId, nodeId);
        return true;
    }

    /**
     * When the pool's job last had a task active, preparing or running, if it has had none for the idle timeout:
     * the latest task state change, or the job's or pool's creation when no task ever changed state; empty while busy
     * or idle for less than the timeout.
     */
    Optional<Instant> idleSince(CloudPool pool) {
        Instant since = instant(pool.creationTime());
        Optional<CloudJob> job = job(pool.id());
        if (job.isPresent()) {
            since = later(since, instant(job.get().creationTime()));
            for (CloudTask task : tasks(pool.id())) {
                if (task.state() != TaskState.COMPLETED) {
                    return Optional.empty();
                }
                since = later(since, instant(task.stateTransitionTime()));
            }
        }
        Duration idleFor = Duration.between(since, clock.instant());
        return idleFor.compareTo(settings.idlePoolTimeout()) >= 0 ? Optional.of(since) : Optional.empty();
    }

    private IdleResource poolResource(String poolId, Instant since) {
        return new IdleResource(POOL, poolId, Optional.of(location()), "no active or running task in its job "
                + poolId + " for " + settings.idlePoolTimeout().toString().substring(2).toLowerCase(java.util.Locale.ROOT) + " or more "
                + "(idlePoolTimeout); deleting it deletes its job and ended tasks' files", Optional.of(since),
                Optional.empty());
    }

    private IdleResource nodeResource(String poolId, ComputeNode node) {
        return new IdleResource(NODE, poolId + "/" + node.id(), Optional.of(location()), "Spot node preempted; it "
                + "stays counted in pool " + poolId + " until removed", Optional.ofNullable(node.stateTransitionTime())
                .map(IdlePools::instant), Optional.empty());
    }

    private void checkNotExisting(IdleResource resource, String poolId) {
        if (settings.existingPools().stream().map(ExistingPool::id).anyMatch(poolId::equalsIgnoreCase)) {
            throw notOurs(resource, "pool " + poolId + " is listed under backends.batch." + BatchSettings.POOLS
                    + ", which Gantry uses but never changes");
        }
    }

    private List<CloudPool> gantryPools() {
        List<CloudPool> pools = new ArrayList<>();
        for (CloudPool pool : listPools()) {
            boolean existing = settings.existingPools().stream().map(ExistingPool::id)
                    .anyMatch(pool.id()::equalsIgnoreCase);
            if (!existing && pool.state() != PoolState.DELETING && PoolMetadata.isGantrys(pool.metadata())) {
                pools.add(pool);
            }
        }
        return pools;
    }

    private void deletePool(CloudPool pool) {
        boolean identity = pool.identity() != null && pool.identity().userAssignedIdentities() != null
                && !pool.identity().userAssignedIdentities().isEmpty();
        if (identity && management.isPresent() && account.resourceId().isPresent()) {
            deletePoolThroughResourceManager(pool.id());
        } else {
            deletePoolThroughBatch(pool.id());
        }
    }

    // ---- one protocol call each, through the one retry policy ----

    /** {@code Pool_List} of the pools whose id starts with the prefix, with what idleness needs. */
    private List<CloudPool> listPools() {
        return calls.call("listing the pools of account " + location(), batch -> new ArrayList<>(batch.pools()
                .list(new PoolListOptions().withFilter("startswith(id,'" + settings.poolPrefix() + "')")
                        .withSelect("id,state,creationTime,metadata,identity").withMaxResults(PAGE)))); // every page
    }

    /** {@code Pool_Get}; empty when it is gone. */
    private Optional<CloudPool> pool(String poolId) {
        return calls.callOrEmpty("reading pool " + poolId, AccountCalls.notFound(), batch -> batch.pools().get(poolId,
                new PoolGetOptions().withSelect("id,state,creationTime,metadata,identity")));
    }

    /** {@code Job_Get}; empty when the pool has no job (made, never used, or its job deleted). */
    private Optional<CloudJob> job(String jobId) {
        return calls.callOrEmpty("reading job " + jobId, AccountCalls.notFound(), batch -> batch.jobs().get(jobId,
                new JobGetOptions().withSelect("id,state,creationTime")));
    }

    /** {@code Task_List} of the job's tasks (ended ones are kept for taskRetention), every page. */
    private List<CloudTask> tasks(String jobId) {
        return calls.callOrEmpty("listing the tasks of job " + jobId, AccountCalls.notFound(),
                batch -> (List<CloudTask>) new ArrayList<>(batch.tasks().list(jobId, new TaskListOptions()
                        .withSelect(TASK_FIELDS).withMaxResults(PAGE)))).orElse(List.of());
    }

    /** {@code ComputeNode_List} filtered on {@code state eq 'preempted'}. */
    private List<ComputeNode> preemptedNodes(String poolId) {
        return calls.callOrEmpty("listing the preempted nodes of pool " + poolId, AccountCalls.notFound(),
                batch -> (List<ComputeNode>) new ArrayList<>(batch.computeNodes().list(poolId,
                        new ComputeNodeListOptions().withFilter("state eq 'preempted'")
                                .withSelect("id,state,stateTransitionTime")))).orElse(List.of());
    }

    /** {@code ComputeNode_Get}: whether the node is still in the pool. */
    private boolean nodeExists(String poolId, String nodeId) {
        return calls.callOrEmpty("reading node " + nodeId + " of pool " + poolId, AccountCalls.notFound(),
                batch -> batch.computeNodes().get(poolId, nodeId)).isPresent();
    }

    /** {@code Pool_RemoveNodes} of one node; a node or pool already gone is fine. */
    private void removeNode(String poolId, String nodeId) {
        calls.callOrEmpty("removing preempted node " + nodeId + " from pool " + poolId, AccountCalls.notFound(),
                batch -> {
                    batch.pools().removeNodes(poolId, new NodeRemoveParameter().withNodeList(List.of(nodeId)));
                    return true;
                });
    }

    /** {@code Job_Terminate}; a job already ended or gone is fine. */
    private void terminateJob(String jobId) {
        calls.callOrEmpty("terminating job " + jobId, GONE_OR_ENDING, batch -> {
            batch.jobs().terminate(jobId);
            return true;
        });
    }

    /** {@code Job_Delete}; a job already gone or being deleted is fine. */
    private void deleteJob(String jobId) {
        calls.callOrEmpty("deleting job " + jobId, GONE_OR_ENDING, batch -> {
            batch.jobs().delete(jobId);
            return true;
        });
    }

    /** {@code Pool_Delete}; a pool already gone or being deleted is fine. */
    private void deletePoolThroughBatch(String poolId) {
        calls.callOrEmpty("deleting pool " + poolId, GONE_OR_ENDING, batch -> {
            batch.pools().delete(poolId);
            return true;
        });
    }

    /** Resource Manager's pool delete, for a pool created there with an identity. */
    private void deletePoolThroughResourceManager(String poolId) {
        management.orElseThrow().deletePool(BatchAccountId.parse(account.resourceId().orElseThrow()), poolId);
    }

    // ---- helpers ----

    private static GantryException notOurs(IdleResource resource, String why) {
        return new GantryException(ErrorCode.USAGE, "the batch backend does not hold " + resource.describe()
                + ": " + why + "; list what it holds idle with: gantry gc --dry-run");
    }

    private static Instant instant(org.joda.time.DateTime time) {
        return time == null ? Instant.EPOCH : Instant.ofEpochMilli(time.getMillis());
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
