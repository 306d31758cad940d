package dev.gantry.api;

import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * What one node of a workload needs. Empty optionals mean "let the advisor decide by the guidance"; an explicit
 * {@code gpus} overrides the model class (0 forces CPU, more forces GPU).
 *
 * @param gpus GPUs per node
 * @param gpuMemoryGib minimum memory per GPU, GiB
 * @param gpuVendor wanted GPU vendor
 * @param vcpus minimum vCPUs per node
 * @param memoryGib minimum memory per node, GiB
 * @param nodes number of nodes, at least 1
 * @param interconnect network between nodes
 */
public record Resources(
        OptionalInt gpus,
        OptionalDouble gpuMemoryGib,
        GpuVendor gpuVendor,
        OptionalInt vcpus,
        OptionalDouble memoryGib,
        int nodes,
        Interconnect interconnect) {

    /** The most nodes one workload may ask for. */
    public static final int MAX_NODES = 1000;
    /** The most GPUs per node a workload may ask for (more than any Azure size has). */
    public static final int MAX_GPUS_PER_NODE = 16;

    /**
     * Checks every field and reports every problem at once.
     *
     * @param gpus GPUs per node, 0 to {@link #MAX_GPUS_PER_NODE}, or empty
     * @param gpuMemoryGib minimum GiB per GPU, greater than zero, or empty; empty when {@code gpus} is 0
     * @param gpuVendor the vendor; {@link GpuVendor#ANY} when {@code gpus} is 0
     * @param vcpus minimum vCPUs per node, at least 1, or empty
     * @param memoryGib minimum GiB per node, greater than zero, or empty
     * @param nodes number of nodes, 1 to {@link #MAX_NODES}
     * @param interconnect the network between nodes
     * @throws NullPointerException when a component is null
     * @throws GantryException with {@link ErrorCode#SPEC_INVALID} listing every field out of range
     */
    public Resources {
        Objects.requireNonNull(gpus, "gpus");
        Objects.requireNonNull(gpuMemoryGib, "gpuMemoryGib");
        Objects.requireNonNull(gpuVendor, "gpuVendor");
        Objects.requireNonNull(vcpus, "vcpus");
        Objects.requireNonNull(memoryGib, "memoryGib");
        Objects.requireNonNull(interconnect, "interconnect");
        Checks checks = new Checks();
        gpus.ifPresent(n -> checks.require(n >= 0 && n <= MAX_GPUS_PER_NODE, "gpus",
                "must be between 0 and " + MAX_GPUS_PER_NODE + ", got " + n));
        gpuMemoryGib.ifPresent(g -> checks.require(g > 0 && Double.isFinite(g), "gpuMemoryGib",
                "must be > 0, got " + Numbers.format(g)));
        vcpus.ifPresent(n -> checks.require(n >= 1, "vcpus", "must be >= 1, got " + n));
        memoryGib.ifPresent(m -> checks.require(m > 0 && Double.isFinite(m), "memoryGib",
                "must be > 0, got " + Numbers.format(m)));
        checks.require(nodes >= 1 && nodes <= MAX_NODES, "nodes",
                "must be between 1 and " + MAX_NODES + ", got " + nodes);
        if (gpus.isPresent() && gpus.getAsInt() == 0) {
            checks.require(gpuMemoryGib.isEmpty(), "gpuMemoryGib",
                    "must not be set when gpus is 0 (CPU only), got " + Numbers.format(gpuMemoryGib.orElse(0)));
            checks.require(gpuVendor == GpuVendor.ANY, "gpuVendor",
                    "must be any when gpus is 0 (CPU only), got " + gpuVendor.name().toLowerCase(java.util.Locale.ROOT));
        }
        checks.throwIfAny();
    }

    /**
     * Nothing specified: one node, the advisor decides the rest.
     *
     * @return resources with every optional empty, one node, any vendor and interconnect
     */
    public static Resources defaults() {
        return builder().build();
    }

    /**
     * A builder with nothing specified.
     *
     * @return a builder whose unset fields give {@link #defaults()}
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Whether the workload explicitly asks for CPU only.
     *
     * @return true for {@code gpus: 0}; false when GPUs are asked for or left to the advisor
     */
    public boolean cpuOnly() {
        return gpus.isPresent() && gpus.getAsInt() == 0;
    }

    /**
     * A builder holding these resources, to change some of them.
     *
     * @return a new builder with every field set from this record
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.gpus = gpus;
        b.gpuMemoryGib = gpuMemoryGib;
        b.gpuVendor = gpuVendor;
        b.vcpus = vcpus;
        b.memoryGib = memoryGib;
        b.nodes = nodes;
        b.interconnect = interconnect;
        return b;
    }

    /** Builder for {@link Resources}; unset fields take the defaults described on the record. */
    public static final class Builder {
        private OptionalInt gpus = OptionalInt.empty();
        private OptionalDouble gpuMemoryGib = OptionalDouble.empty();
        private GpuVendor gpuVendor = GpuVendor.ANY;
        private OptionalInt vcpus = OptionalInt.empty();
        private OptionalDouble memoryGib = OptionalDouble.empty();
        private int nodes = 1;
        private Interconnect interconnect = Interconnect.ANY;

        private Builder() {
        }

        /**
         * GPUs per node; 0 forces CPU sizes, more forces GPU sizes. Unset, the advisor decides from the model.
         *
         * @param gpus GPUs per node, 0 to {@link #MAX_GPUS_PER_NODE}
         * @return this builder
         */
        public Builder gpus(int gpus) {
            this.gpus = OptionalInt.of(gpus);
            return this;
        }

        /**
         * The least memory each GPU must have. Unset, the advisor derives it from the model's size.
         *
         * @param gib GiB per GPU, greater than zero
         * @return this builder
         */
        public Builder gpuMemoryGib(double gib) {
            this.gpuMemoryGib = OptionalDouble.of(gib);
            return this;
        }

        /**
         * The GPU vendor; null is a problem {@link #build()} reports with the others. Unset, any vendor.
         *
         * @param vendor the vendor wanted
         * @return this builder
         */
        public Builder gpuVendor(GpuVendor vendor) {
            this.gpuVendor = vendor;
            return this;
        }

        /**
         * The least vCPUs each node must have. Unset, no minimum.
         *
         * @param vcpus vCPUs per node, at least 1
         * @return this builder
         */
        public Builder vcpus(int vcpus) {
            this.vcpus = OptionalInt.of(vcpus);
            return this;
        }

        /**
         * The least memory each node must have. Unset, no minimum.
         *
         * @param gib GiB per node, greater than zero
         * @return this builder
         */
        public Builder memoryGib(double gib) {
            this.memoryGib = OptionalDouble.of(gib);
            return this;
        }

        /**
         * The number of nodes; default 1.
         *
         * @param nodes nodes, 1 to {@link #MAX_NODES}
         * @return this builder
         */
        public Builder nodes(int nodes) {
            this.nodes = nodes;
            return this;
        }

        /**
         * The interconnect; null is a problem {@link #build()} reports with the others. Unset, any.
         *
         * @param interconnect the network wanted between nodes
         * @return this builder
         */
        public Builder interconnect(Interconnect interconnect) {
            this.interconnect = interconnect;
            return this;
        }

        /**
         * The resources, or SPEC_INVALID listing every problem under these fields' own names ({@code gpus}). Inside a
         * workload, give the builder to {@link Workload.Builder#resources(Builder)}: its problems are then listed with
         * the workload's, as {@code resources.gpus}.
         *
         * @return the resources
         * @throws GantryException with {@link ErrorCode#SPEC_INVALID} listing every problem
         */
        public Resources build() {
            Checks checks = new Checks();
            checks.require(gpuVendor != null, "gpuVendor", "must not be null; leave it unset for any vendor");
            checks.require(interconnect != null, "interconnect", "must not be null; leave it unset for any");
            java.util.Optional<Resources> built = checks.attempt(() -> new Resources(gpus, gpuMemoryGib,
                    gpuVendor == null ? GpuVendor.ANY : gpuVendor, vcpus, memoryGib, nodes,
                    interconnect == null ? Interconnect.ANY : interconnect));
            checks.throwIfAny();
            return built.orElseThrow();
        }
    }
}
