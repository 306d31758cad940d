package dev.gantry.runs.provision;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.azure.arm.ArmFailures;
import dev.gantry.azure.vm.ArmVms;
import dev.gantry.azure.vm.ScaleSetFacts;
import dev.gantry.azure.vm.ScaleSetInstance;
import dev.gantry.model.VmInventoryEntry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The zonal InfiniBand fabric of {@code vm up}: the request's VMs are the instances of one Uniform scale set
 * {@code <prefix>-fabric} in the request's zone, limited to a single placement group ({@link FabricPlacement}). It
 * decides whether the set may be used and what capacity it needs, and turns its instances into inventory entries;
 * {@link VmProvisioner} records them, reads their host keys and waits for them as for every other VM.
 *
 * <p>The capacity is a target, not an increment: the set is PUT with {@code max(count, its capacity)}, so a retried
 * {@code vm up} (after a lost reply, say) finds the instances the first one made and never adds more, and a lower
 * count removes nothing (that is {@code vm down}'s). A set that already holds enough instances and has settled is not
 * PUT again.
 */
final class ScaleSetFabric {
    private final ArmVms arm;
    private final Clock clock;

    ScaleSetFabric(ArmVms arm, Clock clock) {
        this.arm = Objects.requireNonNull(arm, "arm");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Brings the request's scale set to (at least) its count and answers its instances as unrecorded entries, lowest
     * instance ID first. An instance that failed or does not run is answered as well (it is recorded, so that
     * {@code vm down} can remove it) and reported in {@code failures}; so is a PUT that Azure failed after it made
     * some instances.
     *
     * @throws GantryException when the set cannot be used, or Azure refuses the PUT before any instance exists
     */
    List<VmInventoryEntry> up(ProvisionRequest request, String subnetId, Optional<String> securityGroupId,
            Map<String, GantryException> failures) {
        String name = FabricPlacement.setName(request.namePrefix());
        ArmFailures.Scope scope = new ArmFailures.Scope("preparing scale set " + name, request.vmSize(),
                request.region());
        Optional<ScaleSetFacts> existing = arm.findScaleSet(request.resourceGroup(), name, scope);
        if (existing.isPresent()) {
            checkReusable(existing.get(), request);
        } else if (arm.findAvailabilitySet(request.resourceGroup(), name, scope).isPresent()) {
            throw new GantryException(ErrorCode.CONFIG_INVALID, "availability set " + name + " already exists in "
                    + "resource group " + request.resourceGroup() + " (from a regional vm up), but the request "
                    + "puts its VMs in zone " + request.zone().orElseThrow() + ", in scale set " + name + "; Azure "
                    + "cannot move VMs into a zone. Remove its VMs first with gantry vm down, or choose another "
                    + "name prefix");
        }
        long capacity = Math.max(request.count(), existing.map(ScaleSetFacts::capacity).orElse(0L));
        ScaleSetFacts set = existing.orElse(null);
        boolean settled = existing.filter(s -> s.capacity() >= request.count()
                && "Succeeded".equalsIgnoreCase(s.provisioningState())).isPresent();
        if (!settled) {
            ArmFailures.Scope putScope = new ArmFailures.Scope("creating " + capacity + " instance(s) of scale set "
                    + name, request.vmSize(), request.region());
            try {
                set = arm.beginPutScaleSet(VmTemplate.scaleSet(request, subnetId, securityGroupId, (int) capacity),
                        putScope).await();
            } catch (GantryException e) {
                set = arm.findScaleSet(request.resourceGroup(), name, scope).orElseThrow(() -> e);
                failures.put(name, e); // the set exists: what it made is recorded below, and named with the error
            }
        }
        List<ScaleSetInstance> instances = new ArrayList<>(arm.listInstances(request.resourceGroup(), name,
                new ArmFailures.Scope("reading the instances of scale set " + name, request.vmSize(),
                        request.region())));
        instances.sort(Comparator.comparingLong(instance -> instanceNumber(instance.instanceId())));
        List<VmInventoryEntry> vms = new ArrayList<>();
        for (ScaleSetInstance instance : instances) {
            vms.add(entry(request, set, instance));
            unusable(instance, request).ifPresent(problem -> failures.put(instance.name(), problem));
        }
        return vms;
    }

    private static void checkReusable(ScaleSetFacts set, ProvisionRequest request) {
        String name = ArmVms.nameOf(set.id());
        if (!"true".equals(set.tags().get(ProvisionRequest.MANAGED_TAG))) {
            throw new GantryException(ErrorCode.CONFIG_INVALID, "scale set " + name + " already exists in resource "
                    + "group " + request.resourceGroup() + " and was not created by Gantry (no "
                    + ProvisionRequest.MANAGED_TAG + " tag); choose another name prefix");
        }
        String zone = request.zone().orElseThrow();
        if (!set.zones().equals(List.of(zone))) {
            throw new GantryException(ErrorCode.CONFIG_INVALID, "scale set " + name + " already exists in "
                    + (set.zones().isEmpty() ? "no zone" : "zone(s) " + String.join(", ", set.zones()))
                    + ", but the request puts its VMs in zone " + zone + "; Azure does not change a scale set's "
                    + "zones. Ask " + (set.zones().size() == 1 ? "zone " + set.zones().get(0) : "its zone")
                    + " (--zone), remove its VMs first with gantry vm down, or choose another name prefix");
        }
        if (!set.vmSize().equalsIgnoreCase(request.vmSize())) {
            throw new GantryException(ErrorCode.CONFIG_INVALID, "scale set " + name + " already exists with size "
                    + set.vmSize() + ", but the request asks for " + request.vmSize() + "; choose another name "
                    + "prefix, or remove its VMs first with gantry vm down");
        }
        if (!"Uniform".equalsIgnoreCase(set.orchestrationMode()) || !set.singlePlacementGroup()) {
            throw new GantryException(ErrorCode.CONFIG_INVALID, "scale set " + name + " is " + set.orchestrationMode()
                    + (set.singlePlacementGroup() ? "" : " without a single placement group") + ", so its VMs do "
                    + "not share one InfiniBand fabric (Azure supports it in Uniform scale sets limited to a single "
                    + "placement group); remove its VMs first with gantry vm down, or choose another name prefix");
        }
    }

    private VmInventoryEntry entry(ProvisionRequest request, ScaleSetFacts set, ScaleSetInstance instance) {
        return new VmInventoryEntry(instance.name(), instance.id(), request.resourceGroup(),
                instance.region() == null ? request.region() : instance.region(),
                instance.vmSize().isEmpty() ? request.vmSize() : instance.vmSize(),
                instance.adminUser() == null || instance.adminUser().isEmpty() ? request.adminUser()
                        : instance.adminUser(),
                instance.privateIp(), instance.publicIp(), request.spot().isPresent(),
                instance.created().orElse(clock.instant()), instance.nicId(), instance.publicIpId(),
                instance.osDiskId(), List.of(), VmProvisioner.labels(set.tags()), Optional.empty(),
                Optional.of(set.id()));
    }

    /** Why an instance cannot be used: its creation failed, or it does not run (a Spot eviction, a stop). */
    private static Optional<GantryException> unusable(ScaleSetInstance instance, ProvisionRequest request) {
        if ("Failed".equalsIgnoreCase(instance.provisioningState())) {
            return Optional.of(new GantryException(ErrorCode.REMOTE_ERROR, "instance " + instance.name()
                    + " of scale set " + FabricPlacement.setName(request.namePrefix()) + " failed to provision; "
                    + "remove it with gantry vm down " + instance.name() + " and run gantry vm up again"));
        }
        Optional<String> power = instance.powerState();
        if (power.isPresent() && !power.get().equals("running") && !power.get().equals("starting")) {
            return Optional.of(new GantryException(ErrorCode.REMOTE_ERROR, "instance " + instance.name() + " exists "
                    + "but is " + power.get() + (request.spot().isPresent() ? " (a spot VM may have been evicted)" : "")
                    + "; start it in the Azure portal, or delete it with gantry vm down " + instance.name()
                    + " and run gantry vm up again"));
        }
        return Optional.empty();
    }

    private static long instanceNumber(String instanceId) {
        try {
            return Long.parseLong(instanceId);
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }
}
