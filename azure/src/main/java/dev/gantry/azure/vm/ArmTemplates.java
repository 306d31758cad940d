package dev.gantry.azure.vm;

import com.azure.core.management.SubResource;
import com.azure.resourcemanager.compute.fluent.models.VirtualMachineInner;
import com.azure.resourcemanager.compute.fluent.models.AvailabilitySetInner;
import com.azure.resourcemanager.compute.fluent.models.VirtualMachineScaleSetInner;
import com.azure.resourcemanager.compute.models.ApiEntityReference;
import com.azure.resourcemanager.compute.models.OrchestrationMode;
import com.azure.resourcemanager.compute.models.UpgradeMode;
import com.azure.resourcemanager.compute.models.UpgradePolicy;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetIpConfiguration;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetManagedDiskParameters;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetNetworkConfiguration;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetNetworkProfile;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetOSDisk;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetOSProfile;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetPublicIpAddressConfiguration;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetStorageProfile;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetVMProfile;
import com.azure.resourcemanager.compute.models.BillingProfile;
import com.azure.resourcemanager.compute.models.DeleteOptions;
import com.azure.resourcemanager.compute.models.DiskCreateOptionTypes;
import com.azure.resourcemanager.compute.models.DiskDeleteOptionTypes;
import com.azure.resourcemanager.compute.models.HardwareProfile;
import com.azure.resourcemanager.compute.models.ImageReference;
import com.azure.resourcemanager.compute.models.LinuxConfiguration;
import com.azure.resourcemanager.compute.models.ManagedDiskParameters;
import com.azure.resourcemanager.compute.models.NetworkInterfaceReference;
import com.azure.resourcemanager.compute.models.NetworkProfile;
import com.azure.resourcemanager.compute.models.OSDisk;
import com.azure.resourcemanager.compute.models.AvailabilitySetSkuTypes;
import com.azure.resourcemanager.compute.models.Sku;
import com.azure.resourcemanager.compute.models.OSProfile;
import com.azure.resourcemanager.compute.models.SshConfiguration;
import com.azure.resourcemanager.compute.models.SshPublicKey;
import com.azure.resourcemanager.compute.models.StorageAccountTypes;
import com.azure.resourcemanager.compute.models.StorageProfile;
import com.azure.resourcemanager.compute.models.VirtualMachineEvictionPolicyTypes;
import com.azure.resourcemanager.compute.models.VirtualMachinePriorityTypes;
import com.azure.resourcemanager.compute.models.VirtualMachineSizeTypes;
import com.azure.resourcemanager.network.fluent.models.NetworkInterfaceInner;
import com.azure.resourcemanager.network.fluent.models.NetworkInterfaceIpConfigurationInner;
import com.azure.resourcemanager.network.fluent.models.NetworkSecurityGroupInner;
import com.azure.resourcemanager.network.fluent.models.PublicIpAddressInner;
import com.azure.resourcemanager.network.fluent.models.SecurityRuleInner;
import com.azure.resourcemanager.network.fluent.models.SubnetInner;
import com.azure.resourcemanager.network.fluent.models.VirtualNetworkInner;
import com.azure.resourcemanager.network.models.AddressSpace;
import com.azure.resourcemanager.network.models.IpAllocationMethod;
import com.azure.resourcemanager.network.models.PublicIpAddressSku;
import com.azure.resourcemanager.network.models.PublicIpAddressSkuName;
import com.azure.resourcemanager.network.models.SecurityRuleAccess;
import com.azure.resourcemanager.network.models.SecurityRuleDirection;
import com.azure.resourcemanager.network.models.SecurityRuleProtocol;
import dev.gantry.api.ImageRef;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Pure functions from the caller's blueprints to the ARM request bodies of the resources VMs and scale sets need. */
final class ArmTemplates {
    /** The OS disk of every VM and scale set instance Gantry makes. */
    private static final StorageAccountTypes OS_DISK_TYPE = StorageAccountTypes.STANDARD_SSD_LRS;

    private ArmTemplates() {
    }

    static VirtualNetworkInner network(NetworkBlueprint blueprint) {
        VirtualNetworkInner network = new VirtualNetworkInner()
                .withAddressSpace(new AddressSpace().withAddressPrefixes(List.of(blueprint.addressSpace())))
                .withSubnets(List.of(new SubnetInner().withName(blueprint.subnet())
                        .withAddressPrefix(blueprint.subnetPrefix())));
        network.withLocation(blueprint.region()).withTags(blueprint.tags());
        return network;
    }

    static NetworkSecurityGroupInner sshSecurityGroup(String region, String sshSource, Map<String, String> tags) {
        NetworkSecurityGroupInner group = new NetworkSecurityGroupInner().withSecurityRules(List.of(
                new SecurityRuleInner().withName("allow-ssh")
                        .withProtocol(SecurityRuleProtocol.TCP)
                        .withSourceAddressPrefix(sshSource)
                        .withSourcePortRange("*")
                        .withDestinationAddressPrefix("*")
                        .withDestinationPortRange("22")
                        .withAccess(SecurityRuleAccess.ALLOW)
                        .withDirection(SecurityRuleDirection.INBOUND)
                        .withPriority(1000)));
        group.withLocation(region).withTags(tags);
        return group;
    }

    // Standard SKU: Basic public IPs are retired; Standard ones are static and closed to inbound traffic by default.
    static PublicIpAddressInner publicIp(String region, Map<String, String> tags) {
        PublicIpAddressInner ip = new PublicIpAddressInner()
                .withSku(new PublicIpAddressSku().withName(PublicIpAddressSkuName.STANDARD))
                .withPublicIpAllocationMethod(IpAllocationMethod.STATIC);
        ip.withLocation(region).withTags(tags);
        return ip;
    }

    /**
     * The NIC body; {@code acceleratedNetworking} turns on SR-IOV for it, which Azure's HPC and ND sizes support and
     * the fabric VMs of an RDMA plan ask for.
     */
    static NetworkInterfaceInner nic(String region, Map<String, String> tags, String subnetId,
            Optional<String> publicIpId, Optional<String> securityGroupId, boolean acceleratedNetworking) {
        NetworkInterfaceIpConfigurationInner ipConfiguration = new NetworkInterfaceIpConfigurationInner()
                .withName("ipconfig1")
                .withPrimary(true)
                .withPrivateIpAllocationMethod(IpAllocationMethod.DYNAMIC)
                .withSubnet(new SubnetInner().withId(subnetId));
        publicIpId.ifPresent(id -> ipConfiguration.withPublicIpAddress(new PublicIpAddressInner().withId(id)));
        NetworkInterfaceInner nic = new NetworkInterfaceInner().withIpConfigurations(List.of(ipConfiguration));
        if (acceleratedNetworking) {
            nic.withEnableAcceleratedNetworking(true);
        }
        securityGroupId.ifPresent(id -> nic.withNetworkSecurityGroup(new NetworkSecurityGroupInner().withId(id)));
        nic.withLocation(region).withTags(tags);
        return nic;
    }

    /**
     * The VM body. The OS disk and NIC carry {@code deleteOption: Delete} so that deleting the VM anywhere (portal,
     * CLI) also removes them; {@code gantry vm down} still deletes them itself, in case they outlive the VM.
     */
    static VirtualMachineInner vm(VmBlueprint blueprint, String nicId) {
        VirtualMachineInner vm = new VirtualMachineInner()
                .withHardwareProfile(new HardwareProfile()
                        .withVmSize(VirtualMachineSizeTypes.fromString(blueprint.vmSize())))
                .withStorageProfile(new StorageProfile()
                        .withImageReference(imageReference(blueprint.image()))
                        .withOsDisk(new OSDisk()
                                .withName(blueprint.osDiskName())
                                .withCreateOption(DiskCreateOptionTypes.FROM_IMAGE)
                                .withDeleteOption(DiskDeleteOptionTypes.DELETE)
                                .withManagedDisk(new ManagedDiskParameters()
                                        .withStorageAccountType(OS_DISK_TYPE))))
                .withOsProfile(new OSProfile()
                        .withComputerName(blueprint.name())
                        .withAdminUsername(blueprint.adminUser())
                        .withCustomData(customData(blueprint))
                        .withLinuxConfiguration(sshOnly(blueprint)))
                .withNetworkProfile(new NetworkProfile().withNetworkInterfaces(List.of(new NetworkInterfaceReference()
                        .withId(nicId).withPrimary(true).withDeleteOption(DeleteOptions.DELETE))));
        blueprint.spot().ifPresent(spot -> vm
                .withPriority(VirtualMachinePriorityTypes.SPOT)
                .withEvictionPolicy(evictionPolicy(spot))
                .withBillingProfile(billing(spot)));
        blueprint.availabilitySetId().ifPresent(id -> vm.withAvailabilitySet(new SubResource().withId(id)));
        blueprint.zone().ifPresent(zone -> vm.withZones(List.of(zone)));
        vm.withLocation(blueprint.region()).withTags(blueprint.tags());
        return vm;
    }

    /**
     * The scale set body: a Uniform set limited to a single placement group in one zone with one fault domain, so
     * that its instances share one InfiniBand fabric ("Orchestration modes for Virtual Machine Scale Sets",
     * Networking; Compute REST contract, {@code singlePlacementGroup} and {@code platformFaultDomainCount}); no
     * overprovisioning (Azure would start extra instances and delete them again, each a new member of the fabric)
     * and manual upgrades (a change of the model never reimages running instances). Each instance is made as a plain
     * VM of the same profile is, from the same shared pieces: image, OS disk type, SSH-only login, boot script, Spot
     * terms; its NIC has accelerated networking and, when asked, a Standard public IP of its own.
     */
    static VirtualMachineScaleSetInner scaleSet(ScaleSetBlueprint blueprint) {
        VmBlueprint profile = blueprint.profile();
        VirtualMachineScaleSetIpConfiguration ipConfiguration = new VirtualMachineScaleSetIpConfiguration()
                .withName("ipconfig1")
                .withPrimary(true)
                .withSubnet(new ApiEntityReference().withId(blueprint.subnetId()));
        if (blueprint.publicIpPerInstance()) {
            ipConfiguration.withPublicIpAddressConfiguration(new VirtualMachineScaleSetPublicIpAddressConfiguration()
                    .withName("publicip1")
                    .withSku(new com.azure.resourcemanager.compute.models.PublicIpAddressSku()
                            .withName(com.azure.resourcemanager.compute.models.PublicIpAddressSkuName.STANDARD)));
        }
        VirtualMachineScaleSetNetworkConfiguration nic = new VirtualMachineScaleSetNetworkConfiguration()
                .withName("nic1")
                .withPrimary(true)
                .withEnableAcceleratedNetworking(true)
                .withIpConfigurations(List.of(ipConfiguration));
        if (blueprint.securityGroupId() != null) {
            nic.withNetworkSecurityGroup(new SubResource().withId(blueprint.securityGroupId()));
        }
        VirtualMachineScaleSetVMProfile instance = new VirtualMachineScaleSetVMProfile()
                .withOsProfile(new VirtualMachineScaleSetOSProfile()
                        .withComputerNamePrefix(profile.name())
                        .withAdminUsername(profile.adminUser())
                        .withCustomData(customData(profile))
                        .withLinuxConfiguration(sshOnly(profile)))
                .withStorageProfile(new VirtualMachineScaleSetStorageProfile()
                        .withImageReference(imageReference(profile.image()))
                        .withOsDisk(new VirtualMachineScaleSetOSDisk()
                                .withCreateOption(DiskCreateOptionTypes.FROM_IMAGE)
                                .withManagedDisk(new VirtualMachineScaleSetManagedDiskParameters()
                                        .withStorageAccountType(OS_DISK_TYPE))))
                .withNetworkProfile(new VirtualMachineScaleSetNetworkProfile()
                        .withNetworkInterfaceConfigurations(List.of(nic)));
        profile.spot().ifPresent(spot -> instance
                .withPriority(VirtualMachinePriorityTypes.SPOT)
                .withEvictionPolicy(evictionPolicy(spot))
                .withBillingProfile(billing(spot)));
        VirtualMachineScaleSetInner set = new VirtualMachineScaleSetInner()
                .withSku(new Sku().withName(profile.vmSize()).withTier("Standard").withCapacity(
                        (long) blueprint.capacity()))
                .withZones(List.of(profile.zone().orElseThrow()))
                .withOrchestrationMode(OrchestrationMode.UNIFORM)
                .withSinglePlacementGroup(true)
                .withPlatformFaultDomainCount(1)
                .withOverprovision(false)
                .withUpgradePolicy(new UpgradePolicy().withMode(UpgradeMode.MANUAL))
                .withVirtualMachineProfile(instance);
        set.withLocation(profile.region()).withTags(profile.tags());
        return set;
    }

    /** The boot script as custom data: base64, as the contract asks (Azure's limit is 64 KiB before encoding). */
    private static String customData(VmBlueprint blueprint) {
        return Base64.getEncoder().encodeToString(blueprint.cloudInit().getBytes(StandardCharsets.UTF_8));
    }

    /** Login with the blueprint's SSH key only: password login stays off. */
    private static LinuxConfiguration sshOnly(VmBlueprint blueprint) {
        return new LinuxConfiguration()
                .withDisablePasswordAuthentication(true)
                .withSsh(new SshConfiguration().withPublicKeys(List.of(new SshPublicKey()
                        .withPath("/home/" + blueprint.adminUser() + "/.ssh/authorized_keys")
                        .withKeyData(blueprint.sshPublicKey().strip()))));
    }

    private static VirtualMachineEvictionPolicyTypes evictionPolicy(VmBlueprint.Spot spot) {
        return spot.deleteOnEviction() ? VirtualMachineEvictionPolicyTypes.DELETE
                : VirtualMachineEvictionPolicyTypes.DEALLOCATE;
    }

    private static BillingProfile billing(VmBlueprint.Spot spot) {
        return new BillingProfile().withMaxPrice(spot.maxPricePerHour().doubleValue());
    }

    /**
     * An availability set for VMs with managed disks: SKU {@code Aligned} (Compute REST contract,
     * {@code AvailabilitySet.sku}: "Use 'Aligned' for virtual machines with managed disks and 'Classic' for virtual
     * machines with unmanaged disks. Default value is 'Classic'."). Fault and update domain counts are left to Azure.
     */
    static AvailabilitySetInner availabilitySet(AvailabilitySetBlueprint blueprint) {
        AvailabilitySetInner set = new AvailabilitySetInner()
                .withSku(new Sku().withName(AvailabilitySetSkuTypes.ALIGNED.toString()));
        set.withLocation(blueprint.region()).withTags(blueprint.tags());
        return set;
    }

    static ImageReference imageReference(ImageRef image) {
        return switch (image.kind()) {
            case MARKETPLACE -> {
                String[] urn = image.id().split(":");
                yield new ImageReference().withPublisher(urn[0]).withOffer(urn[1]).withSku(urn[2])
                        .withVersion(urn[3]);
            }
            case GALLERY -> new ImageReference().withId(image.id());
            case HOST -> throw new IllegalArgumentException("the host image cannot be provisioned");
        };
    }
}
