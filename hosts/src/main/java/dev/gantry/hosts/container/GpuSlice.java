package dev.gantry.hosts.container;

import java.util.List;
import java.util.stream.IntStream;

/**
 * The GPUs of a host that one container gets: the indexes placement chose (the host's numbering, as nvidia-smi and
 * the CDI specs count them) out of the host's GPUs. Inside the container the runtime numbers them from 0 again.
 *
 * @param indexes the host's GPU indexes the container gets, ascending
 * @param hostGpus GPUs the host has; 0 when unknown (no nvidia-smi), where pinning devices the host may not have
 *     would fail and the container gets all of them instead
 */
public record GpuSlice(List<Integer> indexes, int hostGpus) {
    public GpuSlice {
        indexes = List.copyOf(indexes);
        if (hostGpus < 0) {
            throw new IllegalArgumentException("hostGpus must be >= 0, got " + hostGpus);
        }
    }

    /** No GPUs: a CPU job, or a GPU size whose workload asked for none. */
    public static GpuSlice none() {
        return new GpuSlice(List.of(), 0);
    }

    /** The first {@code count} GPUs of the host: the local transport, which does not track who holds which. */
    public static GpuSlice first(int count, int hostGpus) {
        return new GpuSlice(IntStream.range(0, count).boxed().toList(), hostGpus);
    }

    boolean isEmpty() {
        return indexes.isEmpty();
    }

    /** Whether the container gets every GPU of the host (or the host's count is unknown). */
    boolean all() {
        return hostGpus == 0 || indexes.size() >= hostGpus;
    }
}
