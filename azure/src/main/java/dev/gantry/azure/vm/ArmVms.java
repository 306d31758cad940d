package dev.gantry.azure.vm;

import com.azure.core.management.polling.PollResult;
import com.azure.core.util.Context;
import com.azure.core.util.polling.LongRunningOperationStatus;
import com.azure.core.util.polling.PollResponse;
import com.azure.core.util.polling.SyncPoller;
import com.azure.resourcemanager.compute.ComputeManager;
import com.azure.resourcemanager.compute.fluent.models.RunCommandResultInner;
import com.azure.core.management.SubResource;
import com.azure.resourcemanager.compute.fluent.models.VirtualMachineInner;
import com.azure.resourcemanager.compute.fluent.models.AvailabilitySetInner;
import com.azure.resourcemanager.compute.fluent.models.VirtualMachineScaleSetInner;
import com.azure.resourcemanager.compute.fluent.models.VirtualMachineScaleSetVMInner;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetVMInstanceRequiredIDs;
import com.azure.resourcemanager.compute.models.InstanceViewStatus;
import com.azure.resourcemanager.compute.models.InstanceViewTypes;
import com.azure.resourcemanager.compute.models.RunCommandInput;
import com.azure.resourcemanager.network.fluent.NetworkManagementClient;
import com.azure.resourcemanager.network.fluent.models.NetworkInterfaceInner;
import com.azure.resourcemanager.network.fluent.models.NetworkInterfaceIpConfigurationInner;
import com.azure.resourcemanager.network.fluent.models.PublicIpAddressInner;
import com.azure.resourcemanager.network.fluent.models.SubnetInner;
import com.azure.resourcemanager.resources.fluent.models.ResourceGroupInner;
import com.azure.resourcemanager.resources.fluentcore.arm.ResourceId;
import dev.gantry.azure.arm.ArmConnector;
import dev.gantry.azure.arm.ArmFailures;
import dev.gantry.azure.arm.ArmFailures.Scope;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The Resource Manager calls that provisioning makes in one subscription (resource groups, virtual networks, security
 * groups, public IPs, NICs, availability sets, scale sets and their instances, VMs, disks and Run Command), through the Compute, Network and Resources
 * SDK clients. It decides nothing: each method is one call (or one long-running operation), answered with plain values, and what
 * Azure throws is translated by {@link ArmFailures} in the caller's {@link Scope}. A resource that does not exist is
 * an empty answer, and deleting it is done.
 */
public final class ArmVms {
    private final ComputeManager arm;
    private final String subscriptionId;

    public ArmVms(ComputeManager arm, String subscriptionId) {
        this.arm = Objects.requireNonNull(arm, "arm");
        this.subscriptionId = Objects.requireNonNull(subscriptionId, "subscriptionId");
    }

    /** The subscription reached as {@code connector} reaches Resource Manager. */
    public static ArmVms connect(ArmConnector connector, String subscriptionId) {
        return new ArmVms(connector.connect(subscriptionId), subscriptionId);
    }

    /** The last segment of a resource ID: the resource's name. */
    public static String nameOf(String resourceId) {
        return ResourceId.fromString(resourceId).name();
    }

    /** The resource group named in a resource ID. */
    public static String resourceGroupOf(String resourceId) {
        return ResourceId.fromString(resourceId).resourceGroupName();
    }

    public boolean resourceGroupExists(String resourceGroup, Scope scope) {
        var groups = arm.resourceManager().serviceClient().getResourceGroups();
        return call(scope, () -> find(() -> groups.get(resourceGroup))).isPresent();
    }

    public void createResourceGroup(String resourceGroup, String region, Map<String, String> tags, Scope scope) {
        ResourceGroupInner created = new ResourceGroupInner().withLocation(region).withTags(tags);
        call(scope, () -> arm.resourceManager().serviceClient().getResourceGroups()
                .createOrUpdate(resourceGroup, created));
    }

    /** The subnet's resource ID, empty when the network or the subnet does not exist. */
    public Optional<String> subnetId(String resourceGroup, String virtualNetwork, String subnet, Scope scope) {
        return call(scope, () -> find(() -> network().getSubnets().get(resourceGroup, virtualNetwork, subnet)))
                .map(SubnetInner::id);
    }

    public boolean virtualNetworkExists(String resourceGroup, String virtualNetwork, Scope scope) {
        return call(scope, () -> find(() -> network().getVirtualNetworks()
                .getByResourceGroup(resourceGroup, virtualNetwork))).isPresent();
    }

    /** Creates the network and answers its subnet's resource ID (empty if Azure created it without the subnet). */
    public Optional<String> createNetwork(NetworkBlueprint blueprint, Scope scope) {
        var created = call(scope, () -> network().getVirtualNetworks().createOrUpdate(blueprint.resourceGroup(),
                blueprint.virtualNetwork(), ArmTemplates.network(blueprint)));
        return created.subnets().stream().filter(s -> blueprint.subnet().equals(s.name())).findFirst()
                .map(SubnetInner::id);
    }

    /** Creates or updates a security group that lets {@code sshSource} reach port 22; answers its resource ID. */
    public String openSsh(String resourceGroup, String name, String region, String sshSource,
            Map<String, String> tags, Scope scope) {
        return call(scope, () -> network().getNetworkSecurityGroups().createOrUpdate(resourceGroup, name,
                ArmTemplates.sshSecurityGroup(region, sshSource, tags))).id();
    }

    /** The VM with its instance view (power state), empty when there is none of that name. */
    public Optional<FoundVm> findVm(String resourceGroup, String name, Scope scope) {
        return call(scope, () -> find(() -> arm.serviceClient().getVirtualMachines()
                .getByResourceGroupWithResponse(resourceGroup, name, InstanceViewTypes.INSTANCE_VIEW, Context.NONE)
                .getValue())).map(ArmVms::found);
    }

    /** Creates a static Standard public IP; answers its resource ID. */
    public String createPublicIp(String resourceGroup, String name, String region, Map<String, String> tags,
            Scope scope) {
        return call(scope, () -> network().getPublicIpAddresses().createOrUpdate(resourceGroup, name,
                ArmTemplates.publicIp(region, tags))).id();
    }

    /**
     * Creates a NIC in the subnet, with the public IP and security group when given and accelerated networking when
     * asked; answers its resource ID.
     */
    public String createNic(String resourceGroup, String name, String region, Map<String, String> tags,
            String subnetId, Optional<String> publicIpId, Optional<String> securityGroupId,
            boolean acceleratedNetworking, Scope scope) {
        return call(scope, () -> network().getNetworkInterfaces().createOrUpdate(resourceGroup, name,
                ArmTemplates.nic(region, tags, subnetId, publicIpId, securityGroupId, acceleratedNetworking))).id();
    }

    /** The availability set of that name, empty when there is none. */
    public Optional<AvailabilitySetFacts> findAvailabilitySet(String resourceGroup, String name, Scope scope) {
        return call(scope, () -> find(() -> arm.serviceClient().getAvailabilitySets()
                .getByResourceGroup(resourceGroup, name))).map(ArmVms::availabilitySetFacts);
    }

    /** Creates (or updates) the availability set of the blueprint; Azure answers it at once. */
    public AvailabilitySetFacts createAvailabilitySet(AvailabilitySetBlueprint blueprint, Scope scope) {
        return availabilitySetFacts(call(scope, () -> arm.serviceClient().getAvailabilitySets().createOrUpdate(
                blueprint.resourceGroup(), blueprint.name(), ArmTemplates.availabilitySet(blueprint))));
    }

    /** Deletes the availability set; one that does not exist is already deleted. */
    public void deleteAvailabilitySet(String resourceGroup, String name, Scope scope) {
        tolerateMissing(scope, () -> arm.serviceClient().getAvailabilitySets().delete(resourceGroup, name));
    }

    private static AvailabilitySetFacts availabilitySetFacts(AvailabilitySetInner set) {
        return new AvailabilitySetFacts(set.id(), set.location(),
                set.sku() == null || set.sku().name() == null ? "" : set.sku().name(),
                set.tags() == null ? Map.of() : set.tags());
    }

    /** Starts creating the VM on the NIC; a creation Azure refuses outright fails here, before anything waits. */
    public Pending<FoundVm> beginCreateVm(VmBlueprint blueprint, String nicId, Scope scope) {
        SyncPoller<PollResult<VirtualMachineInner>, VirtualMachineInner> creation = call(scope,
                () -> arm.serviceClient().getVirtualMachines().beginCreateOrUpdate(blueprint.resourceGroup(),
                        blueprint.name(), ArmTemplates.vm(blueprint, nicId)));
        return () -> found(call(scope, () -> finalResult(creation)));
    }

    /** The VM's facts, reading its primary NIC and public IP. */
    public VmFacts describe(FoundVm found, String resourceGroup, Scope scope) {
        VirtualMachineInner vm = found.model();
        String nicId = vm.networkProfile().networkInterfaces().get(0).id();
        ResourceId nicRef = ResourceId.fromString(nicId);
        NetworkInterfaceInner nic = call(scope, () -> network().getNetworkInterfaces()
                .getByResourceGroup(nicRef.resourceGroupName(), nicRef.name()));
        NetworkInterfaceIpConfigurationInner ipConfiguration = nic.ipConfigurations().get(0);
        Optional<String> publicIpId = Optional.ofNullable(ipConfiguration.publicIpAddress())
                .map(PublicIpAddressInner::id);
        Optional<String> publicIp = publicIpId.map(id -> {
            ResourceId ipRef = ResourceId.fromString(id);
            return call(scope, () -> network().getPublicIpAddresses()
                    .getByResourceGroup(ipRef.resourceGroupName(), ipRef.name())).ipAddress();
        });
        String osDiskId = vm.storageProfile().osDisk().managedDisk() != null
                && vm.storageProfile().osDisk().managedDisk().id() != null
                ? vm.storageProfile().osDisk().managedDisk().id()
                : "/subscriptions/" + subscriptionId + "/resourceGroups/" + resourceGroup
                        + "/providers/Microsoft.Compute/disks/" + vm.storageProfile().osDisk().name();
        return new VmFacts(vm.name(), vm.id(), vm.location(), vm.hardwareProfile().vmSize().toString(),
                vm.osProfile().adminUsername(), ipConfiguration.privateIpAddress(), publicIp,
                vm.priority() != null && "Spot".equalsIgnoreCase(vm.priority().toString()),
                Optional.ofNullable(vm.timeCreated()).map(time -> time.toInstant()), nic.id(), publicIpId, osDiskId,
                vm.tags() == null ? Map.of() : vm.tags());
    }

    /**
     * Starts a {@code RunShellScript} Run Command on the VM; its result is the status messages Azure returns (for
     * Linux, one message with the script's {@code [stdout]} and {@code [stderr]}).
     */
    public Pending<List<String>> beginRunShellScript(String resourceGroup, String vmName, List<String> script,
            Scope scope) {
        RunCommandInput input = shellScript(script);
        return messages(scope, call(scope,
                () -> arm.serviceClient().getVirtualMachines().beginRunCommand(resourceGroup, vmName, input)));
    }

    /** As {@link #beginRunShellScript}, on one instance of a scale set. */
    public Pending<List<String>> beginRunShellScriptOnInstance(String resourceGroup, String scaleSet,
            String instanceId, List<String> script, Scope scope) {
        RunCommandInput input = shellScript(script);
        return messages(scope, call(scope, () -> arm.serviceClient().getVirtualMachineScaleSetVMs()
                .beginRunCommand(resourceGroup, scaleSet, instanceId, input)));
    }

    private static RunCommandInput shellScript(List<String> script) {
        return new RunCommandInput().withCommandId("RunShellScript").withScript(script);
    }

    private static Pending<List<String>> messages(Scope scope,
            SyncPoller<PollResult<RunCommandResultInner>, RunCommandResultInner> run) {
        return () -> {
            RunCommandResultInner result = call(scope, () -> finalResult(run));
            return result == null || result.value() == null ? List.of()
                    : result.value().stream().map(InstanceViewStatus::message).toList();
        };
    }

    /** The scale set of that name, empty when there is none. */
    public Optional<ScaleSetFacts> findScaleSet(String resourceGroup, String name, Scope scope) {
        return call(scope, () -> find(() -> arm.serviceClient().getVirtualMachineScaleSets()
                .getByResourceGroup(resourceGroup, name))).map(ArmVms::scaleSetFacts);
    }

    /**
     * Starts creating or updating the scale set of the blueprint; its capacity is a target, which Azure reaches by
     * adding or removing instances. A PUT Azure refuses outright fails here, before anything waits.
     */
    public Pending<ScaleSetFacts> beginPutScaleSet(ScaleSetBlueprint blueprint, Scope scope) {
        SyncPoller<PollResult<VirtualMachineScaleSetInner>, VirtualMachineScaleSetInner> put = call(scope,
                () -> arm.serviceClient().getVirtualMachineScaleSets().beginCreateOrUpdate(blueprint.resourceGroup(),
                        blueprint.name(), ArmTemplates.scaleSet(blueprint)));
        return () -> scaleSetFacts(call(scope, () -> finalResult(put)));
    }

    /**
     * The set's instances with their instance views (power state), their NICs' private addresses and their public
     * addresses: three list calls (instances; the set's NICs; its public IPs, only when a NIC has one), since Azure
     * reports each on its own, instead of two reads per instance.
     */
    public List<ScaleSetInstance> listInstances(String resourceGroup, String scaleSet, Scope scope) {
        List<VirtualMachineScaleSetVMInner> instances = call(scope, () -> arm.serviceClient()
                .getVirtualMachineScaleSetVMs().list(resourceGroup, scaleSet, null, null, "instanceView",
                        Context.NONE).stream().toList());
        if (instances.isEmpty()) {
            return List.of();
        }
        Map<String, NetworkInterfaceInner> nics = new HashMap<>();
        call(scope, () -> network().getNetworkInterfaces()
                .listVirtualMachineScaleSetNetworkInterfaces(resourceGroup, scaleSet).stream().toList())
                .forEach(nic -> nics.put(nic.id().toLowerCase(Locale.ROOT), nic));
        Map<String, String> publicIps = new HashMap<>();
        boolean anyPublic = nics.values().stream().anyMatch(nic -> primary(nic).publicIpAddress() != null);
        if (anyPublic) {
            call(scope, () -> network().getPublicIpAddresses()
                    .listVirtualMachineScaleSetPublicIpAddresses(resourceGroup, scaleSet).stream().toList())
                    .forEach(ip -> publicIps.put(ip.id().toLowerCase(Locale.ROOT), ip.ipAddress()));
        }
        return instances.stream().map(instance -> instance(instance, nics, publicIps)).toList();
    }

    /** Deletes these instances of the set, with their disks, NICs and public IPs; a set that is gone is done. */
    public void deleteInstances(String resourceGroup, String scaleSet, List<String> instanceIds, Scope scope) {
        tolerateMissing(scope, () -> arm.serviceClient().getVirtualMachineScaleSets().deleteInstances(resourceGroup,
                scaleSet, new VirtualMachineScaleSetVMInstanceRequiredIDs().withInstanceIds(instanceIds)));
    }

    /** Deletes the scale set with whatever instances it still has; one that does not exist is already deleted. */
    public void deleteScaleSet(String resourceGroup, String name, Scope scope) {
        tolerateMissing(scope, () -> arm.serviceClient().getVirtualMachineScaleSets().delete(resourceGroup, name));
    }

    private static ScaleSetFacts scaleSetFacts(VirtualMachineScaleSetInner set) {
        return new ScaleSetFacts(set.id(), set.location(),
                set.sku() == null || set.sku().name() == null ? "" : set.sku().name(),
                set.sku() == null || set.sku().capacity() == null ? 0 : set.sku().capacity(),
                set.zones() == null ? List.of() : set.zones(),
                set.orchestrationMode() == null ? "Uniform" : set.orchestrationMode().toString(),
                set.singlePlacementGroup() == null || set.singlePlacementGroup(),
                set.provisioningState() == null ? "" : set.provisioningState(),
                set.tags() == null ? Map.of() : set.tags());
    }

    private ScaleSetInstance instance(VirtualMachineScaleSetVMInner vm, Map<String, NetworkInterfaceInner> nics,
            Map<String, String> publicIps) {
        String nicId = vm.networkProfile() == null || vm.networkProfile().networkInterfaces() == null
                || vm.networkProfile().networkInterfaces().isEmpty() ? ""
                : vm.networkProfile().networkInterfaces().get(0).id();
        NetworkInterfaceInner nic = nics.get(nicId.toLowerCase(Locale.ROOT));
        NetworkInterfaceIpConfigurationInner ip = nic == null ? null : primary(nic);
        Optional<String> publicIpId = Optional.ofNullable(ip).map(NetworkInterfaceIpConfigurationInner::publicIpAddress)
                .map(PublicIpAddressInner::id);
        Optional<String> powerState = vm.instanceView() == null ? Optional.empty()
                : powerState(vm.instanceView().statuses());
        String osDiskId = vm.storageProfile() == null || vm.storageProfile().osDisk() == null
                || vm.storageProfile().osDisk().managedDisk() == null ? ""
                : vm.storageProfile().osDisk().managedDisk().id();
        return new ScaleSetInstance(vm.name(), vm.instanceId(), vm.id(), vm.location(),
                vm.sku() == null || vm.sku().name() == null ? "" : vm.sku().name(),
                vm.provisioningState() == null ? "" : vm.provisioningState(), powerState,
                vm.osProfile() == null ? "" : vm.osProfile().adminUsername(),
                Optional.ofNullable(vm.timeCreated()).map(time -> time.toInstant()), nicId,
                ip == null || ip.privateIpAddress() == null ? "" : ip.privateIpAddress(), publicIpId,
                publicIpId.map(id -> publicIps.get(id.toLowerCase(Locale.ROOT))), osDiskId);
    }

    private static NetworkInterfaceIpConfigurationInner primary(NetworkInterfaceInner nic) {
        return nic.ipConfigurations().stream().filter(c -> Boolean.TRUE.equals(c.primary())).findFirst()
                .orElse(nic.ipConfigurations().get(0));
    }

    public void deleteVm(String resourceGroup, String name, Scope scope) {
        tolerateMissing(scope, () -> arm.serviceClient().getVirtualMachines().delete(resourceGroup, name));
    }

    public void deleteDisk(String resourceGroup, String name, Scope scope) {
        tolerateMissing(scope, () -> arm.serviceClient().getDisks().delete(resourceGroup, name));
    }

    public void deleteNic(String resourceGroup, String name, Scope scope) {
        tolerateMissing(scope, () -> network().getNetworkInterfaces().delete(resourceGroup, name));
    }

    public void deletePublicIp(String resourceGroup, String name, Scope scope) {
        tolerateMissing(scope, () -> network().getPublicIpAddresses().delete(resourceGroup, name));
    }

    private NetworkManagementClient network() {
        return arm.networkManager().serviceClient();
    }

    private static FoundVm found(VirtualMachineInner vm) {
        String size = vm.hardwareProfile() == null || vm.hardwareProfile().vmSize() == null ? ""
                : vm.hardwareProfile().vmSize().toString();
        return new FoundVm(vm, vm.tags() == null ? Map.of() : vm.tags(), size, vm.provisioningState(),
                powerState(vm), Optional.ofNullable(vm.availabilitySet()).map(SubResource::id));
    }

    private static Optional<String> powerState(VirtualMachineInner vm) {
        return vm.instanceView() == null ? Optional.empty() : powerState(vm.instanceView().statuses());
    }

    private static Optional<String> powerState(List<InstanceViewStatus> statuses) {
        if (statuses == null) {
            return Optional.empty();
        }
        return statuses.stream()
                .map(InstanceViewStatus::code)
                .filter(code -> code != null && code.startsWith("PowerState/"))
                .map(code -> code.substring("PowerState/".length()))
                .findFirst();
    }

    /**
     * Waits for a long-running operation. A sync poller ends a failed operation with a status, not an exception, so
     * the failure is raised here as the SDK raises it from the blocking calls.
     */
    private static <T> T finalResult(SyncPoller<PollResult<T>, T> poller) {
        PollResponse<PollResult<T>> last = poller.waitForCompletion();
        if (last.getStatus() == LongRunningOperationStatus.SUCCESSFULLY_COMPLETED) {
            return poller.getFinalResult();
        }
        throw ArmFailures.operationFailed(last.getStatus().toString(),
                last.getValue() == null ? null : last.getValue().getError());
    }

    private static <T> Optional<T> find(Supplier<T> get) {
        try {
            return Optional.ofNullable(get.get());
        } catch (RuntimeException e) {
            if (ArmFailures.isNotFound(e)) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private static void tolerateMissing(Scope scope, Runnable delete) {
        call(scope, () -> {
            find(() -> {
                delete.run();
                return Boolean.TRUE;
            });
            return null;
        });
    }

    private static <T> T call(Scope scope, Supplier<T> armCall) {
        try {
            return armCall.get();
        } catch (RuntimeException e) {
            throw ArmFailures.translate(scope, e);
        }
    }
}
