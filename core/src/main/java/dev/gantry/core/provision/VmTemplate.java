package dev.gantry.core.provision;

import com.azure.resourcemanager.compute.fluent.models.VirtualMachineInner;
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
import java.util.Optional;

/** Pure functions from a {@link ProvisionRequest} to the ARM request bodies of the resources a VM needs. */
final class VmTemplate {
    /** The network security group that opens SSH on public IPs; Standard public IPs are closed until one allows it. */
    static final String SSH_NSG = "gantry-ssh";

    private VmTemplate() {
    }

    static VirtualNetworkInner defaultNetwork(ProvisionRequest request) {
        VirtualNetworkInner network = new VirtualNetworkInner()
                .withAddressSpace(new AddressSpace()
                        .withAddressPrefixes(List.of(ProvisionRequest.Network.DEFAULT_ADDRESS_SPACE)))
                .withSubnets(List.of(new SubnetInner().withName(request.network().subnet())
                        .withAddressPrefix(ProvisionRequest.Network.DEFAULT_SUBNET_PREFIX)));
        network.withLocation(request.region()).withTags(request.resourceTags());
        return network;
    }

    static NetworkSecurityGroupInner sshSecurityGroup(ProvisionRequest request) {
        NetworkSecurityGroupInner group = new NetworkSecurityGroupInner().withSecurityRules(List.of(
                new SecurityRuleInner().withName("allow-ssh")
                        .withProtocol(SecurityRuleProtocol.TCP)
                        .withSourceAddressPrefix(request.sshSource())
                        .withSourcePortRange("*")
                        .withDestinationAddressPrefix("*")
                        .withDestinationPortRange("22")
                        .withAccess(SecurityRuleAccess.ALLOW)
                        .withDirection(SecurityRuleDirection.INBOUND)
                        .withPriority(1000)));
        group.withLocation(request.region()).withTags(request.resourceTags());
        return group;
    }

    // Standard SKU: Basic public IPs are retired; Standard ones are static and closed to inbound traffic by default.
    static PublicIpAddressInner publicIp(ProvisionRequest request) {
        PublicIpAddressInner ip = new PublicIpAddressInner()
                .withSku(new PublicIpAddressSku().withName(PublicIpAddressSkuName.STANDARD))
                .withPublicIpAllocationMethod(IpAllocationMethod.STATIC);
        ip.withLocation(request.region()).withTags(request.resourceTags());
        return ip;
    }

    static NetworkInterfaceInner nic(ProvisionRequest request, String subnetId, Optional<String> publicIpId,
            Optional<String> securityGroupId) {
        NetworkInterfaceIpConfigurationInner ipConfiguration = new NetworkInterfaceIpConfigurationInner()
                .withName("ipconfig1")
                .withPrimary(true)
                .withPrivateIpAllocationMethod(IpAllocationMethod.DYNAMIC)
                .withSubnet(new SubnetInner().withId(subnetId));
        publicIpId.ifPresent(id -> ipConfiguration.withPublicIpAddress(new PublicIpAddressInner().withId(id)));
        NetworkInterfaceInner nic = new NetworkInterfaceInner().withIpConfigurations(List.of(ipConfiguration));
        securityGroupId.ifPresent(id -> nic.withNetworkSecurityGroup(new NetworkSecurityGroupInner().withId(id)));
        nic.withLocation(request.region()).withTags(request.resourceTags());
        return nic;
    }

    /**
     * The VM body. The OS disk and NIC carry {@code deleteOption: Delete} so that deleting the VM anywhere (portal,
     * CLI) also removes them; {@code gantry vm down} still deletes them itself, in case they outlive the VM.
     */
    static VirtualMachineInner vm(ProvisionRequest request, String name, String nicId) {
        VirtualMachineInner vm = new VirtualMachineInner()
                .withHardwareProfile(new HardwareProfile().withVmSize(VirtualMachineSizeTypes.fromString(request.vmSize())))
                .withStorageProfile(new StorageProfile()
                        .withImageReference(imageReference(request.image()))
                        .withOsDisk(new OSDisk()
                                .withName(osDiskName(name))
                                .withCreateOption(DiskCreateOptionTypes.FROM_IMAGE)
                                .withDeleteOption(DiskDeleteOptionTypes.DELETE)
                                .withManagedDisk(new ManagedDiskParameters()
                                        .withStorageAccountType(StorageAccountTypes.STANDARD_SSD_LRS))))
                .withOsProfile(new OSProfile()
                        .withComputerName(name)
                        .withAdminUsername(request.adminUser())
                        .withCustomData(Base64.getEncoder()
                                .encodeToString(request.cloudInit().getBytes(StandardCharsets.UTF_8)))
                        .withLinuxConfiguration(new LinuxConfiguration()
                                .withDisablePasswordAuthentication(true)
                                .withSsh(new SshConfiguration().withPublicKeys(List.of(new SshPublicKey()
                                        .withPath("/home/" + request.adminUser() + "/.ssh/authorized_keys")
                                        .withKeyData(request.sshPublicKey().strip()))))))
                .withNetworkProfile(new NetworkProfile().withNetworkInterfaces(List.of(new NetworkInterfaceReference()
                        .withId(nicId).withPrimary(true).withDeleteOption(DeleteOptions.DELETE))));
        request.spot().ifPresent(spot -> vm
                .withPriority(VirtualMachinePriorityTypes.SPOT)
                .withEvictionPolicy(switch (spot.evictionPolicy()) {
                    case DEALLOCATE -> VirtualMachineEvictionPolicyTypes.DEALLOCATE;
                    case DELETE -> VirtualMachineEvictionPolicyTypes.DELETE;
                })
                .withBillingProfile(new BillingProfile().withMaxPrice(spot.maxPricePerHour().doubleValue())));
        vm.withLocation(request.region()).withTags(request.resourceTags());
        return vm;
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
