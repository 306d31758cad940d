package dev.gantry.api.backend;

import dev.gantry.api.GpuVendor;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * What a backend can do, so that core can refuse a plan early and choose how to drive it, and the conformance kit
 * knows which cases apply. A provider's {@link BackendProvider#capabilities()} says what the backend can do in some
 * configuration; a created backend's {@link Backend#capabilities()} says what it can do as configured now (for
 * example containers only when the cluster has Pyxis), and is the one core and the kit go by.
 *
 * @param multiNode runs one job across several nodes
 * @param containers runs container images
 * @param spot runs on Spot capacity and reports evictions
 * @param nativeDependencies the orchestrator orders jobs itself from {@link SubmitOptions#dependencies()} (core
 *     otherwise sequences them and submits a dependent job only once its dependencies ended)
 * @param followLogs logs can be followed while the job runs
 * @param gpuVendors GPU vendors it can schedule
 * @param evictions what an eviction does to a job here: requeued by the orchestrator, or ended PREEMPTED (SPI v2)
 * @param mergedLogs standard output and standard error come back as one stream, every line reported as
 *     {@link LogLine.Stream#STDOUT} (Kubernetes keeps one log per container) (SPI v2)
 * @param placesByRegion each job runs in its plan's {@link dev.gantry.api.Plan#region() region} (a pool, node pool
 *     or VMs made there for it), so core may plan a step evicted too often in one region again in another; false
 *     for a backend bound to where it is configured (hosts, one cluster), which never sees a step moved (SPI v2)
 */
public record Capabilities(boolean multiNode, boolean containers, boolean spot, boolean nativeDependencies,
                           boolean followLogs, Set<GpuVendor> gpuVendors, EvictionHandling evictions,
                           boolean mergedLogs, boolean placesByRegion) {
    public Capabilities {
        gpuVendors = Set.copyOf(Objects.requireNonNull(gpuVendors, "gpuVendors"));
        Objects.requireNonNull(evictions, "evictions");
    }

    /** The first SPI v2 form: jobs run where the backend is configured, whatever their plan's region. */
    public Capabilities(boolean multiNode, boolean containers, boolean spot, boolean nativeDependencies,
                        boolean followLogs, Set<GpuVendor> gpuVendors, EvictionHandling evictions,
                        boolean mergedLogs) {
        this(multiNode, containers, spot, nativeDependencies, followLogs, gpuVendors, evictions, mergedLogs, false);
    }

    /** The SPI v1 form: evictions end the job PREEMPTED, and the two output streams stay apart. */
    public Capabilities(boolean multiNode, boolean containers, boolean spot, boolean nativeDependencies,
                        boolean followLogs, Set<GpuVendor> gpuVendors) {
        this(multiNode, containers, spot, nativeDependencies, followLogs, gpuVendors, EvictionHandling.ENDS_PREEMPTED,
                false);
    }

    /** A builder that starts from nothing: single node, no containers, no Spot, no GPUs, logs not followed. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder that starts from these capabilities, e.g. to narrow a provider's to what a configuration allows. */
    public Builder toBuilder() {
        return new Builder().multiNode(multiNode).containers(containers).spot(spot)
                .nativeDependencies(nativeDependencies).followLogs(followLogs).gpuVendors(gpuVendors)
                .evictions(evictions).mergedLogs(mergedLogs).placesByRegion(placesByRegion);
    }

    /** Builds {@link Capabilities}; every flag starts false, evictions {@link EvictionHandling#ENDS_PREEMPTED}. */
    public static final class Builder {
        private boolean multiNode;
        private boolean containers;
        private boolean spot;
        private boolean nativeDependencies;
        private boolean followLogs;
        private Set<GpuVendor> gpuVendors = EnumSet.noneOf(GpuVendor.class);
        private EvictionHandling evictions = EvictionHandling.ENDS_PREEMPTED;
        private boolean mergedLogs;
        private boolean placesByRegion;

        private Builder() {
        }

        public Builder multiNode(boolean value) {
            multiNode = value;
            return this;
        }

        public Builder containers(boolean value) {
            containers = value;
            return this;
        }

        public Builder spot(boolean value) {
            spot = value;
            return this;
        }

        public Builder nativeDependencies(boolean value) {
            nativeDependencies = value;
            return this;
        }

        public Builder followLogs(boolean value) {
            followLogs = value;
            return this;
        }

        /** The GPU vendors; a null set, or a null in it, is named by {@link #build()}. */
        public Builder gpuVendors(Set<GpuVendor> value) {
            gpuVendors = value == null ? null : new java.util.HashSet<>(value);
            return this;
        }

        /** How evictions end; null is named by {@link #build()}. */
        public Builder evictions(EvictionHandling value) {
            evictions = value;
            return this;
        }

        public Builder mergedLogs(boolean value) {
            mergedLogs = value;
            return this;
        }

        public Builder placesByRegion(boolean value) {
            placesByRegion = value;
            return this;
        }

        /** The capabilities; IllegalArgumentException naming every null given (a set, an element, evictions). */
        public Capabilities build() {
            java.util.List<String> problems = new java.util.ArrayList<>();
            if (gpuVendors == null) {
                problems.add("gpuVendors: must not be null; give an empty set for no GPUs");
            } else if (gpuVendors.contains(null)) {
                problems.add("gpuVendors: must not contain null");
            }
            if (evictions == null) {
                problems.add("evictions: must not be null; leave it unset for " + EvictionHandling.ENDS_PREEMPTED);
            }
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException("invalid capabilities: " + String.join("; ", problems));
            }
            return new Capabilities(multiNode, containers, spot, nativeDependencies, followLogs, gpuVendors,
                    evictions, mergedLogs, placesByRegion);
        }
    }
}
