package dev.gantry.runs.provision;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import java.util.List;
import java.util.Optional;

/**
 * Where the VMs of a plan go so that those of an RDMA size share one InfiniBand fabric, and the one place that picks
 * their availability zone and, from it, how they share the fabric.
 *
 * <p>Azure's "Set up InfiniBand" (learn.microsoft.com/azure/virtual-machines/setup-infiniband, Cluster configuration
 * options): "Deploy the RDMA-capable HPC VMs in the same scale set or availability set", and "If RDMA (e.g. using MPI
 * communication) is required between virtual machines, ensure that the VMs are in the same virtual machine scale set or
 * availability set"; a scale set must be limited to a single placement group. "Orchestration modes for Virtual Machine
 * Scale Sets" (learn.microsoft.com/azure/virtual-machine-scale-sets/virtual-machine-scale-sets-orchestration-modes,
 * Networking) narrows it: "Infiniband Networking" is supported by availability sets and by Uniform scale sets in a
 * single placement group, and not by Flexible scale sets. Availability sets do not support zones ("Orchestration
 * modes", High availability), so the two serve two cases ({@link #fabric}):
 * <ul>
 *   <li>in a zone (the one asked with {@code vm up --zone}, else the plan's first within the zones the workload or
 *       configuration asks, else the plan's first: wherever the plan names zones, as for every other VM): a Uniform
 *       scale set {@code <prefix>-fabric} in that one zone, limited to a single placement group (at most 100
 *       instances), with one fault domain (Azure's only value for a zonal set). Its instances are made by the set
 *       from one profile; Gantry sets its capacity and deletes instances through the set's API;</li>
 *   <li>regional (the plan names no zones: none known for its size there, or a region without zones): an
 *       availability set {@code <prefix>-fabric}. Its VMs are ordinary VMs, which Gantry creates, names, reads the
 *       host keys of and deletes one by one as it does every other VM; Azure places them together in the set's
 *       cluster, in the region.</li>
 * </ul>
 */
public final class FabricPlacement {
    private FabricPlacement() {
    }

    /** How a request's VMs share a fabric. */
    public enum Fabric {
        /** They share none: VMs of their own (not an RDMA size). */
        NONE,
        /** Regional VMs in one availability set. */
        AVAILABILITY_SET,
        /** The instances of one zonal Uniform scale set, limited to a single placement group. */
        SCALE_SET
    }

    /**
     * Whether the plan's VMs must share one fabric: those of an RDMA size do, whatever their count, so that raising
     * the count later ({@code vm up --count N}) adds VMs to the same set; Azure adds a VM to an availability set only
     * when it creates it.
     *
     * @param plan the plan
     * @return true for an RDMA (InfiniBand) size
     */
    public static boolean needsSharedFabric(Plan plan) {
        return plan.vmSize().rdma();
    }

    /**
     * How VMs that share a fabric or not, in a zone or not, are placed: the one place that chooses between the
     * availability set and the scale set.
     *
     * @param sharedFabric whether they must share one InfiniBand fabric
     * @param zone their zone, or empty for regional VMs
     * @return {@link Fabric#NONE} without a shared fabric, else a scale set for a zone and an availability set without
     */
    public static Fabric fabric(boolean sharedFabric, Optional<String> zone) {
        if (!sharedFabric) {
            return Fabric.NONE;
        }
        return zone.isPresent() ? Fabric.SCALE_SET : Fabric.AVAILABILITY_SET;
    }

    /**
     * The zone the plan's VMs are placed in, the one place that chooses it:
     * <ul>
     *   <li>the one asked for ({@code vm up --zone}), which must be one of the plan's zones when the plan names any
     *       (the zones its size can be allocated in there, within those the workload allows);</li>
     *   <li>else, for VMs that share a fabric, the first of the plan's zones within those the workload (or the
     *       configuration's {@code defaults.zones}) asks of the plan's region, or the first asked when the plan names
     *       none, so that all of them are in that one zone, in a scale set;</li>
     *   <li>else the first of the plan's zones, so that a zone the workload or the subscription rules out is never
     *       used; none when the plan names none (Azure places the VMs in the region).</li>
     * </ul>
     *
     * @param plan the plan
     * @param asked the zone asked for, or empty
     * @return the zone, or empty for regional VMs
     * @throws GantryException with {@link ErrorCode#CONFIG_INVALID} for a zone the plan rules out
     */
    public static Optional<String> zone(Plan plan, Optional<String> asked) {
        List<String> allowed = plan.zones();
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
            if (workloadZones.isEmpty()) {
                return allowed.stream().findFirst(); // the plan's first zone, as for any VM; none: regional
            }
            if (allowed.isEmpty()) {
                return Optional.of(workloadZones.get(0)); // the plan knows no zones of its size: the first asked
            }
            return Optional.of(allowed.stream().filter(workloadZones::contains).findFirst().orElseThrow(
                    () -> GantryException.invalid(ErrorCode.CONFIG_INVALID, List.of(Problem.of("zones."
                            + plan.region(), "asks zone(s) " + String.join(", ", workloadZones) + ", but "
                            + plan.vmSize().name() + " in " + plan.region() + " may be placed in zone(s) "
                            + String.join(", ", allowed) + " only; ask one of them, or remove spec.zones."
                            + plan.region() + " (the VMs then go to the plan's first zone)")))));
        }
        return allowed.stream().findFirst();
    }

    /**
     * The availability set the VMs {@code <prefix>-1 .. <prefix>-N} share, or the scale set whose instances share a
     * zonal fabric: one per name prefix, of either kind.
     *
     * @param namePrefix the VMs' name prefix
     * @return {@code <prefix>-fabric}
     */
    public static String setName(String namePrefix) {
        return namePrefix + "-fabric";
    }
}
