package dev.gantry.backend.cyclecloud.internal.cyclecloud;

import dev.gantry.api.Problem;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a CycleCloud cluster can start, read from its status: its node arrays, the VM sizes each can start and the
 * Slurm partition each serves. The backend asks it which partition a plan's VM size goes to, and whether the cluster
 * can run the plan at all, before it submits anything.
 *
 * @param cluster the cluster's name in CycleCloud
 * @param state the cluster's state ({@code Started}, ...), absent if it never started
 * @param targetState the state CycleCloud is taking it to
 * @param maxCount the most nodes the cluster may have
 * @param maxCoreCount the most cores the cluster may have
 * @param nodeArrays its node arrays, in CycleCloud's order
 */
public record ClusterLayout(String cluster, Optional<String> state, Optional<String> targetState, long maxCount,
                            long maxCoreCount, List<NodeArray> nodeArrays) {
    /** Which array a size goes to when several qualify: the one that can start the most now, then by partition. */
    private static final Comparator<Candidate> PREFERENCE = Comparator.comparingLong(Candidate::available)
            .reversed().thenComparing(Candidate::partition);

    public ClusterLayout {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(targetState, "targetState");
        nodeArrays = List.copyOf(nodeArrays);
    }

    /**
     * The Slurm partition for a plan of this VM size (compared without regard to case, as Azure does) and pricing:
     * the partition of a node array that starts the size and is Spot exactly when the plan is. A Spot plan never
     * goes to an on-demand array nor the other way round: the plan's price and its eviction handling were chosen
     * for its pricing. When several arrays qualify, the one that can start the most VMs of the size now wins, then
     * the partition name in alphabetical order.
     */
    public Optional<String> partitionFor(String vmSize, boolean spot) {
        return chosen(vmSize, spot).map(Candidate::partition);
    }

    /**
     * What keeps the cluster from running {@code nodes} VMs of this size and pricing, as problems on the field
     * {@code vmSize}: no node array starts the size; the arrays that have it cannot take the plan (invalid bucket,
     * no Slurm partition, the other pricing); or the chosen array can never hold that many nodes. Empty when the
     * plan fits.
     */
    public List<Problem> problems(String vmSize, boolean spot, int nodes) {
        List<NodeArray> having = nodeArrays.stream().filter(array -> !array.bucketsOf(vmSize).isEmpty()).toList();
        Optional<Candidate> chosen = chosen(vmSize, spot);
        if (chosen.isPresent()) {
            long capacity = chosen.get().array().capacity(vmSize);
            if (nodes <= capacity) {
                return List.of();
            }
            return List.of(Problem.of("vmSize", "the plan needs " + nodes + " nodes of " + vmSize + ", but node array '"
                    + chosen.get().array().name() + "' (partition " + chosen.get().partition() + ") of CycleCloud"
                    + " cluster '" + cluster + "' can hold at most " + capacity + "; raise the node array's MaxCount"
                    + " in CycleCloud (and the cluster's, if that is lower), or plan at most " + capacity + " nodes"));
        }
        String wanted = (spot ? "Spot " : "on-demand ") + vmSize;
        String fix = "add a node array, or a MachineType on one, that starts " + vmSize + (spot ? " as Spot"
                : " on-demand") + " in CycleCloud (for Slurm, then run azslurm scale on the scheduler node), or plan "
                + "with a size the cluster has";
        if (nodeArrays.isEmpty()) {
            return List.of(Problem.of("vmSize", "CycleCloud cluster '" + cluster + "' has no node arrays, so it cannot"
                    + " start " + wanted + "; " + fix));
        }
        if (having.isEmpty()) {
            return List.of(Problem.of("vmSize", "no node array of CycleCloud cluster '" + cluster + "' starts "
                    + vmSize + "; its node arrays: " + inventory() + "; " + fix));
        }
        List<String> reasons = having.stream().map(array -> "node array '" + array.name() + "' " + whyNot(array,
                vmSize, spot)).toList();
        return List.of(Problem.of("vmSize", "CycleCloud cluster '" + cluster + "' cannot start " + wanted + ": "
                + String.join("; ", reasons) + "; its node arrays: " + inventory() + "; " + fix));
    }

    /**
     * Why the plan may wait: the array chosen for it cannot start {@code nodes} more VMs of the size now, because its
     * nodes are at the array's limit or the subscription's quota is spent. Empty when it can, or when
     * {@link #problems} says the plan cannot run here at all.
     */
    public List<String> warnings(String vmSize, boolean spot, int nodes) {
        Optional<Candidate> chosen = chosen(vmSize, spot);
        if (chosen.isEmpty() || chosen.get().available() >= nodes) {
            return List.of();
        }
        NodeArray array = chosen.get().array();
        List<String> causes = new ArrayList<>();
        for (NodeArray.Bucket bucket : array.bucketsOf(vmSize)) {
            if (!bucket.valid()) {
                continue;
            }
            if (bucket.atMaxCount()) {
                causes.add(bucket.activeCount() + " of at most " + bucket.maxCount() + " are running (the node array's"
                        + " or the cluster's MaxCount)");
            } else {
                causes.add(bucket.activeCount() + " of at most " + bucket.maxCount() + " are running, and CycleCloud "
                        + "can start " + bucket.availableCount() + " more (the family's quota allows "
                        + bucket.quotaCount() + " VMs of this size in the region)");
            }
        }
        return List.of("node array '" + array.name() + "' (partition " + chosen.get().partition() + ") of CycleCloud"
                + " cluster '" + cluster + "' can start only " + chosen.get().available() + " more " + vmSize
                + " now, and the plan needs " + nodes + ": " + String.join("; ", causes) + "; the job waits until "
                + "nodes free up, unless you raise the node array's MaxCount in CycleCloud or the vCPU quota for the "
                + "VM family in the region");
    }

    /** The layout in words, one line per cluster, array and bucket; for diagnostics and golden tests. */
    public List<String> describe() {
        List<String> lines = new ArrayList<>();
        lines.add("cluster " + cluster + ": " + state.orElse("never started") + targetState.map(t -> " (target " + t
                + ")").orElse("") + ", at most " + maxCount + " nodes and " + maxCoreCount + " cores");
        for (NodeArray array : nodeArrays) {
            lines.add("node array " + array.name() + ": " + array.partition().map(p -> "partition " + p
                    + (array.hpc() ? " (hpc: one placement group)" : " (htc)")).orElse("no Slurm partition") + ", "
                    + (array.spot() ? "Spot" : "on-demand") + ", at most " + array.maxCount() + " nodes and "
                    + array.maxCoreCount() + " cores");
            for (NodeArray.Bucket bucket : array.buckets()) {
                lines.add("  " + bucket.vmSize() + ": " + bucket.vcpuCount() + " vCPUs, " + gigabytes(bucket.memoryGb())
                        + " GB, " + (bucket.gpuCount().isPresent() ? count(bucket.gpuCount().getAsInt(), "GPU")
                        : "GPUs not reported") + (bucket.infiniband() ? ", InfiniBand" : "") + "; "
                        + (bucket.valid() ? "" : "invalid (" + bucket.invalidReason().orElse("no reason given")
                        + "), ") + bucket.activeCount() + " active of at most " + bucket.maxCount() + ", "
                        + bucket.availableCount() + " more can start, quota " + bucket.quotaCount());
            }
        }
        return lines;
    }

    private Optional<Candidate> chosen(String vmSize, boolean spot) {
        return nodeArrays.stream()
                .filter(array -> array.starts(vmSize) && array.spot() == spot && array.partition().isPresent())
                .map(array -> new Candidate(array, array.partition().orElseThrow(), array.available(vmSize)))
                .min(PREFERENCE);
    }

    private static String whyNot(NodeArray array, String vmSize, boolean spot) {
        if (!array.starts(vmSize)) {
            String reasons = array.bucketsOf(vmSize).stream().map(b -> b.invalidReason().orElse("no reason given"))
                    .distinct().collect(Collectors.joining(", "));
            return "has " + vmSize + " only in a bucket CycleCloud marks invalid (" + reasons + "), which keeps "
                    + "existing nodes and starts none";
        }
        if (array.partition().isEmpty()) {
            return "starts it but serves no Slurm partition (its slurm.autoscale is false)";
        }
        // Only the pricing is left: the array starts the size, has a partition, and was still not chosen.
        return array.spot() && !spot ? "starts it as Spot only" : "starts it on-demand only";
    }

    /** The arrays and the sizes they can start: {@code hpc: Standard_HB120rs_v3; gpu (Spot): Standard_ND96asr_v4}. */
    private String inventory() {
        return nodeArrays.stream().map(array -> array.name() + (array.spot() ? " (Spot)" : "")
                + (array.partition().isEmpty() ? " (no Slurm partition)" : "") + ": "
                + (array.startableSizes().isEmpty() ? "no valid size" : String.join(", ", array.startableSizes())))
                .collect(Collectors.joining("; "));
    }

    private static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    private static String gigabytes(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    /** A node array that can take the plan, with its partition and how many VMs of the size it can start now. */
    private record Candidate(NodeArray array, String partition, long available) {
    }
}
