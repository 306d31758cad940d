package dev.gantry.azure.fakes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the fake Resource Manager refuses about where VMs go: scale sets, availability sets and zones. Each rule is
 * one Azure documents (the Compute REST contract's property descriptions, or the Learn pages named beside it); each
 * answers the problem text of a 400 {@code InvalidParameter} (or {@code OperationNotAllowed}, marked by its prefix),
 * or null when Azure accepts. The exact wording of Azure's messages is not published for all of them; the fake's
 * messages say what was refused and which rule refused it.
 */
final class PlacementRules {
    /** The prefix of a problem that ARM answers with {@code OperationNotAllowed} rather than InvalidParameter. */
    static final String NOT_ALLOWED = "OperationNotAllowed: ";
    /**
     * The most VMs in one placement group. Compute REST contract, {@code VirtualMachineScaleSetProperties
     * .singlePlacementGroup}: "When true this limits the scale set to a single placement group, of max size 100
     * virtual machines." ("Set up InfiniBand", learn.microsoft.com/azure/virtual-machines/setup-infiniband: the
     * limit can be raised to 300 through a support request; the fake holds the default.)
     */
    static final int PLACEMENT_GROUP_VMS = 100;

    private final ArmFake arm;

    PlacementRules(ArmFake arm) {
        this.arm = arm;
    }

    /**
     * A scale set PUT. The contract: "If singlePlacementGroup is true, it may be modified to false. However, if
     * singlePlacementGroup is false, it may not be modified to true." Learn, "Orchestration modes for Virtual Machine
     * Scale Sets": the maximum fault domain count of a zonal or zone-spanning scale set is 1.
     */
    String scaleSet(String path, ObjectNode set) {
        JsonNode properties = set.path("properties");
        ObjectNode existing = arm.stored(path);
        if (existing != null && !existing.path("properties").path("singlePlacementGroup").asBoolean(false)
                && properties.path("singlePlacementGroup").asBoolean(false)) {
            return "singlePlacementGroup of scale set " + set.path("name").asText() + " is false and may not be "
                    + "modified to true.";
        }
        String mode = properties.path("orchestrationMode").asText("Uniform");
        if (!mode.equals("Flexible") && !mode.equals("Uniform")) {
            return "The value '" + mode + "' of orchestrationMode is not valid; allowed: Uniform, Flexible.";
        }
        if (mode.equals("Flexible") && !properties.has("platformFaultDomainCount")) {
            return "Required parameter 'platformFaultDomainCount' is missing (null) for a scale set in Flexible "
                    + "orchestration mode.";
        }
        if (!set.path("zones").isEmpty() && properties.path("platformFaultDomainCount").asInt(1) > 1) {
            return "platformFaultDomainCount " + properties.path("platformFaultDomainCount").asInt()
                    + " is not allowed for a zonal scale set; allowed: 1.";
        }
        if (existing != null && !existing.path("zones").equals(set.path("zones"))) {
            return "The zones of scale set " + set.path("name").asText() + " cannot be changed.";
        }
        if (existing == null && !properties.has("singlePlacementGroup") && mode.equals("Flexible")) {
            ((ObjectNode) properties).put("singlePlacementGroup", false);
        }
        return null;
    }

    /**
     * An availability set PUT. Learn, "Orchestration modes ...", High availability: availability sets do not support
     * availability zones; the resource has no {@code zones}.
     */
    String availabilitySet(ObjectNode set) {
        if (!set.path("zones").isEmpty()) {
            return "Availability set " + set.path("name").asText() + " cannot have zones: availability sets do not "
                    + "support availability zones.";
        }
        return null;
    }

    /**
     * A VM PUT against its scale set or availability set. The contract, {@code VirtualMachineProperties
     * .virtualMachineScaleSet}: "a VM can only be added to virtual machine scale set at creation time. An existing VM
     * cannot be added to a virtual machine scale set. This property cannot exist along with a non-null
     * properties.availabilitySet reference." A zonal VM cannot join an availability set (which has no zones), a VM of
     * a zonal scale set must be in one of its zones, and a scale set limited to one placement group holds at most
     * {@value #PLACEMENT_GROUP_VMS} VMs.
     */
    String vm(String path, ObjectNode vm) {
        JsonNode properties = vm.path("properties");
        String scaleSetId = properties.path("virtualMachineScaleSet").path("id").asText("");
        String availabilitySetId = properties.path("availabilitySet").path("id").asText("");
        if (!scaleSetId.isEmpty() && !availabilitySetId.isEmpty()) {
            return "properties.virtualMachineScaleSet cannot exist along with a non-null properties.availabilitySet "
                    + "reference.";
        }
        ObjectNode existing = arm.stored(path);
        if (existing != null) {
            String before = existing.path("properties").path("virtualMachineScaleSet").path("id").asText("");
            if (!before.equalsIgnoreCase(scaleSetId)) {
                return NOT_ALLOWED + "A VM can only be added to a virtual machine scale set at creation time; VM "
                        + vm.path("name").asText() + " exists " + (before.isEmpty() ? "outside any scale set"
                        : "in scale set " + before) + ".";
            }
        }
        if (!availabilitySetId.isEmpty()) {
            if (arm.stored(availabilitySetId) == null) {
                return "Resource '" + availabilitySetId + "' was not found.";
            }
            if (!vm.path("zones").isEmpty()) {
                return "A VM with zones " + vm.path("zones") + " cannot be placed in availability set "
                        + availabilitySetId + ": availability sets do not support availability zones.";
            }
        }
        if (scaleSetId.isEmpty()) {
            return null;
        }
        ObjectNode set = arm.stored(scaleSetId);
        if (set == null) {
            return "Resource '" + scaleSetId + "' was not found.";
        }
        JsonNode setZones = set.path("zones");
        JsonNode vmZones = vm.path("zones");
        if (!setZones.isEmpty() && (vmZones.isEmpty() || !contains(setZones, vmZones))) {
            return "The VM's zones " + vmZones + " must be among the zones " + setZones + " of scale set "
                    + scaleSetId + ".";
        }
        if (setZones.isEmpty() && !vmZones.isEmpty()) {
            return "A zonal VM (zones " + vmZones + ") cannot join the regional scale set " + scaleSetId + ".";
        }
        if (existing == null && set.path("properties").path("singlePlacementGroup").asBoolean(false)
                && members(scaleSetId).size() >= PLACEMENT_GROUP_VMS) {
            return NOT_ALLOWED + "Scale set " + scaleSetId + " is limited to a single placement group, which holds "
                    + "at most " + PLACEMENT_GROUP_VMS + " VMs, and has " + members(scaleSetId).size() + ".";
        }
        return null;
    }

    /** The VMs created in the scale set. */
    List<ObjectNode> members(String scaleSetId) {
        List<ObjectNode> members = new ArrayList<>();
        for (ObjectNode resource : arm.all()) {
            if ("Microsoft.Compute/virtualMachines".equals(resource.path("type").asText())
                    && scaleSetId.toLowerCase(Locale.ROOT).equals(resource.path("properties")
                            .path("virtualMachineScaleSet").path("id").asText("").toLowerCase(Locale.ROOT))) {
                members.add(resource);
            }
        }
        return members;
    }

    private static boolean contains(JsonNode all, JsonNode some) {
        for (JsonNode zone : some) {
            boolean found = false;
            for (JsonNode candidate : all) {
                found |= candidate.asText().equals(zone.asText());
            }
            if (!found) {
                return false;
            }
        }
        return true;
    }
}
