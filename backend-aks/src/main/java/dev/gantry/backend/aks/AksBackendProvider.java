package dev.gantry.backend.aks;

import dev.gantry.api.GpuVendor;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.api.backend.EvictionHandling;
import dev.gantry.backend.aks.internal.AksBackend;
import dev.gantry.backend.aks.internal.AksSettings;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Azure Kubernetes Service: one Kubernetes Job per workload, GPU node pools, spot taints. Discovered with
 * ServiceLoader; the Kubernetes client is loaded only when a backend is created.
 */
public final class AksBackendProvider implements BackendProvider {

    public AksBackendProvider() {
    }

    @Override
    public String name() {
        return "aks";
    }

    @Override
    public String description() {
        return "Azure Kubernetes Service: one Kubernetes Job per workload, GPU node pools, spot taints.";
    }

    /**
     * Every pod is a container; Kubernetes requeues a one-node job's evicted pod itself (a multi-node job ends
     * PREEMPTED instead, which core resumes); a container has one log; core sequences dependent steps; one cluster is
     * one region.
     */
    static final Capabilities CAPABILITIES = Capabilities.builder().multiNode(true).containers(true).spot(true)
            .followLogs(true).gpuVendors(Set.of(GpuVendor.NVIDIA, GpuVendor.AMD)).evictions(EvictionHandling.REQUEUES)
            .mergedLogs(true).nativeDependencies(false).placesByRegion(false).build();

    @Override
    public Capabilities capabilities() {
        return CAPABILITIES;
    }

    @Override
    public List<ConfigKey> configKeys() {
        return AksSettings.KEYS;
    }

    @Override
    public Optional<String> unavailableReason() {
        return Optional.empty();
    }

    @Override
    public Backend create(BackendConfig config, BackendContext context) {
        return new AksBackend(CAPABILITIES, AksSettings.bind(config), context, version());
    }

    /** The version of Gantry, as the jar's manifest gives it ("dev" when run from classes). */
    private static String version() {
        String version = AksBackendProvider.class.getPackage().getImplementationVersion();
        return version == null || version.isBlank() ? "dev" : version;
    }
}
