package dev.gantry.backend.cyclecloud.internal.cyclecloud;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;

/**
 * One node array of a CycleCloud cluster, as {@code GET /clusters/{cluster}/status} reports it: the VM sizes it can
 * start (one bucket per size), its limits, and what the scheduler makes of it.
 *
 * @param name the node array's name ({@code nodearrays[].name})
 * @param partition the Slurm partition its nodes join: the array's {@code Configuration.slurm.partition}, else its
 *                  name (cyclecloud-slurm's default, which gives the partitions hpc, htc, gpu and dynamic); empty when
 *                  {@code slurm.autoscale} is false, an array cyclecloud-slurm makes no partition of
 * @param spot whether its VMs are Spot ({@code Interruptible} on the array's record), so can be evicted
 * @param hpc {@code slurm.hpc}: whether cyclecloud-slurm keeps its nodes in one placement group (tightly coupled
 *            MPI jobs); cyclecloud-slurm reads an absent value as true
 * @param maxCount the most nodes the array may have ({@code nodearrays[].maxCount})
 * @param maxCoreCount the most cores the array may have ({@code nodearrays[].maxCoreCount})
 * @param buckets the array's allocation buckets, one per VM size its definition allows, in CycleCloud's order
 */
public record NodeArray(String name, Optional<String> partition, boolean spot, boolean hpc, long maxCount,
                        long maxCoreCount, List<Bucket> buckets) {
    public NodeArray {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(partition, "partition");
        buckets = List.copyOf(buckets);
    }

    /**
     * One allocation bucket: a set of VMs of one size that the array can start, with CycleCloud's counts for it.
     *
     * @param vmSize the Azure VM size ({@code definition.machineType})
     * @param valid whether new nodes can start from it; an invalid bucket only keeps existing nodes
     * @param invalidReason why it is invalid ({@code NotActivated} or {@code DisabledMachineType}), if it is
     * @param maxCount the most nodes it can hold, counting the node array's and the cluster's limits
     * @param activeCount nodes in it now, including those still acquiring a VM
     * @param availableCount how many more nodes CycleCloud can start in it now (limits and quota together)
     * @param quotaCount how many VMs of the size the subscription's quota for the family allows in the region
     * @param vcpuCount vCPUs per VM
     * @param memoryGb memory per VM in GB
     * @param gpuCount GPUs per VM; empty when CycleCloud left it out (its published example does)
     * @param infiniband whether the size has InfiniBand
     */
    public record Bucket(String vmSize, boolean valid, Optional<String> invalidReason, long maxCount,
                         long activeCount, long availableCount, long quotaCount, int vcpuCount, double memoryGb,
                         OptionalInt gpuCount, boolean infiniband) {
        public Bucket {
            Objects.requireNonNull(vmSize, "vmSize");
            Objects.requireNonNull(invalidReason, "invalidReason");
            Objects.requireNonNull(gpuCount, "gpuCount");
        }

        /** Whether this bucket's size is {@code size}; Azure size names compare without regard to case. */
        public boolean isSize(String size) {
            return vmSize.toLowerCase(Locale.ROOT).equals(size.toLowerCase(Locale.ROOT));
        }

        /** Whether its nodes have reached {@link #maxCount}, so that none can start whatever the quota. */
        public boolean atMaxCount() {
            return activeCount >= maxCount;
        }
    }

    /** The buckets of that size, valid or not. */
    public List<Bucket> bucketsOf(String vmSize) {
        return buckets.stream().filter(bucket -> bucket.isSize(vmSize)).toList();
    }

    /** Whether the array can start new VMs of that size: it has a valid bucket for it. */
    public boolean starts(String vmSize) {
        return buckets.stream().anyMatch(bucket -> bucket.valid() && bucket.isSize(vmSize));
    }

    /** How many more VMs of that size CycleCloud can start in this array now. */
    public long available(String vmSize) {
        return validBuckets(vmSize).mapToLong(Bucket::availableCount).sum();
    }

    /** The most VMs of that size the array can ever hold. */
    public long capacity(String vmSize) {
        return validBuckets(vmSize).mapToLong(Bucket::maxCount).sum();
    }

    /** The sizes the array can start, each once, in bucket order. */
    public List<String> startableSizes() {
        return buckets.stream().filter(Bucket::valid).map(Bucket::vmSize).distinct().toList();
    }

    private Stream<Bucket> validBuckets(String vmSize) {
        return buckets.stream().filter(bucket -> bucket.valid() && bucket.isSize(vmSize));
    }
}
