package dev.gantry.backend.aks.internal.pools;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.azure.aks.AgentPool;
import dev.gantry.azure.aks.AgentPools;
import dev.gantry.azure.aks.AksCluster;
import dev.gantry.azure.aks.PoolName;
import dev.gantry.azure.aks.PoolRequest;
import dev.gantry.azure.aks.Priority;
import dev.gantry.azure.arm.ArmFailures;
import dev.gantry.backend.aks.internal.AksSettings;
import dev.gantry.backend.aks.internal.AzurePools;
import dev.gantry.backend.aks.internal.GpuToleration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The node pool of each planned size and priority, through the Azure module's {@link AgentPools}: named
 * {@link PoolName#of}; used as it is when it exists (Gantry's or anyone's: a pool Gantry did not create is never
 * changed); else its creation is started and not waited for, so the job waits for the pool's first nodes. Each
 * pool is looked up once per process, however many jobs (and threads) ask; a failed lookup is not remembered. A
 * size that {@code nodePools} lists goes to that pool, and no pool is made for it.
 */
public final class AzurePoolKeeper implements PoolKeeper {
    static final String CREATING = "Creating";

    private final AksSettings settings;
    private final AzurePools azure;
    private final AksCluster cluster;
    private final Supplier<AgentPools> connect;
    private final System.Logger logger;
    private final Map<String, Lookup> lookups = new ConcurrentHashMap<>();
    private AgentPools pools;

    /**
     * @param connect signs in to the subscription's pools; called on the first lookup, so that creating the
     *     backend loads no Azure SDK class that a run without Spot or new sizes never needs
     */
    public AzurePoolKeeper(AksSettings settings, Supplier<AgentPools> connect, System.Logger logger) {
        this.settings = settings;
        this.azure = settings.azure().orElseThrow(() -> new IllegalArgumentException("no backends.aks.azure"));
        this.cluster = new AksCluster(azure.resourceGroup(), azure.cluster());
        this.connect = connect;
        this.logger = logger;
    }

    @Override
    public Optional<TargetPool> ensure(Plan plan) {
        if (settings.nodePools().poolFor(plan.vmSize().name()).isPresent()) {
            return Optional.empty();
        }
        PoolRequest request = request(plan, azure, settings.gpuTolerations());
        return Optional.of(lookups.computeIfAbsent(request.name(), name -> new Lookup()).get(() -> ensure(request)));
    }

    /**
     * The pool a plan needs: its size, Spot for Spot plans, the first GPU toleration as the taint of a GPU pool (so
     * that only pods that tolerate it land there), autoscaled up to {@code azure.maxNodes}.
     */
    static PoolRequest request(Plan plan, AzurePools azure, List<GpuToleration> gpuTolerations) {
        Priority priority = plan.spot() ? Priority.SPOT : Priority.REGULAR;
        String size = plan.vmSize().name();
        List<String> taints = plan.vmSize().hasGpu() && !gpuTolerations.isEmpty()
                ? List.of(gpuTolerations.get(0).toString()) : List.of();
        return new PoolRequest(PoolName.of(size, priority), size, priority, taints, azure.maxNodes());
    }

    /**
     * Where the job goes, given the pool of its name as Azure has it: PLAN_REJECTED when that pool has another size
     * or priority (only a pool someone else named so can), since its nodes could never take the job.
     */
    static TargetPool target(AgentPool pool, PoolRequest request, AksCluster cluster) {
        boolean otherSize = !pool.vmSize().isEmpty() && !pool.vmSize().equalsIgnoreCase(request.vmSize());
        if (otherSize || pool.priority() != request.priority()) {
            throw new GantryException(ErrorCode.PLAN_REJECTED, "node pool " + pool.name() + " of AKS cluster "
                    + cluster + " has " + describe(pool.vmSize(), pool.priority()) + " VMs, not the plan's "
                    + describe(request.vmSize(), request.priority()) + "; Gantry names the pool of a size and "
                    + "priority " + request.name() + " and never changes a pool it did not create: rename that pool "
                    + "(or delete it), or name a pool for " + request.vmSize() + " in backends.aks."
                    + AksSettings.NODE_POOLS);
        }
        return new TargetPool(pool.name(), CREATING.equalsIgnoreCase(pool.provisioningState()));
    }

    private TargetPool ensure(PoolRequest request) {
        Optional<AgentPool> existing = call(() -> pools().find(cluster, request.name()));
        if (existing.isPresent()) {
            return target(existing.get(), request, cluster);
        }
        AgentPool started = call(() -> pools().beginCreate(cluster, request));
        if (started.managedByGantry()) {
            logger.log(System.Logger.Level.INFO, "backends.aks: started creating node pool " + request.name() + " ("
                    + describe(request.vmSize(), request.priority()) + ", autoscaled from 0 to " + request.maxNodes()
                    + " nodes) in AKS cluster " + cluster + "; its jobs wait for its first nodes");
        }
        return target(started, request, cluster);
    }

    private synchronized AgentPools pools() {
        if (pools == null) {
            pools = connect.get();
        }
        return pools;
    }

    /** Azure's failures with the settings that chose the cluster, and a missing cluster as the settings' fault. */
    private <T> T call(Supplier<T> azureCall) {
        try {
            return azureCall.get();
        } catch (GantryException e) {
            String settings = "backends.aks." + AzurePools.SUBSCRIPTION + " " + azure.subscription() + ", "
                    + AzurePools.RESOURCE_GROUP + " " + azure.resourceGroup() + ", " + AzurePools.CLUSTER + " "
                    + azure.cluster();
            if (ArmFailures.isNotFound(e)) {
                throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "AKS cluster " + azure.cluster() + " was not "
                        + "found in resource group " + azure.resourceGroup() + " of subscription "
                        + azure.subscription() + " (" + settings + "): " + e.getMessage() + "; correct the settings (az "
                        + "aks list --subscription " + azure.subscription() + " -o table lists the clusters the "
                        + "signed-in identity can see)", e);
            }
            ErrorCode code = e.code() == ErrorCode.REMOTE_ERROR ? ErrorCode.BACKEND_UNAVAILABLE : e.code();
            throw new GantryException(code, settings + ": " + e.getMessage(), e);
        }
    }

    private static String describe(String vmSize, Priority priority) {
        return (vmSize.isEmpty() ? "unknown-size" : vmSize) + " " + priority.armValue().toLowerCase(Locale.ROOT);
    }

    /** One pool's lookup: the first caller does it while the others for that pool wait; a failure is not kept. */
    private static final class Lookup {
        private TargetPool pool;

        synchronized TargetPool get(Supplier<TargetPool> lookUp) {
            if (pool == null) {
                pool = lookUp.get();
            }
            return pool;
        }
    }
}
