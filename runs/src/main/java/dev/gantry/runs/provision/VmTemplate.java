package dev.gantry.runs.provision;

import dev.gantry.azure.vm.AvailabilitySetBlueprint;
import dev.gantry.azure.vm.NetworkBlueprint;
import dev.gantry.azure.vm.ScaleSetBlueprint;
import dev.gantry.azure.vm.VmBlueprint;
import java.util.Optional;

/**
 * Pure functions from a {@link ProvisionRequest} to the blueprints of the resources a VM needs, and the names Gantry
 * gives them; the Azure module turns the blueprints into ARM request bodies.
 */
final class VmTemplate {
    /** The network security group that opens SSH on public IPs; Standard public IPs are closed until one allows it. */
    static final String SSH_NSG = "gantry-ssh";

    private VmTemplate() {
    }

    static NetworkBlueprint defaultNetwork(ProvisionRequest request) {
        return new NetworkBlueprint(request.resourceGroup(), request.region(), request.network().virtualNetwork(),
                ProvisionRequest.Network.DEFAULT_ADDRESS_SPACE, request.network().subnet(),
                ProvisionRequest.Network.DEFAULT_SUBNET_PREFIX, request.resourceTags());
    }

    /**
     * The VM, in the availability set of that ID when given and in the request's zone when it names one; also the
     * profile of a scale set's instances (then named as the set).
     */
    static VmBlueprint vm(ProvisionRequest request, String name, Optional<String> availabilitySetId) {
        return new VmBlueprint(request.resourceGroup(), request.region(), name, request.vmSize(), request.image(),
                request.adminUser(), request.sshPublicKey(), request.cloudInit(),
                request.spot().map(spot -> new VmBlueprint.Spot(
                        spot.evictionPolicy() == ProvisionRequest.EvictionPolicy.DELETE, spot.maxPricePerHour())),
                osDiskName(name), request.resourceTags(), availabilitySetId, request.zone());
    }

    /**
     * The scale set whose {@code capacity} instances share one InfiniBand fabric in the request's zone, each made
     * from the profile a plain VM of the request has (size, image, login, boot script, Spot terms, tags).
     */
    static ScaleSetBlueprint scaleSet(ProvisionRequest request, String subnetId, Optional<String> securityGroupId,
            int capacity) {
        return new ScaleSetBlueprint(vm(request, FabricPlacement.setName(request.namePrefix()), Optional.empty()),
                capacity, request.publicIp(), subnetId, securityGroupId.orElse(null));
    }

    /** The availability set that keeps the request's VMs on one InfiniBand fabric. */
    static AvailabilitySetBlueprint availabilitySet(ProvisionRequest request) {
        return new AvailabilitySetBlueprint(request.resourceGroup(), request.region(),
                FabricPlacement.setName(request.namePrefix()), request.resourceTags());
    }

    static String nicName(String vm) {
        return vm + "-nic";
    }

    static String publicIpName(String vm) {
        return vm + "-ip";
    }

    static String osDiskName(String vm) {
        return vm + "-osdisk";
    }
}
