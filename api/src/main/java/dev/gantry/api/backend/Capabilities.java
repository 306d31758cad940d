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
    /**
     * Copies the GPU vendors.
     *
     * @param multiNode runs one job across nodes
     * @param containers runs container images
     * @param spot runs on Spot capacity
     * @param nativeDependencies orders dependent jobs itself
     * @param followLogs follows logs while a job runs
     * @param gpuVendors the GPU vendors, copied
     * @param evictions what an eviction does
     * @param mergedLogs returns the two output streams as one
     * @param placesByRegion runs each job in its plan's region
     * @throws NullPointerException when {@code gpuVendors} or {@code evictions} is null
     */
    public Capabilities {
        gpuVendors = Set.copyOf(Objects.requireNonNull(gpuVendors, "gpuVendors"));
        Objects.requireNonNull(evictions, "evictions");
    }

    /**
     * The first SPI v2 form: jobs run where the backend is configured, whatever their plan's region.
     *
     * @param multiNode whether one job may span nodes
     * @param containers whether container images run
     * @param spot whether Spot capacity is used
     * @param nativeDependencies whether the orchestrator orders dependent jobs
     * @param followLogs whether logs can be followed
     * @param gpuVendors the GPU vendors it schedules
     * @param evictions how evictions end
     * @param mergedLogs whether the streams come back merged
     */
    public Capabilities(boolean multiNode, boolean containers, boolean spot, boolean nativeDependencies,
                        boolean followLogs, Set<GpuVendor> gpuVendors, EvictionHandling evictions,
                        boolean mergedLogs) {
        this(multiNode, containers, spot, nativeDependencies, followLogs, gpuVendors, evictions, mergedLogs, false);
    }

    /**
     * The SPI v1 form: evictions end the job PREEMPTED, and the two output streams stay apart.
     *
     * @param multiNode whether a job may run on several nodes
     * @param containers whether it runs containers
     * @param spot whether it runs on Spot
     * @param nativeDependencies whether dependencies are the orchestrator's
     * @param followLogs whether logs follow
     * @param gpuVendors which GPU vendors
     */
    public Capabilities(boolean multiNode, boolean containers, boolean spot, boolean nativeDependencies,
                        boolean followLogs, Set<GpuVendor> gpuVendors) {
        this(multiNode, containers, spot, nativeDependencies, followLogs, gpuVendors, EvictionHandling.ENDS_PREEMPTED,
                false);
    }

    /** {@return a builder that starts from nothing: single node, no containers, no Spot, no GPUs, logs not followed} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * {@return a builder that starts from these capabilities} For example, to narrow a provider's to what a
     * configuration allows.
     */
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

        /**
         * Whether one job may run across several nodes.
         *
         * @param value true when it can
         * @return this builder
         */
        public Builder multiNode(boolean value) {
            multiNode = value;
            return this;
        }

        /**
         * Whether workloads with a container image run.
         *
         * @param value true when they can
         * @return this builder
         */
        public Builder containers(boolean value) {
            containers = value;
            return this;
        }

        /**
         * Whether plans on Spot capacity run and evictions are reported.
         *
         * @param value true when they can
         * @return this builder
         */
        public Builder spot(boolean value) {
            spot = value;
            return this;
        }

        /**
         * Whether the orchestrator orders dependent jobs itself.
         *
         * @param value true when it does; false lets core sequence them
         * @return this builder
         */
        public Builder nativeDependencies(boolean value) {
            nativeDependencies = value;
            return this;
        }

        /**
         * Whether logs can be followed while the job runs.
         *
         * @param value true when they can
         * @return this builder
         */
        public Builder followLogs(boolean value) {
            followLogs = value;
            return this;
        }

        /**
         * The GPU vendors; a null set, or a null in it, is named by {@link #build()}.
         *
         * @param value the vendors it schedules; empty for none
         * @return this builder
         */
        public Builder gpuVendors(Set<GpuVendor> value) {
            gpuVendors = value == null ? null : new java.util.HashSet<>(value);
            return this;
        }

        /**
         * How evictions end; null is named by {@link #build()}.
         *
         * @param value requeued by the orchestrator, or ended PREEMPTED
         * @return this builder
         */
        public Builder evictions(EvictionHandling value) {
            evictions = value;
            return this;
        }

        /**
         * Whether standard output and standard error come back as one stream.
         *
         * @param value true when they do
         * @return this builder
         */
        public Builder mergedLogs(boolean value) {
            mergedLogs = value;
            return this;
        }

        /**
         * Whether each job runs in its plan's region.
         *
         * @param value true when it does; false for a backend bound to where it is configured
         * @return this builder
         */
        public Builder placesByRegion(boolean value) {
            placesByRegion = value;
            return this;
        }

        /**
         * Builds the capabilities.
         *
         * @return the capabilities
         * @throws IllegalArgumentException naming every null given (a set, an element, evictions)
         */
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
