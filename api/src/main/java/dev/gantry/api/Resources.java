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

    public static final int MAX_NODES = 1000;
    public static final int MAX_GPUS_PER_NODE = 16;

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

    /** Nothing specified: one node, the advisor decides the rest. */
    public static Resources defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** True when the workload explicitly asks for CPU only ({@code gpus: 0}). */
    public boolean cpuOnly() {
        return gpus.isPresent() && gpus.getAsInt() == 0;
    }

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

        public Builder gpus(int gpus) {
            this.gpus = OptionalInt.of(gpus);
            return this;
        }

        public Builder gpuMemoryGib(double gib) {
            this.gpuMemoryGib = OptionalDouble.of(gib);
            return this;
        }

        /** The GPU vendor; null is a problem {@link #build()} reports with the others. */
        public Builder gpuVendor(GpuVendor vendor) {
            this.gpuVendor = vendor;
            return this;
        }

        public Builder vcpus(int vcpus) {
            this.vcpus = OptionalInt.of(vcpus);
            return this;
        }

        public Builder memoryGib(double gib) {
            this.memoryGib = OptionalDouble.of(gib);
            return this;
        }

        public Builder nodes(int nodes) {
            this.nodes = nodes;
            return this;
        }

        /** The interconnect; null is a problem {@link #build()} reports with the others. */
        public Builder interconnect(Interconnect interconnect) {
            this.interconnect = interconnect;
            return this;
        }

        /**
         * The resources, or SPEC_INVALID listing every problem under these fields' own names ({@code gpus}). Inside a
         * workload, give the builder to {@link Workload.Builder#resources(Builder)}: its problems are then listed with
         * the workload's, as {@code resources.gpus}.
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
