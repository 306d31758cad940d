package dev.gantry.runs.provision;

import dev.gantry.api.Plan;
import java.util.Optional;

/**
 * Where the VMs of a plan go so that those of an RDMA size share one InfiniBand fabric, and the one place that picks
 * their availability zone.
 *
 * <p>Azure's "Set up InfiniBand" page (learn.microsoft.com/azure/virtual-machines/setup-infiniband, Cluster
 * configuration options) asks to "deploy the RDMA-capable HPC VMs in the same scale set or availability set", and of
 * a scale set to "limit the deployment to a single placement group for InfiniBand communication within the scale set
 * ... set the {@code singlePlacementGroup} property to {@code true}"; VMs outside one such group do not reach each
 * other over InfiniBand. Gantry uses a Flexible scale set rather than an availability set because availability sets
 * cannot be zonal ("Orchestration modes for Virtual Machine Scale Sets", High availability: availability zones "Not
 * supported" for availability sets), and rather than a Uniform one because a Flexible scale set holds ordinary VMs
 * that Gantry creates, names, reads the host keys of and deletes one by one, as it does every other VM.
 */
public final class FabricPlacement {
    private FabricPlacement() {
    }

    /**
     * Whether the plan's VMs must share one fabric: those of an RDMA size do, whatever their count, so that raising
     * the count later ({@code vm up --count N}) adds VMs to the same scale set; Azure adds a VM to a scale set only
     * when it creates it.
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
     * allocated in, the first of the plan's zones is the default here, and an asked zone outside them is refused here.
     *
     * @param plan the plan
     * @param asked the zone asked for, or empty
     * @return the zone, or empty for regional VMs
     */
    public static Optional<String> zone(Plan plan, Optional<String> asked) {
        return asked;
    }

    /**
     * The scale set the VMs {@code <prefix>-1 .. <prefix>-N} share: one per name prefix.
     *
     * @param namePrefix the VMs' name prefix
     * @return {@code <prefix>-fabric}
     */
    public static String scaleSetName(String namePrefix) {
        return namePrefix + "-fabric";
    }
}
