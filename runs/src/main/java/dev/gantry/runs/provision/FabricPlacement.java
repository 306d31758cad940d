package dev.gantry.runs.provision;

import dev.gantry.api.Plan;
import java.util.Optional;

/**
 * Where the VMs of a plan go so that those of an RDMA size share one InfiniBand fabric, and the one place that picks
 * their availability zone.
 *
 * <p>Azure's "Set up InfiniBand" (learn.microsoft.com/azure/virtual-machines/setup-infiniband, Cluster configuration
 * options): "Deploy the RDMA-capable HPC VMs in the same scale set or availability set", and "If RDMA (e.g. using MPI
 * communication) is required between virtual machines, ensure that the VMs are in the same virtual machine scale set or
 * availability set"; a scale set must be limited to a single placement group. "Orchestration modes for Virtual Machine
 * Scale Sets" (learn.microsoft.com/azure/virtual-machine-scale-sets/virtual-machine-scale-sets-orchestration-modes,
 * Networking) narrows it: "Infiniband Networking" is supported by availability sets and by Uniform scale sets in a
 * single placement group, and not by Flexible scale sets. Gantry uses an availability set: its VMs are ordinary VMs,
 * which Gantry creates, names, reads the host keys of and deletes one by one as it does every other VM, whereas the
 * instances of a Uniform scale set are made by the scale set from one profile and reached through its own API. The
 * price is zones: availability sets do not support them ("Orchestration modes", High availability), so an RDMA plan's
 * VMs are regional, placed together by Azure in the set's one cluster; a zonal fabric needs a Uniform scale set.
 */
public final class FabricPlacement {
    private FabricPlacement() {
    }

    /**
     * Whether the plan's VMs must share one fabric: those of an RDMA size do, whatever their count, so that raising
     * the count later ({@code vm up --count N}) adds VMs to the same availability set; Azure adds a VM to one only when
     * it creates the VM.
     *
     * @param plan the plan
     * @return true for an RDMA (InfiniBand) size
     */
    public static boolean needsSharedFabric(Plan plan) {
        return plan.vmSize().rdma();
    }

    /**
     * The zone the plan's VMs are placed in: the one asked for ({@code vm up --zone}); else none, so that Azure places
     * them in the region. This is the one place that chooses it: when plans name the zones their size can be
     * allocated in, the first of the plan's zones is the default here for plans that share no fabric, and an asked
     * zone outside them is refused here. VMs that share a fabric through an availability set have no zone, whatever
     * is asked ({@link ProvisionRequest} refuses a zone for them).
     *
     * @param plan the plan
     * @param asked the zone asked for, or empty
     * @return the zone, or empty for regional VMs
     */
    public static Optional<String> zone(Plan plan, Optional<String> asked) {
        return asked;
    }

    /**
     * The availability set the VMs {@code <prefix>-1 .. <prefix>-N} share: one per name prefix.
     *
     * @param namePrefix the VMs' name prefix
     * @return {@code <prefix>-fabric}
     */
    public static String setName(String namePrefix) {
        return namePrefix + "-fabric";
    }
}
