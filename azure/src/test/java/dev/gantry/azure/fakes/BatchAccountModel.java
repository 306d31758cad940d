package dev.gantry.azure.fakes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.azure.batch.PoolAllocationMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * One Batch account as Resource Manager holds it, shared between {@link ArmFake}'s {@code Microsoft.Batch} routes and
 * the Batch data-plane fake: the allocation mode and core quotas {@code BatchAccount_Get} reports, and the pools put
 * through Resource Manager (with their identities). The data-plane fake learns of pools put or deleted here through a
 * {@link PoolListener}, and tells this model which pools it holds itself ({@link #dataPlanePools}), so that a put
 * with {@code If-None-Match: *} meets a pool of either origin and a delete reaches both. Pool ids compare
 * case-insensitively, as Batch's do.
 */
public final class BatchAccountModel {
    /** What the data-plane fake hears of pools made or removed through Resource Manager. */
    public interface PoolListener {
        /** A pool was created through Resource Manager: {@code armPool} is its body as stored (identities included). */
        void put(String poolName, JsonNode armPool);

        /** A pool was deleted through Resource Manager (one put there, or one the data plane holds). */
        void deleted(String poolName);
    }

    private final String subscription;
    private final String resourceGroup;
    private final String name;
    private final String region;
    private final PoolAllocationMode allocationMode;
    private final Map<String, ObjectNode> armPools = new LinkedHashMap<>();
    /** The (lower-cased) ids of the pools the data plane is deleting. */
    private final Set<String> deleting = new HashSet<>();
    private final Map<String, Integer> familyQuotas = new LinkedHashMap<>();
    private final List<PoolListener> listeners = new CopyOnWriteArrayList<>();
    private String endpoint;
    private int dedicatedCoreQuota = 500;
    private int lowPriorityCoreQuota = 500;
    private int poolQuota = 100;
    private int activeJobAndJobScheduleQuota = 300;
    private volatile Supplier<Set<String>> dataPlanePools = Set::of;

    BatchAccountModel(String subscription, String resourceGroup, String name, String region,
            PoolAllocationMode allocationMode) {
        this.subscription = subscription;
        this.resourceGroup = resourceGroup;
        this.name = name;
        this.region = region;
        this.allocationMode = allocationMode;
        this.endpoint = name + "." + region + ".batch.azure.com";
    }

    public String resourceId() {
        return "/subscriptions/" + subscription + "/resourceGroups/" + resourceGroup
                + "/providers/Microsoft.Batch/batchAccounts/" + name;
    }

    public String name() {
        return name;
    }

    public String region() {
        return region;
    }

    public PoolAllocationMode allocationMode() {
        return allocationMode;
    }

    /** The data-plane host {@code accountEndpoint} reports (the data-plane fake may set its own address). */
    public synchronized void endpoint(String host) {
        this.endpoint = host;
    }

    public synchronized void dedicatedCoreQuota(int cores) {
        this.dedicatedCoreQuota = cores;
    }

    public synchronized void lowPriorityCoreQuota(int cores) {
        this.lowPriorityCoreQuota = cores;
    }

    public synchronized int dedicatedCoreQuota() {
        return dedicatedCoreQuota;
    }

    public synchronized int lowPriorityCoreQuota() {
        return lowPriorityCoreQuota;
    }

    /** A dedicated-core quota for one VM family ({@code standardDv5Family}), enforced once any is set. */
    public synchronized void familyQuota(String family, int cores) {
        familyQuotas.put(family, cores);
    }

    public synchronized Map<String, Integer> familyQuotas() {
        return Map.copyOf(familyQuotas);
    }

    public synchronized void poolQuota(int pools) {
        this.poolQuota = pools;
    }

    public void addPoolListener(PoolListener listener) {
        listeners.add(listener);
    }

    /** The ids of the pools the data plane holds (set by the data-plane fake; none unless told). */
    public void dataPlanePools(Supplier<Set<String>> ids) {
        this.dataPlanePools = ids;
    }

    /**
     * The data-plane fake started deleting this pool (through either door): until it is gone Resource Manager shows it
     * with {@code provisioningState: Deleting}, as Azure does while Batch removes a pool's nodes, so that a put with
     * {@code If-None-Match: *} meets it and a caller reading it back sees that it is going. No listener hears of it:
     * the data plane already knows.
     */
    public synchronized void dataPlaneDeleting(String poolName) {
        deleting.add(key(poolName));
        ObjectNode pool = armPools.get(key(poolName));
        if (pool != null) {
            ((ObjectNode) pool.path("properties")).put("provisioningState", "Deleting")
                    .put("provisioningStateTransitionTime", Instant.now().toString());
        }
    }

    /**
     * The data-plane fake deleted this pool: Resource Manager no longer shows it (a pool put here and deleted through
     * the data plane is gone from both doors). No listener hears of it: the data plane already knows.
     */
    public synchronized void dataPlaneDeleted(String poolName) {
        armPools.remove(key(poolName));
        deleting.remove(key(poolName));
    }

    /** A pool put through Resource Manager, as stored (a copy). */
    public synchronized Optional<JsonNode> armPool(String poolName) {
        ObjectNode pool = armPools.get(key(poolName));
        return pool == null ? Optional.empty() : Optional.of(pool.deepCopy());
    }

    public synchronized List<String> armPoolNames() {
        List<String> names = new ArrayList<>();
        armPools.values().forEach(pool -> names.add(pool.path("name").asText()));
        return names;
    }

    // ---- for ArmFake's Batch routes ----

    synchronized String endpoint() {
        return endpoint;
    }

    synchronized int poolQuota() {
        return poolQuota;
    }

    synchronized int activeJobAndJobScheduleQuota() {
        return activeJobAndJobScheduleQuota;
    }

    synchronized ObjectNode storedArmPool(String poolName) {
        return armPools.get(key(poolName));
    }

    /** Whether a pool of this id exists through either door. */
    synchronized boolean hasPool(String poolName) {
        return armPools.containsKey(key(poolName)) || dataPlaneHolds(poolName);
    }

    synchronized int poolCount() {
        java.util.Set<String> all = new java.util.HashSet<>(armPools.keySet());
        dataPlanePools.get().forEach(id -> all.add(key(id)));
        return all.size();
    }

    void putArmPool(String poolName, ObjectNode pool) {
        synchronized (this) {
            armPools.put(key(poolName), pool);
        }
        listeners.forEach(listener -> listener.put(poolName, pool.deepCopy()));
    }

    /**
     * Removes the pool from both doors; false when neither had it. A pool the data plane holds stays visible here,
     * {@code Deleting}, until the data plane has removed it ({@link #dataPlaneDeleting}, {@link #dataPlaneDeleted}).
     */
    boolean deletePool(String poolName) {
        boolean existed;
        synchronized (this) {
            existed = hasPool(poolName);
        }
        if (existed) {
            listeners.forEach(listener -> listener.deleted(poolName));
        }
        synchronized (this) {
            if (!dataPlaneHolds(poolName)) {
                armPools.remove(key(poolName));
                deleting.remove(key(poolName));
            }
        }
        return existed;
    }

    /** Whether the data plane is deleting the pool (Resource Manager shows it {@code Deleting}). */
    synchronized boolean isDeleting(String poolName) {
        return deleting.contains(key(poolName));
    }

    private boolean dataPlaneHolds(String poolName) {
        return dataPlanePools.get().stream().anyMatch(id -> id.equalsIgnoreCase(poolName));
    }

    private static String key(String poolName) {
        return poolName.toLowerCase(Locale.ROOT);
    }
}
