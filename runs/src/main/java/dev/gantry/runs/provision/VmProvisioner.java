package dev.gantry.runs.provision;

import dev.gantry.model.VmInventoryEntry;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.azure.arm.ArmConnector;
import dev.gantry.azure.arm.ArmFailures;
import dev.gantry.azure.vm.ArmVms;
import dev.gantry.azure.vm.FoundVm;
import dev.gantry.azure.vm.Pending;
import dev.gantry.azure.vm.AvailabilitySetBlueprint;
import dev.gantry.azure.vm.AvailabilitySetFacts;
import dev.gantry.azure.vm.VmFacts;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import dev.gantry.model.Progress;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Creates and deletes the VMs of {@code gantry vm up} / {@code gantry vm down}. It decides (reuse, parallel starts,
 * clean-up, what is recorded when) and talks to Resource Manager through the Azure module's {@link ArmVms}, one
 * method per ARM call.
 *
 * <p>{@link #up} is idempotent per name prefix: VMs named {@code <prefix>-<i>} that already exist with the
 * {@value ProvisionRequest#MANAGED_TAG} tag are reused, not duplicated. A VM whose creation fails takes its NIC and
 * public IP down with it; VMs created before it stay, are recorded, and are named in the error. Every VM is recorded
 * in the {@link VmInventory} as soon as it exists, before the readiness wait, so that a VM that never becomes ready can
 * still be removed with {@link #down}. Its SSH host keys are then read on the VM through Azure Run Command
 * ({@link HostKeyScript}) and recorded, so that the readiness wait and every later SSH connection verify the host
 * instead of trusting the first key offered.
 *
 * <p>The VMs of an RDMA plan share one InfiniBand fabric ({@link FabricPlacement}): regional ones are created one by
 * one in an availability set; zonal ones are the instances of one scale set ({@link ScaleSetFabric}), recorded, keyed
 * and waited for in the same way, and deleted through the set.
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
        return up(request, Progress.NONE);
    }

    /**
     * As {@link #up(ProvisionRequest)}, telling {@code progress} what it is doing: creating, reading host keys,
     * waiting for readiness (each step takes minutes, and a person watching wants to see which one it is in).
     */
    public List<ProvisionedVm> up(ProvisionRequest request, Progress progress) {
        ArmVms arm = ArmVms.connect(connector, request.subscriptionId());
        ensureResourceGroup(arm, request);
        String subnetId = ensureSubnet(arm, request);
        Optional<String> securityGroupId = request.publicIp() ? Optional.of(ensureSshSecurityGroup(arm, request))
                : Optional.empty();
        Map<String, GantryException> failures = new LinkedHashMap<>();
        List<ProvisionedVm> created = request.fabric() == FabricPlacement.Fabric.SCALE_SET
                ? upScaleSet(arm, request, subnetId, securityGroupId, failures, progress)
                : upVms(arm, request, subnetId, securityGroupId, failures, progress);
        progress.step("reading SSH host keys through Azure Run Command");
        List<ProvisionedVm> provisioned = captureHostKeys(arm, request, created, failures);
        if (!failures.isEmpty()) {
            throw failed(failures, provisioned);
        }
        readiness.await(provisioned.stream().map(ProvisionedVm::vm).toList(), progress);
        return List.copyOf(provisioned);
    }

    /**
     * The instances of the request's zonal scale set ({@link ScaleSetFabric}), each recorded as soon as it is read,
     * before its host keys, as every VM is.
     */
    private List<ProvisionedVm> upScaleSet(ArmVms arm, ProvisionRequest request, String subnetId,
            Optional<String> securityGroupId, Map<String, GantryException> failures, Progress progress) {
        progress.step("creating " + request.count() + " x " + request.vmSize() + " in scale set "
                + FabricPlacement.setName(request.namePrefix()) + ", zone " + request.zone().orElseThrow());
        List<ProvisionedVm> recorded = new ArrayList<>();
        for (VmInventoryEntry instance : new ScaleSetFabric(arm, clock).up(request, subnetId, securityGroupId,
                failures)) {
            boolean known = inventory.find(instance.name()).isPresent();
            VmInventoryEntry entry = withKnownHostKeys(instance);
            inventory.put(entry);
            if (!failures.containsKey(instance.name())) {
                recorded.add(new ProvisionedVm(entry, !known));
            }
        }
        return recorded;
    }

    /** VMs of their own, {@code <prefix>-1 .. <prefix>-N}, each recorded as soon as it exists. */
    private List<ProvisionedVm> upVms(ArmVms arm, ProvisionRequest request, String subnetId,
            Optional<String> securityGroupId, Map<String, GantryException> failures, Progress progress) {
        Optional<String> availabilitySetId = request.fabric() == FabricPlacement.Fabric.AVAILABILITY_SET
                ? Optional.of(ensureAvailabilitySet(arm, request)) : Optional.empty();
        List<Creation> started = new ArrayList<>();
        for (String name : request.vmNames()) {
            try {
                started.add(start(arm, request, name, subnetId, securityGroupId, availabilitySetId));
            } catch (GantryException e) {
                failures.put(name, e); // start() removed what it created; a VM it refused to touch stays untouched
                break;
            }
        }
        List<ProvisionedVm> created = new ArrayList<>();
        String creating = "creating " + request.count() + " x " + request.vmSize() + " in " + request.region();
        for (Creation creation : started) {
            progress.step(creating, created.size() + " of " + started.size() + " created");
            try {
                ProvisionedVm vm = creation.finish().get();
                VmInventoryEntry entry = withKnownHostKeys(vm.vm());
                inventory.put(entry);
                created.add(new ProvisionedVm(entry, vm.created()));
            } catch (GantryException e) {
                failures.put(creation.name(), e);
            }
        }
        return created;
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
    private List<ProvisionedVm> captureHostKeys(ArmVms arm, ProvisionRequest request,
            List<ProvisionedVm> vms, Map<String, GantryException> failures) {
        Map<String, Pending<List<String>>> reads = new LinkedHashMap<>();
        for (ProvisionedVm vm : vms) {
            if (vm.vm().hostKeyPinned()) {
                continue;
            }
            try {
                reads.put(vm.name(), readHostKeys(arm, vm.vm(), keyScope(vm, request)));
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
                List<String> messages = read.await();
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

    /** Run Command on the VM, or on the scale set instance the entry is. */
    private static Pending<List<String>> readHostKeys(ArmVms arm, VmInventoryEntry vm, ArmFailures.Scope scope) {
        if (vm.scaleSetId().isPresent()) {
            return arm.beginRunShellScriptOnInstance(vm.resourceGroup(), ArmVms.nameOf(vm.scaleSetId().get()),
                    ArmVms.nameOf(vm.resourceId()), HostKeyScript.LINES, scope);
        }
        return arm.beginRunShellScript(vm.resourceGroup(), vm.name(), HostKeyScript.LINES, scope);
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

    /**
     * Deletes the named VMs of the inventory with their disks, NICs and public IPs, and forgets them; an availability
     * set Gantry created for them goes too once no VM of the inventory is left in it.
     */
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
        Map<String, ArmVms> connections = new LinkedHashMap<>();
        Map<String, VmInventoryEntry> emptiedSets = new LinkedHashMap<>();
        List<String> failures = new ArrayList<>();
        GantryException first = null;
        Map<String, List<VmInventoryEntry>> instancesBySet = new LinkedHashMap<>();
        for (VmInventoryEntry vm : vms) {
            ArmVms arm = connections.computeIfAbsent(vm.subscriptionId(), id -> ArmVms.connect(connector, id));
            if (vm.scaleSetId().isPresent()) {
                instancesBySet.computeIfAbsent(vm.scaleSetId().get().toLowerCase(Locale.ROOT), id -> new ArrayList<>())
                        .add(vm);
                continue;
            }
            try {
                deleteAll(arm, vm.resourceGroup(), ArmVms.nameOf(vm.resourceId()),
                        Optional.of(ArmVms.nameOf(vm.osDiskId())), Optional.of(ArmVms.nameOf(vm.nicId())),
                        vm.publicIpId().map(ArmVms::nameOf),
                        new ArmFailures.Scope("deleting VM " + vm.name(), vm.vmSize(), vm.region()));
                inventory.remove(vm.name());
                vm.availabilitySetId().ifPresent(id -> emptiedSets.putIfAbsent(id.toLowerCase(Locale.ROOT), vm));
            } catch (GantryException e) {
                failures.add(vm.name() + ": " + e.getMessage());
                first = first == null ? e : first;
            }
        }
        for (VmInventoryEntry last : emptiedSets.values()) {
            String setId = last.availabilitySetId().orElseThrow();
            if (inventory.list().stream().anyMatch(vm -> sameResource(vm.availabilitySetId(), Optional.of(setId)))) {
                continue; // VMs of the inventory still share its fabric (vm down of some of them: a lower count)
            }
            String name = ArmVms.nameOf(setId);
            try {
                connections.get(last.subscriptionId()).deleteAvailabilitySet(ArmVms.resourceGroupOf(setId), name,
                        new ArmFailures.Scope("deleting availability set " + name, last.vmSize(), last.region()));
            } catch (GantryException e) {
                failures.add("availability set " + name + ": " + e.getMessage());
                first = first == null ? e : first;
            }
        }
        for (List<VmInventoryEntry> instances : instancesBySet.values()) {
            VmInventoryEntry any = instances.get(0);
            try {
                downInstances(connections.get(any.subscriptionId()), instances);
            } catch (GantryException e) {
                instances.forEach(vm -> failures.add(vm.name() + ": " + e.getMessage()));
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw new GantryException(first.code(), "could not delete " + failures.size() + " VM(s); they stay in the "
                    + "inventory, run gantry vm down again:\n  " + String.join("\n  ", failures), first);
        }
    }

    /**
     * Deletes instances of one scale set through its API (Azure deletes each with its disk, NIC and public IP) and
     * forgets them; with the last of its instances in the inventory, the set goes instead, with whatever it still
     * holds. Instances that are already gone are forgotten without a call.
     */
    private void downInstances(ArmVms arm, List<VmInventoryEntry> instances) {
        VmInventoryEntry any = instances.get(0);
        String setId = any.scaleSetId().orElseThrow();
        String resourceGroup = ArmVms.resourceGroupOf(setId);
        String set = ArmVms.nameOf(setId);
        List<String> names = instances.stream().map(VmInventoryEntry::name).toList();
        boolean last = inventory.list().stream().filter(vm -> sameResource(vm.scaleSetId(), Optional.of(setId)))
                .allMatch(vm -> names.contains(vm.name()));
        ArmFailures.Scope scope = new ArmFailures.Scope((last ? "deleting scale set " : "deleting instances of scale "
                + "set ") + set, any.vmSize(), any.region());
        if (last) {
            arm.deleteScaleSet(resourceGroup, set, scope);
        } else if (arm.findScaleSet(resourceGroup, set, scope).isPresent()) {
            List<String> live = arm.listInstances(resourceGroup, set, scope).stream()
                    .map(dev.gantry.azure.vm.ScaleSetInstance::instanceId).toList();
            List<String> ids = instances.stream().map(vm -> ArmVms.nameOf(vm.resourceId())).filter(live::contains)
                    .toList();
            if (!ids.isEmpty()) {
                arm.deleteInstances(resourceGroup, set, ids, scope);
            }
        }
        names.forEach(inventory::remove);
    }

    private Creation start(ArmVms arm, ProvisionRequest request, String name, String subnetId,
            Optional<String> securityGroupId, Optional<String> availabilitySetId) {
        ArmFailures.Scope scope = new ArmFailures.Scope("creating VM " + name, request.vmSize(), request.region());
        Optional<FoundVm> existing = arm.findVm(request.resourceGroup(), name, scope);
        if (existing.isPresent()) {
            FoundVm vm = existing.get();
            Map<String, String> tags = vm.tags();
            if (!"true".equals(tags.get(ProvisionRequest.MANAGED_TAG))) {
                throw new GantryException(ErrorCode.CONFIG_INVALID, "VM " + name + " already exists in resource group "
                        + request.resourceGroup() + " and was not created by Gantry (no " + ProvisionRequest.MANAGED_TAG
                        + " tag); choose another name prefix");
            }
            String size = vm.vmSize();
            if (!size.equalsIgnoreCase(request.vmSize())) {
                throw new GantryException(ErrorCode.CONFIG_INVALID, "VM " + name + " already exists with size " + size
                        + ", but the request asks for " + request.vmSize() + "; choose another name prefix, or remove "
                        + "the old VMs first with gantry vm down");
            }
            if (!sameResource(vm.availabilitySetId(), availabilitySetId)) {
                throw new GantryException(ErrorCode.CONFIG_INVALID, "VM " + name + " already exists "
                        + vm.availabilitySetId().map(id -> "in availability set " + ArmVms.nameOf(id))
                                .orElse("in no availability set")
                        + ", but the request puts its VMs " + availabilitySetId.map(id -> "in availability set "
                                + ArmVms.nameOf(id) + " so that they share one InfiniBand fabric")
                                .orElse("in no availability set")
                        + "; Azure adds a VM to an availability set only when it creates it. Remove the old VMs first "
                        + "with gantry vm down, or choose another name prefix");
            }
            if ("Succeeded".equalsIgnoreCase(vm.provisioningState())) {
                Optional<String> power = vm.powerState();
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
        Optional<String> publicIpId = Optional.empty();
        try {
            if (request.publicIp()) {
                publicIpId = Optional.of(arm.createPublicIp(request.resourceGroup(), VmTemplate.publicIpName(name),
                        request.region(), request.resourceTags(), scope));
            }
            String nicId = arm.createNic(request.resourceGroup(), VmTemplate.nicName(name), request.region(),
                    request.resourceTags(), subnetId, publicIpId, securityGroupId, request.sharedFabric(), scope);
            Pending<FoundVm> creation = arm.beginCreateVm(VmTemplate.vm(request, name, availabilitySetId), nicId, scope);
            return new Creation(name, () -> {
                FoundVm vm;
                try {
                    vm = creation.await();
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

    /** Removes what a failed creation left behind; a failure here is added to the original error, not raised. */
    private void cleanUpFailed(ArmVms arm, ProvisionRequest request, String name, GantryException cause) {
        try {
            deleteAll(arm, request.resourceGroup(), name, Optional.of(VmTemplate.osDiskName(name)),
                    Optional.of(VmTemplate.nicName(name)),
                    request.publicIp() ? Optional.of(VmTemplate.publicIpName(name)) : Optional.empty(),
                    new ArmFailures.Scope("cleaning up after VM " + name, request.vmSize(), request.region()));
        } catch (GantryException e) {
            cause.addSuppressed(e);
        }
    }

    private void deleteAll(ArmVms arm, String resourceGroup, String vmName, Optional<String> osDisk,
            Optional<String> nic, Optional<String> publicIp, ArmFailures.Scope scope) {
        arm.deleteVm(resourceGroup, vmName, scope);
        osDisk.ifPresent(disk -> arm.deleteDisk(resourceGroup, disk, scope));
        nic.ifPresent(n -> arm.deleteNic(resourceGroup, n, scope));
        publicIp.ifPresent(ip -> arm.deletePublicIp(resourceGroup, ip, scope));
    }

    private VmInventoryEntry describe(ArmVms arm, ProvisionRequest request, FoundVm found) {
        VmFacts vm = arm.describe(found, request.resourceGroup(),
                new ArmFailures.Scope("reading VM " + found.name(), request.vmSize(), request.region()));
        return new VmInventoryEntry(vm.name(), vm.id(), request.resourceGroup(), vm.region(), vm.vmSize(),
                vm.adminUser(), vm.privateIp(), vm.publicIp(), vm.spot(), vm.created().orElse(clock.instant()),
                vm.nicId(), vm.publicIpId(), vm.osDiskId(), List.of(), labels(vm.tags()), found.availabilitySetId());
    }

    /** The VM's tags as host labels: the workload and plan labels it was created for, without Gantry's own tag. */
    static Map<String, String> labels(Map<String, String> tags) {
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

    /**
     * The availability set that keeps the request's VMs on one InfiniBand fabric: found (Gantry's own, from an earlier
     * {@code vm up} of the prefix) or created; answers its resource ID. One of SKU {@code Classic} is refused: it holds
     * only VMs with unmanaged disks, and Gantry's have managed ones.
     */
    private String ensureAvailabilitySet(ArmVms arm, ProvisionRequest request) {
        AvailabilitySetBlueprint wanted = VmTemplate.availabilitySet(request);
        ArmFailures.Scope scope = new ArmFailures.Scope("preparing availability set " + wanted.name(),
                request.vmSize(), request.region());
        Optional<AvailabilitySetFacts> existing = arm.findAvailabilitySet(request.resourceGroup(), wanted.name(),
                scope);
        if (existing.isPresent() && !"true".equals(existing.get().tags().get(ProvisionRequest.MANAGED_TAG))) {
            throw new GantryException(ErrorCode.CONFIG_INVALID, "availability set " + wanted.name() + " already "
                    + "exists in resource group " + request.resourceGroup() + " and was not created by Gantry (no "
                    + ProvisionRequest.MANAGED_TAG + " tag); choose another name prefix");
        }
        if (existing.isEmpty() && arm.findScaleSet(request.resourceGroup(), wanted.name(), scope).isPresent()) {
            throw new GantryException(ErrorCode.CONFIG_INVALID, "scale set " + wanted.name() + " already exists in "
                    + "resource group " + request.resourceGroup() + " (from a vm up in a zone), but the request puts "
                    + "its VMs in no zone, in availability set " + wanted.name() + "; VMs of one fabric are in one "
                    + "of the two. Ask the scale set's zone again (--zone, or spec.zones." + request.region()
                    + "), remove its VMs first with gantry vm down, or choose another name prefix");
        }
        AvailabilitySetFacts set = existing.isPresent() ? existing.get() : arm.createAvailabilitySet(wanted, scope);
        if (!"Aligned".equalsIgnoreCase(set.sku())) {
            throw new GantryException(ErrorCode.REMOTE_ERROR, "availability set " + wanted.name() + " has SKU '"
                    + set.sku() + "', which holds only VMs with unmanaged disks; Gantry's VMs have managed disks and "
                    + "need SKU Aligned. Remove its VMs with gantry vm down and run gantry vm up again");
        }
        return set.id();
    }

    private static boolean sameResource(Optional<String> a, Optional<String> b) {
        return a.map(String::toLowerCase).equals(b.map(String::toLowerCase));
    }

    private void ensureResourceGroup(ArmVms arm, ProvisionRequest request) {
        ArmFailures.Scope scope = new ArmFailures.Scope("checking resource group " + request.resourceGroup(),
                request.vmSize(), request.region());
        if (!arm.resourceGroupExists(request.resourceGroup(), scope)) {
            arm.createResourceGroup(request.resourceGroup(), request.region(), request.resourceTags(), scope);
        }
    }

    private String ensureSubnet(ArmVms arm, ProvisionRequest request) {
        ProvisionRequest.Network wanted = request.network();
        ArmFailures.Scope scope = new ArmFailures.Scope("preparing virtual network " + wanted.virtualNetwork(),
                request.vmSize(), request.region());
        Optional<String> subnet = arm.subnetId(request.resourceGroup(), wanted.virtualNetwork(), wanted.subnet(),
                scope);
        if (subnet.isPresent()) {
            return subnet.get();
        }
        if (arm.virtualNetworkExists(request.resourceGroup(), wanted.virtualNetwork(), scope)) {
            throw new GantryException(ErrorCode.CONFIG_INVALID, "virtual network " + wanted.virtualNetwork()
                    + " in resource group " + request.resourceGroup() + " has no subnet " + wanted.subnet()
                    + "; create the subnet, or name an existing one");
        }
        return arm.createNetwork(VmTemplate.defaultNetwork(request), scope)
                .orElseThrow(() -> new GantryException(ErrorCode.REMOTE_ERROR, "Azure created virtual network "
                        + wanted.virtualNetwork() + " without subnet " + wanted.subnet()));
    }

    private String ensureSshSecurityGroup(ArmVms arm, ProvisionRequest request) {
        ArmFailures.Scope scope = new ArmFailures.Scope("opening SSH in network security group " + VmTemplate.SSH_NSG,
                request.vmSize(), request.region());
        return arm.openSsh(request.resourceGroup(), VmTemplate.SSH_NSG, request.region(), request.sshSource(),
                request.resourceTags(), scope);
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
}
