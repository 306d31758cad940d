package dev.gantry.core.provision;

import com.azure.resourcemanager.resources.fluentcore.arm.ResourceId;
import com.azure.core.management.polling.PollResult;
import com.azure.core.util.Context;
import com.azure.core.util.polling.LongRunningOperationStatus;
import com.azure.core.util.polling.PollResponse;
import com.azure.core.util.polling.SyncPoller;
import com.azure.resourcemanager.compute.ComputeManager;
import com.azure.resourcemanager.compute.fluent.models.RunCommandResultInner;
import com.azure.resourcemanager.compute.fluent.models.VirtualMachineInner;
import com.azure.resourcemanager.compute.models.InstanceViewStatus;
import com.azure.resourcemanager.compute.models.RunCommandInput;
import com.azure.resourcemanager.compute.models.InstanceViewTypes;
import com.azure.resourcemanager.network.fluent.NetworkManagementClient;
import com.azure.resourcemanager.network.fluent.models.NetworkInterfaceInner;
import com.azure.resourcemanager.network.fluent.models.NetworkInterfaceIpConfigurationInner;
import com.azure.resourcemanager.network.fluent.models.NetworkSecurityGroupInner;
import com.azure.resourcemanager.network.fluent.models.PublicIpAddressInner;
import com.azure.resourcemanager.network.fluent.models.SubnetInner;
import com.azure.resourcemanager.resources.fluent.models.ResourceGroupInner;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.azure.arm.ArmConnector;
import dev.gantry.azure.arm.ArmFailures;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Creates and deletes the VMs of {@code gantry vm up} / {@code gantry vm down} through the Azure Compute SDK.
 *
 * <p>{@link #up} is idempotent per name prefix: VMs named {@code <prefix>-<i>} that already exist with the
 * {@value ProvisionRequest#MANAGED_TAG} tag are reused, not duplicated. A VM whose creation fails takes its NIC and
 * public IP down with it; VMs created before it stay, are recorded, and are named in the error. Every VM is recorded
 * in the {@link VmInventory} as soon as it exists, before the readiness wait, so that a VM that never becomes ready can
 * still be removed with {@link #down}. Its SSH host keys are then read on the VM through Azure Run Command
 * ({@link HostKeyScript}) and recorded, so that the readiness wait and every later SSH connection verify the host
 * instead of trusting the first key offered.
 */
public final class VmProvisioner {
    /** Label keys the manual backend accepts ({@code key=value} items); tags with other keys are not labels. */
    private static final java.util.regex.Pattern LABEL_KEY = java.util.regex.Pattern.compile(
            "[A-Za-z0-9][A-Za-z0-9_.-]{0,62}");
    private final ArmConnector connector;
    private final VmInventory inventory;
    private final ReadinessWait readiness;
    private final Clock clock;

    public VmProvisioner(ArmConnector connector, VmInventory inventory, ReadinessWait readiness, Clock clock) {
        this.connector = Objects.requireNonNull(connector, "connector");
        this.inventory = Objects.requireNonNull(inventory, "inventory");
        this.readiness = Objects.requireNonNull(readiness, "readiness");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Creates (or finds) the request's VMs, records them, and waits until every one is ready. The VMs are created in
     * parallel: every creation is started before the first is awaited, because one takes minutes. A creation Azure
     * refuses outright (quota, SKU) stops further starts, since the next VMs would be refused for the same reason.
     */
    public List<ProvisionedVm> up(ProvisionRequest request) {
        ComputeManager arm = connector.connect(request.subscriptionId());
        ensureResourceGroup(arm, request);
        String subnetId = ensureSubnet(arm, request);
        Optional<String> securityGroupId = request.publicIp() ? Optional.of(ensureSshSecurityGroup(arm, request))
                : Optional.empty();
        List<Creation> started = new ArrayList<>();
        Map<String, GantryException> failures = new LinkedHashMap<>();
        for (String name : request.vmNames()) {
            try {
                started.add(start(arm, request, name, subnetId, securityGroupId));
            } catch (GantryException e) {
                failures.put(name, e); // start() removed what it created; a VM it refused to touch stays untouched
                break;
            }
        }
        List<ProvisionedVm> created = new ArrayList<>();
        for (Creation creation : started) {
            try {
                ProvisionedVm vm = creation.finish().get();
                VmInventoryEntry entry = withKnownHostKeys(vm.vm());
                inventory.put(entry);
                created.add(new ProvisionedVm(entry, vm.created()));
            } catch (GantryException e) {
                failures.put(creation.name(), e);
            }
        }
        List<ProvisionedVm> provisioned = captureHostKeys(arm, request, created, failures);
        if (!failures.isEmpty()) {
            throw failed(failures, provisioned);
        }
        readiness.await(provisioned.stream().map(ProvisionedVm::vm).toList());
        return List.copyOf(provisioned);
    }

    /**
     * A VM found again keeps the host keys recorded when it was created (the same VM, by resource ID): they were read
     * on the VM then, and reading them again would cost a Run Command per VM and run.
     */
    private VmInventoryEntry withKnownHostKeys(VmInventoryEntry found) {
        return inventory.find(found.name())
                .filter(known -> known.resourceId().equalsIgnoreCase(found.resourceId()) && known.hostKeyPinned())
                .map(known -> found.withHostKeyFingerprints(known.hostKeyFingerprints()))
                .orElse(found);
    }

    /**
     * Reads the SSH host keys of every VM that has none recorded through Azure Run Command, all started before the
     * first is awaited (each takes tens of seconds), and records their fingerprints, so that the first SSH
     * connection already verifies the host. A VM whose keys cannot be read stays recorded without them and is
     * reported in {@code failures}: it cannot be reached safely, so it is not waited for.
     */
    private List<ProvisionedVm> captureHostKeys(ComputeManager arm, ProvisionRequest request,
            List<ProvisionedVm> vms, Map<String, GantryException> failures) {
        Map<String, SyncPoller<PollResult<RunCommandResultInner>, RunCommandResultInner>> reads = new LinkedHashMap<>();
        RunCommandInput input = new RunCommandInput().withCommandId("RunShellScript")
                .withScript(HostKeyScript.LINES);
        for (ProvisionedVm vm : vms) {
            if (vm.vm().hostKeyPinned()) {
                continue;
            }
            try {
                reads.put(vm.name(), call(keyScope(vm, request), () -> arm.serviceClient().getVirtualMachines()
                        .beginRunCommand(vm.vm().resourceGroup(), vm.name(), input)));
            } catch (GantryException e) {
                failures.put(vm.name(), hostKeysUnread(vm.name(), e));
            }
        }
        List<ProvisionedVm> ready = new ArrayList<>();
        for (ProvisionedVm vm : vms) {
            if (vm.vm().hostKeyPinned()) {
                ready.add(vm);
                continue;
            }
            var read = reads.get(vm.name());
            if (read == null) {
                continue;
            }
            try {
                RunCommandResultInner result = call(keyScope(vm, request), () -> finalResult(read));
                List<String> messages = result == null || result.value() == null ? List.of()
                        : result.value().stream().map(InstanceViewStatus::message).toList();
                VmInventoryEntry keyed = vm.vm().withHostKeyFingerprints(
                        HostKeyScript.fingerprints(vm.name(), RunCommandOutput.parse(messages)));
                inventory.put(keyed);
                ready.add(new ProvisionedVm(keyed, vm.created()));
            } catch (GantryException e) {
                failures.put(vm.name(), hostKeysUnread(vm.name(), e));
            }
        }
        return ready;
    }

    private static ArmFailures.Scope keyScope(ProvisionedVm vm, ProvisionRequest request) {
        return new ArmFailures.Scope("reading the SSH host keys of VM " + vm.name() + " with Run Command",
                request.vmSize(), request.region());
    }

    private static GantryException hostKeysUnread(String name, GantryException cause) {
        return new GantryException(cause.code(), "VM " + name + " was created and recorded, but its SSH host keys "
                + "could not be read through Azure Run Command, so SSH to it cannot be verified: "
                + cause.getMessage() + ". Run gantry vm up again to retry, or remove it with gantry vm down " + name,
                cause);
    }

    /** Deletes the named VMs of the inventory with their disks, NICs and public IPs, and forgets them. */
    public void down(List<String> names) {
        List<VmInventoryEntry> entries = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (String name : names) {
            inventory.find(name).ifPresentOrElse(entries::add, () -> unknown.add(name));
        }
        if (!unknown.isEmpty()) {
            List<String> known = inventory.list().stream().map(VmInventoryEntry::name).toList();
            throw new GantryException(ErrorCode.USAGE, "no provisioned VM named " + String.join(", ", unknown)
                    + " in " + inventory.file() + "; known VMs: " + (known.isEmpty() ? "none" : String.join(", ", known)));
        }
        downEntries(entries);
    }

    /**
     * Deletes the VMs in dependency order (VM, then its OS disk, NIC and public IP), tolerating resources that are
     * already gone, and removes each from the inventory once all its resources are deleted. Failures do not stop the
     * other VMs; they are reported together at the end.
     */
    public void downEntries(List<VmInventoryEntry> vms) {
        Map<String, ComputeManager> connections = new LinkedHashMap<>();
        List<String> failures = new ArrayList<>();
        GantryException first = null;
        for (VmInventoryEntry vm : vms) {
            ComputeManager arm = connections.computeIfAbsent(vm.subscriptionId(), connector::connect);
            try {
                deleteAll(arm, vm.resourceGroup(), ResourceId.fromString(vm.resourceId()).name(),
                        Optional.of(ResourceId.fromString(vm.osDiskId()).name()),
                        Optional.of(ResourceId.fromString(vm.nicId()).name()),
                        vm.publicIpId().map(id -> ResourceId.fromString(id).name()),
                        new ArmFailures.Scope("deleting VM " + vm.name(), vm.vmSize(), vm.region()));
                inventory.remove(vm.name());
            } catch (GantryException e) {
                failures.add(vm.name() + ": " + e.getMessage());
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw new GantryException(first.code(), "could not delete " + failures.size() + " VM(s); they stay in the "
                    + "inventory, run gantry vm down again:\n  " + String.join("\n  ", failures), first);
        }
    }

    private Creation start(ComputeManager arm, ProvisionRequest request, String name, String subnetId,
            Optional<String> securityGroupId) {
        ArmFailures.Scope scope = new ArmFailures.Scope("creating VM " + name, request.vmSize(), request.region());
        Optional<VirtualMachineInner> existing = call(scope, () -> find(() -> arm.serviceClient().getVirtualMachines()
                .getByResourceGroupWithResponse(request.resourceGroup(), name, InstanceViewTypes.INSTANCE_VIEW,
                        Context.NONE).getValue()));
        if (existing.isPresent()) {
            VirtualMachineInner vm = existing.get();
            Map<String, String> tags = vm.tags() == null ? Map.of() : vm.tags();
            if (!"true".equals(tags.get(ProvisionRequest.MANAGED_TAG))) {
                throw new GantryException(ErrorCode.CONFIG_INVALID, "VM " + name + " already exists in resource group "
                        + request.resourceGroup() + " and was not created by Gantry (no " + ProvisionRequest.MANAGED_TAG
                        + " tag); choose another name prefix");
            }
            String size = vm.hardwareProfile() == null || vm.hardwareProfile().vmSize() == null ? ""
                    : vm.hardwareProfile().vmSize().toString();
            if (!size.equalsIgnoreCase(request.vmSize())) {
                throw new GantryException(ErrorCode.CONFIG_INVALID, "VM " + name + " already exists with size " + size
                        + ", but the request asks for " + request.vmSize() + "; choose another name prefix, or remove "
                        + "the old VMs first with gantry vm down");
            }
            if ("Succeeded".equalsIgnoreCase(vm.provisioningState())) {
                Optional<String> power = powerState(vm);
                if (power.isPresent() && !power.get().equals("running") && !power.get().equals("starting")) {
                    throw new GantryException(ErrorCode.REMOTE_ERROR, "VM " + name + " exists but is " + power.get()
                            + (request.spot().isPresent() ? " (a spot VM may have been evicted)" : "")
                            + "; start it in the Azure portal, or delete it with gantry vm down " + name
                            + " and run gantry vm up again");
                }
                ProvisionedVm found = new ProvisionedVm(describe(arm, request, vm), false);
                return new Creation(name, () -> found);
            }
        }
        NetworkManagementClient network = arm.networkManager().serviceClient();
        Optional<String> publicIpId = Optional.empty();
        try {
            if (request.publicIp()) {
                PublicIpAddressInner ip = call(scope, () -> network.getPublicIpAddresses().createOrUpdate(
                        request.resourceGroup(), VmTemplate.publicIpName(name), VmTemplate.publicIp(request)));
                publicIpId = Optional.of(ip.id());
            }
            Optional<String> ipId = publicIpId;
            NetworkInterfaceInner nic = call(scope, () -> network.getNetworkInterfaces().createOrUpdate(
                    request.resourceGroup(), VmTemplate.nicName(name),
                    VmTemplate.nic(request, subnetId, ipId, securityGroupId)));
            SyncPoller<PollResult<VirtualMachineInner>, VirtualMachineInner> creation = call(scope,
                    () -> arm.serviceClient().getVirtualMachines().beginCreateOrUpdate(request.resourceGroup(), name,
                            VmTemplate.vm(request, name, nic.id())));
            return new Creation(name, () -> {
                VirtualMachineInner vm;
                try {
                    vm = call(scope, () -> finalResult(creation));
                } catch (GantryException e) {
                    cleanUpFailed(arm, request, name, e);
                    throw e;
                }
                return new ProvisionedVm(describe(arm, request, vm), true);
            });
        } catch (GantryException e) {
            cleanUpFailed(arm, request, name, e);
            throw e;
        }
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

    /** Removes what a failed creation left behind; a failure here is added to the original error, not raised. */
    private void cleanUpFailed(ComputeManager arm, ProvisionRequest request, String name, GantryException cause) {
        try {
            deleteAll(arm, request.resourceGroup(), name, Optional.of(VmTemplate.osDiskName(name)),
                    Optional.of(VmTemplate.nicName(name)),
                    request.publicIp() ? Optional.of(VmTemplate.publicIpName(name)) : Optional.empty(),
                    new ArmFailures.Scope("cleaning up after VM " + name, request.vmSize(), request.region()));
        } catch (GantryException e) {
            cause.addSuppressed(e);
        }
    }

    private void deleteAll(ComputeManager arm, String resourceGroup, String vmName, Optional<String> osDisk,
            Optional<String> nic, Optional<String> publicIp, ArmFailures.Scope scope) {
        NetworkManagementClient network = arm.networkManager().serviceClient();
        tolerateMissing(scope, () -> arm.serviceClient().getVirtualMachines().delete(resourceGroup, vmName));
        osDisk.ifPresent(disk -> tolerateMissing(scope,
                () -> arm.serviceClient().getDisks().delete(resourceGroup, disk)));
        nic.ifPresent(n -> tolerateMissing(scope, () -> network.getNetworkInterfaces().delete(resourceGroup, n)));
        publicIp.ifPresent(ip -> tolerateMissing(scope,
                () -> network.getPublicIpAddresses().delete(resourceGroup, ip)));
    }

    private VmInventoryEntry describe(ComputeManager arm, ProvisionRequest request, VirtualMachineInner vm) {
        ArmFailures.Scope scope = new ArmFailures.Scope("reading VM " + vm.name(), request.vmSize(), request.region());
        String nicId = vm.networkProfile().networkInterfaces().get(0).id();
        NetworkManagementClient network = arm.networkManager().serviceClient();
        ResourceId nicRef = ResourceId.fromString(nicId);
        NetworkInterfaceInner nic = call(scope, () -> network.getNetworkInterfaces()
                .getByResourceGroup(nicRef.resourceGroupName(), nicRef.name()));
        NetworkInterfaceIpConfigurationInner ipConfiguration = nic.ipConfigurations().get(0);
        Optional<String> publicIpId = Optional.ofNullable(ipConfiguration.publicIpAddress())
                .map(PublicIpAddressInner::id);
        Optional<String> publicIp = publicIpId.map(id -> {
            ResourceId ipRef = ResourceId.fromString(id);
            return call(scope, () -> network.getPublicIpAddresses()
                    .getByResourceGroup(ipRef.resourceGroupName(), ipRef.name())).ipAddress();
        });
        String osDiskId = vm.storageProfile().osDisk().managedDisk() != null
                && vm.storageProfile().osDisk().managedDisk().id() != null
                ? vm.storageProfile().osDisk().managedDisk().id()
                : "/subscriptions/" + request.subscriptionId() + "/resourceGroups/" + request.resourceGroup()
                        + "/providers/Microsoft.Compute/disks/" + vm.storageProfile().osDisk().name();
        return new VmInventoryEntry(vm.name(), vm.id(), request.resourceGroup(), vm.location(),
                vm.hardwareProfile().vmSize().toString(), vm.osProfile().adminUsername(),
                ipConfiguration.privateIpAddress(), publicIp, vm.priority() != null
                        && "Spot".equalsIgnoreCase(vm.priority().toString()),
                vm.timeCreated() != null ? vm.timeCreated().toInstant() : clock.instant(), nic.id(), publicIpId,
                osDiskId, List.of(), labels(vm.tags()));
    }

    /** The VM's tags as host labels: the workload and plan labels it was created for, without Gantry's own tag. */
    private static Map<String, String> labels(Map<String, String> tags) {
        Map<String, String> labels = new LinkedHashMap<>();
        if (tags != null) {
            tags.forEach((key, value) -> {
                if (!key.equalsIgnoreCase(ProvisionRequest.MANAGED_TAG) && LABEL_KEY.matcher(key).matches()
                        && value != null && !value.contains(",")) {
                    labels.put(key, value);
                }
            });
        }
        return labels;
    }

    /** {@code running}, {@code deallocated}, ... from the instance view's {@code PowerState/<state>} status. */
    private static Optional<String> powerState(VirtualMachineInner vm) {
        if (vm.instanceView() == null || vm.instanceView().statuses() == null) {
            return Optional.empty();
        }
        return vm.instanceView().statuses().stream()
                .map(status -> status.code())
                .filter(code -> code != null && code.startsWith("PowerState/"))
                .map(code -> code.substring("PowerState/".length()))
                .findFirst();
    }

    private void ensureResourceGroup(ComputeManager arm, ProvisionRequest request) {
        ArmFailures.Scope scope = new ArmFailures.Scope("checking resource group " + request.resourceGroup(),
                request.vmSize(), request.region());
        var groups = arm.resourceManager().serviceClient().getResourceGroups();
        Optional<ResourceGroupInner> group = call(scope, () -> find(() -> groups.get(request.resourceGroup())));
        if (group.isEmpty()) {
            ResourceGroupInner created = new ResourceGroupInner().withLocation(request.region())
                    .withTags(request.resourceTags());
            call(scope, () -> groups.createOrUpdate(request.resourceGroup(), created));
        }
    }

    private String ensureSubnet(ComputeManager arm, ProvisionRequest request) {
        ProvisionRequest.Network wanted = request.network();
        ArmFailures.Scope scope = new ArmFailures.Scope("preparing virtual network " + wanted.virtualNetwork(),
                request.vmSize(), request.region());
        NetworkManagementClient network = arm.networkManager().serviceClient();
        Optional<SubnetInner> subnet = call(scope, () -> find(() -> network.getSubnets()
                .get(request.resourceGroup(), wanted.virtualNetwork(), wanted.subnet())));
        if (subnet.isPresent()) {
            return subnet.get().id();
        }
        boolean networkExists = call(scope, () -> find(() -> network.getVirtualNetworks()
                .getByResourceGroup(request.resourceGroup(), wanted.virtualNetwork()))).isPresent();
        if (networkExists) {
            throw new GantryException(ErrorCode.CONFIG_INVALID, "virtual network " + wanted.virtualNetwork()
                    + " in resource group " + request.resourceGroup() + " has no subnet " + wanted.subnet()
                    + "; create the subnet, or name an existing one");
        }
        var created = call(scope, () -> network.getVirtualNetworks().createOrUpdate(request.resourceGroup(),
                wanted.virtualNetwork(), VmTemplate.defaultNetwork(request)));
        return created.subnets().stream().filter(s -> wanted.subnet().equals(s.name())).findFirst()
                .map(SubnetInner::id)
                .orElseThrow(() -> new GantryException(ErrorCode.REMOTE_ERROR, "Azure created virtual network "
                        + wanted.virtualNetwork() + " without subnet " + wanted.subnet()));
    }

    private String ensureSshSecurityGroup(ComputeManager arm, ProvisionRequest request) {
        ArmFailures.Scope scope = new ArmFailures.Scope("opening SSH in network security group " + VmTemplate.SSH_NSG,
                request.vmSize(), request.region());
        NetworkSecurityGroupInner group = call(scope, () -> arm.networkManager().serviceClient()
                .getNetworkSecurityGroups().createOrUpdate(request.resourceGroup(), VmTemplate.SSH_NSG,
                        VmTemplate.sshSecurityGroup(request)));
        return group.id();
    }

    /**
     * One failure is reported as it is; several are listed by VM under the first one's code. VMs that did come up
     * are named, because they bill until deleted.
     */
    private static GantryException failed(Map<String, GantryException> failures, List<ProvisionedVm> provisioned) {
        GantryException first = failures.values().iterator().next();
        if (failures.size() == 1 && provisioned.isEmpty()) {
            return first;
        }
        StringBuilder message = new StringBuilder();
        if (failures.size() == 1) {
            message.append(first.getMessage());
        } else {
            message.append(failures.size()).append(" VMs failed:");
            failures.forEach((name, e) -> message.append("\n  ").append(name).append(": ").append(e.getMessage()));
        }
        if (!provisioned.isEmpty()) {
            List<String> names = provisioned.stream().map(ProvisionedVm::name).toList();
            message.append("\nAlready provisioned and recorded: ").append(String.join(", ", names))
                    .append(" (they bill until deleted: gantry vm down ").append(String.join(" ", names))
                    .append(", or run gantry vm up again once the cause is fixed)");
        }
        GantryException combined = new GantryException(first.code(), message.toString(), first.problems(), first);
        failures.values().stream().skip(1).forEach(combined::addSuppressed);
        return combined;
    }

    /** A VM whose creation was started (or that already existed); {@code finish} waits for it. */
    private record Creation(String name, Supplier<ProvisionedVm> finish) {
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

    private static void tolerateMissing(ArmFailures.Scope scope, Runnable delete) {
        call(scope, () -> {
            find(() -> {
                delete.run();
                return Boolean.TRUE;
            });
            return null;
        });
    }

    private static <T> T call(ArmFailures.Scope scope, Supplier<T> armCall) {
        try {
            return armCall.get();
        } catch (RuntimeException e) {
            throw ArmFailures.translate(scope, e);
        }
    }
}
