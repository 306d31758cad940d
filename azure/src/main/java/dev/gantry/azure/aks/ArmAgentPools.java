package dev.gantry.azure.aks;

import com.azure.core.http.rest.Response;
import com.azure.core.util.FluxUtil;
import com.azure.json.JsonProviders;
import com.azure.json.JsonReader;
import com.azure.resourcemanager.containerservice.fluent.AgentPoolsClient;
import com.azure.resourcemanager.containerservice.fluent.models.AgentPoolInner;
import com.azure.resourcemanager.containerservice.models.AgentPoolMode;
import com.azure.resourcemanager.containerservice.models.OSType;
import com.azure.resourcemanager.containerservice.models.ScaleSetEvictionPolicy;
import com.azure.resourcemanager.containerservice.models.ScaleSetPriority;
import dev.gantry.azure.arm.ArmFailures;
import dev.gantry.azure.arm.ArmFailures.Scope;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;
import reactor.core.publisher.Flux;

/** {@link AgentPools} through the Azure SDK's AKS client: one request per call. */
final class ArmAgentPools implements AgentPools {
    /** The built-in role that may read and create a cluster's node pools. */
    private static final String AKS_ROLE = "the Azure Kubernetes Service Contributor Role on the cluster";
    /** A pool the autoscaler grows from nothing: no node, and no cost, until a pod asks for one. */
    private static final int MIN_NODES = 0;
    /** The Spot price limit that means "up to the on-demand price": evicted for capacity, never for price. */
    private static final float ON_DEMAND_PRICE_LIMIT = -1f;

    private final AgentPoolsClient pools;

    ArmAgentPools(AgentPoolsClient pools) {
        this.pools = Objects.requireNonNull(pools, "pools");
    }

    @Override
    public Optional<AgentPool> find(AksCluster cluster, String name) {
        return call(scope("reading node pool " + name + " of AKS cluster " + cluster, ""), () -> {
            try {
                return Optional.of(read(pools.get(cluster.resourceGroup(), cluster.name(), name)));
            } catch (RuntimeException e) {
                if (ArmFailures.isResourceNotFound(e)) {
                    return Optional.empty();
                }
                throw e;
            }
        });
    }

    @Override
    public List<AgentPool> managedByGantry(AksCluster cluster) {
        return call(scope("listing the node pools of AKS cluster " + cluster, ""),
                () -> pools.list(cluster.resourceGroup(), cluster.name()).stream().map(ArmAgentPools::read)
                        .filter(AgentPool::managedByGantry).toList());
    }

    @Override
    public AgentPool beginCreate(AksCluster cluster, PoolRequest request) {
        Scope scope = scope("creating node pool " + request.name() + " (" + request.vmSize() + ", "
                + request.priority().armValue() + ") in AKS cluster " + cluster, request.vmSize());
        return call(scope, () -> {
            try {
                // The PUT alone, not the SDK's poller: the creation runs on in Azure while the job waits for nodes.
                Response<Flux<ByteBuffer>> accepted = pools.createOrUpdateWithResponseAsync(cluster.resourceGroup(),
                        cluster.name(), request.name(), template(request), null, "*").block();
                return read(parse(FluxUtil.collectBytesInByteBufferStream(accepted.getValue()).block()));
            } catch (RuntimeException e) {
                if (ArmFailures.isPreconditionFailed(e)) {
                    return read(pools.get(cluster.resourceGroup(), cluster.name(), request.name()));
                }
                throw e;
            }
        });
    }

    /** The request body of a Gantry pool (package-visible for tests of what goes on the wire). */
    static AgentPoolInner template(PoolRequest request) {
        AgentPoolInner pool = new AgentPoolInner()
                .withVmSize(request.vmSize())
                .withOsType(OSType.LINUX)
                .withMode(AgentPoolMode.USER)
                .withCount(MIN_NODES)
                .withEnableAutoScaling(true)
                .withMinCount(MIN_NODES)
                .withMaxCount(request.maxNodes())
                .withScaleSetPriority(ScaleSetPriority.fromString(request.priority().armValue()))
                .withTags(Map.of(MANAGED_TAG, "true"));
        if (!request.nodeTaints().isEmpty()) {
            pool.withNodeTaints(request.nodeTaints());
        }
        if (request.priority() == Priority.SPOT) {
            // AKS adds the Spot label and taint (kubernetes.azure.com/scalesetpriority=spot) itself.
            pool.withScaleSetEvictionPolicy(ScaleSetEvictionPolicy.DELETE).withSpotMaxPrice(ON_DEMAND_PRICE_LIMIT);
        }
        return pool;
    }

    private static AgentPoolInner parse(byte[] body) {
        try (JsonReader json = JsonProviders.createReader(body)) {
            return AgentPoolInner.fromJson(json);
        } catch (IOException e) {
            throw new UncheckedIOException("AKS answered a node pool creation with a body that is not a pool", e);
        }
    }

    private static AgentPool read(AgentPoolInner pool) {
        return new AgentPool(pool.name(), Objects.requireNonNullElse(pool.vmSize(), ""),
                Priority.ofArm(pool.scaleSetPriority() == null ? null : pool.scaleSetPriority().toString()),
                Objects.requireNonNullElse(pool.count(), 0), Boolean.TRUE.equals(pool.enableAutoScaling()),
                optional(pool.minCount()), optional(pool.maxCount()),
                Objects.requireNonNullElse(pool.nodeTaints(), List.of()),
                Objects.requireNonNullElse(pool.tags(), Map.of()),
                Objects.requireNonNullElse(pool.provisioningState(), ""),
                Optional.ofNullable(pool.powerState()).map(state -> state.code()).map(Object::toString));
    }

    private static OptionalInt optional(Integer value) {
        return value == null ? OptionalInt.empty() : OptionalInt.of(value);
    }

    private static Scope scope(String action, String vmSize) {
        return new Scope(action, vmSize, "the cluster's region", AKS_ROLE);
    }

    private static <T> T call(Scope scope, Supplier<T> armCall) {
        try {
            return armCall.get();
        } catch (RuntimeException e) {
            throw ArmFailures.translate(scope, e);
        }
    }
}
