package dev.gantry.azure.vm;

import java.util.Objects;

/**
 * A Uniform Virtual Machine Scale Set whose instances share one InfiniBand fabric in one zone: limited to a single
 * placement group, one fault domain (Azure's only value for a zonal set), manual upgrades, each instance made from
 * the same profile as a plain VM of {@link VmBlueprint}. "Orchestration modes for Virtual Machine Scale Sets"
 * (Networking: "Infiniband Networking") supports InfiniBand in Uniform scale sets limited to one placement group and
 * not in Flexible ones.
 *
 * @param profile what each instance is: size, image, login, boot script, Spot terms and tags as for a plain VM; its
 *     {@code name} is the set's name (and the instances' computer name prefix), its {@code zone} the set's one zone;
 *     its OS disk name is unused (Azure names the instances' disks), and it has no availability set
 * @param capacity how many instances the set holds, 1 to 100 (a single placement group's limit)
 * @param publicIpPerInstance whether each instance gets a Standard public IP of its own
 * @param subnetId the subnet the instances' NICs join
 * @param securityGroupId the network security group of the instances' NICs, or null for none
 */
public record ScaleSetBlueprint(VmBlueprint profile, int capacity, boolean publicIpPerInstance, String subnetId,
                                String securityGroupId) {
    public ScaleSetBlueprint {
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(subnetId, "subnetId");
        if (profile.zone().isEmpty() || profile.availabilitySetId().isPresent()) {
            throw new IllegalArgumentException("a fabric scale set is zonal and in no availability set: " + profile);
        }
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity + " < 1");
        }
    }

    public String resourceGroup() {
        return profile.resourceGroup();
    }

    public String name() {
        return profile.name();
    }
}
