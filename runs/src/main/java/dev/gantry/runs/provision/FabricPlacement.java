package dev.gantry.runs.provision;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import java.util.List;
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
     * The zone the plan's VMs are placed in, the one place that chooses it:
     * <ul>
     *   <li>the one asked for ({@code vm up --zone}), which must be one of the plan's zones when the plan names any
     *       (the zones its size can be allocated in there, within those the workload allows);</li>
     *   <li>else, for VMs that share a fabric, none: their availability set has no zone, so that a workload that asks
     *       zones of the plan's region cannot have them and is refused with why;</li>
     *   <li>else the first of the plan's zones, so that a zone the workload or the subscription rules out is never
     *       used; none when the plan names none (Azure places the VMs in the region).</li>
     * </ul>
     * A zone asked for VMs that share a fabric is refused by {@link ProvisionRequest}, with why.
     *
     * @param plan the plan
     * @param asked the zone asked for, or empty
     * @return the zone, or empty for regional VMs
     * @throws GantryException with {@link ErrorCode#CONFIG_INVALID} for a zone the plan rules out, or zones the
     *     workload asks that an RDMA plan's availability set cannot give
     */
    public static Optional<String> zone(Plan plan, Optional<String> asked) {
        List<String> allowed = plan.zones();
        if (asked.isPresent() && needsSharedFabric(plan)) {
            return asked; // refused by ProvisionRequest, which says why an availability set has no zone
        }
        if (asked.isPresent()) {
            if (!allowed.isEmpty() && !allowed.contains(asked.get())) {
                throw GantryException.invalid(ErrorCode.CONFIG_INVALID, List.of(Problem.of("zone", "'" + asked.get()
                        + "' is not a zone of the plan: " + plan.vmSize().name() + " in " + plan.region()
                        + " may be placed in zone(s) " + String.join(", ", allowed) + " (within spec.zones, where the "
                        + "subscription can allocate it); use one of them, or leave --zone out")));
            }
            return asked;
        }
        if (needsSharedFabric(plan)) {
            List<String> workloadZones = plan.workload().zones().getOrDefault(plan.region(), List.of());
            if (!workloadZones.isEmpty()) {
                throw GantryException.invalid(ErrorCode.CONFIG_INVALID, List.of(Problem.of("zones." + plan.region(),
                        "asks zone(s) " + String.join(", ", workloadZones) + ", but the VMs of " + plan.vmSize().name()
                        + " share one InfiniBand fabric through an availability set, which Azure does not place in "
                        + "zones; remove spec.zones." + plan.region() + " (the VMs are then regional, together in "
                        + "the set's cluster)")));
            }
            return Optional.empty();
        }
        return allowed.stream().findFirst();
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
