package dev.gantry.azure.fakes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the fake Resource Manager refuses about where VMs go: scale sets, availability sets and zones. Each rule is one
 * Azure documents: the Compute REST contract's property descriptions, or the Learn pages named beside it
 * ("Orchestration modes for Virtual Machine Scale Sets",
 * learn.microsoft.com/azure/virtual-machine-scale-sets/virtual-machine-scale-sets-orchestration-modes; "Set up
 * InfiniBand", learn.microsoft.com/azure/virtual-machines/setup-infiniband). Each answers the problem text of a 400
 * {@code InvalidParameter} (or a 409 {@code OperationNotAllowed}, marked by its prefix), or null when Azure accepts.
 * Azure does not publish the wording of all these refusals; the fake's messages say what was refused and why.
 */
final class PlacementRules {
    /** The prefix of a problem that ARM answers with {@code OperationNotAllowed} rather than InvalidParameter. */
    static final String NOT_ALLOWED = "OperationNotAllowed: ";
    /**
     * The most VMs in one placement group. Compute REST contract, {@code VirtualMachineScaleSetProperties
     * .singlePlacementGroup}: "When true this limits the scale set to a single placement group, of max size 100
     * virtual machines." ("Set up InfiniBand": a support request can raise it to 300; the fake holds the default.)
     */
    static final int PLACEMENT_GROUP_VMS = 100;
    /** "Set up InfiniBand": "when deploying VMs using Availability Sets the maximum limit is at 200 VMs". */
    static final int AVAILABILITY_SET_VMS = 200;

    private final ArmFake arm;

    PlacementRules(ArmFake arm) {
        this.arm = arm;
    }

    /**
     * A scale set PUT. The contract: "If singlePlacementGroup is true, it may be modified to false. However, if
     * singlePlacementGroup is false, it may not be modified to true"; a single placement group holds at most
     * {@value #PLACEMENT_GROUP_VMS} VMs, so a Uniform scale set limited to one cannot have a larger capacity
     * (Uniform's {@code singlePlacementGroup} defaults to true). "Orchestration modes": Flexible scale sets do not
     * support the single placement group parameter ("this can be set to null and the platform will select the
     * correct value"), and the fault domain count of a zonal scale set is 1.
     */
    String scaleSet(String path, ObjectNode set) {
        String name = set.path("name").asText();
        JsonNode properties = set.path("properties");
        String mode = properties.path("orchestrationMode").asText("Uniform");
        if (!mode.equals("Flexible") && !mode.equals("Uniform")) {
            return "The value '" + mode + "' of orchestrationMode is not valid; allowed: Uniform, Flexible.";
        }
        ObjectNode existing = arm.stored(path);
        if (existing != null && !existing.path("properties").path("singlePlacementGroup").asBoolean(true)
                && properties.path("singlePlacementGroup").asBoolean(false)) {
            return "singlePlacementGroup of scale set " + name + " is false and may not be modified to true.";
        }
        if (mode.equals("Flexible") && properties.path("singlePlacementGroup").asBoolean(false)) {
            return "singlePlacementGroup is not supported for a scale set in Flexible orchestration mode; leave it "
                    + "null and the platform selects the value.";
        }
        int capacity = set.path("sku").path("capacity").asInt(0);
        if (mode.equals("Uniform") && properties.path("singlePlacementGroup").asBoolean(true)
                && capacity > PLACEMENT_GROUP_VMS) {
            return "Scale set " + name + " is limited to a single placement group, of max size " + PLACEMENT_GROUP_VMS
                    + " virtual machines; sku.capacity " + capacity + " does not fit.";
        }
        if (!set.path("zones").isEmpty() && properties.path("platformFaultDomainCount").asInt(1) > 1) {
            return "platformFaultDomainCount " + properties.path("platformFaultDomainCount").asInt()
                    + " is not allowed for a zonal scale set; allowed: 1.";
        }
        if (existing != null && !existing.path("zones").equals(set.path("zones"))) {
            return "The zones of scale set " + name + " cannot be changed.";
        }
        return null;
    }

    /**
     * An availability set PUT. "Orchestration modes", High availability: availability sets do not support availability
     * zones; the resource has no {@code zones}.
     */
    String availabilitySet(ObjectNode set) {
        if (!set.path("zones").isEmpty()) {
            return "Availability set " + set.path("name").asText() + " cannot have zones: availability sets do not "
                    + "support availability zones.";
        }
        return null;
    }

    /**
     * A VM PUT against its scale set or availability set. The contract, {@code VirtualMachineProperties}: "a VM can
     * only be added to [an] availability set at creation time. An existing VM cannot be added to an availability set",
     * the same for a scale set, and the two references cannot exist along with each other. A zonal VM cannot join an
     * availability set (which has no zones), an availability set holds at most {@value #AVAILABILITY_SET_VMS} VMs, and
     * a VM of a zonal scale set must be in one of its zones.
     */
    String vm(String path, ObjectNode vm) {
        JsonNode properties = vm.path("properties");
        String scaleSetId = reference(properties, "virtualMachineScaleSet");
        String availabilitySetId = reference(properties, "availabilitySet");
        if (!scaleSetId.isEmpty() && !availabilitySetId.isEmpty()) {
            return "properties.virtualMachineScaleSet cannot exist along with a non-null properties.availabilitySet "
                    + "reference.";
        }
        ObjectNode existing = arm.stored(path);
        if (existing != null) {
            for (String set : List.of("availabilitySet", "virtualMachineScaleSet")) {
                String before = reference(existing.path("properties"), set);
                if (!before.equalsIgnoreCase(reference(properties, set))) {
                    return NOT_ALLOWED + "A VM can only be added to " + (set.equals("availabilitySet")
                            ? "an availability set" : "a virtual machine scale set") + " at creation time; VM "
                            + vm.path("name").asText() + " exists " + (before.isEmpty() ? "outside any"
                            : "in " + before) + ".";
                }
            }
        }
        if (!availabilitySetId.isEmpty()) {
            return availabilitySetMember(vm, availabilitySetId, existing == null);
        }
        return scaleSetId.isEmpty() ? null : scaleSetMember(vm, scaleSetId);
    }

    private String availabilitySetMember(ObjectNode vm, String availabilitySetId, boolean joining) {
        if (arm.stored(availabilitySetId) == null) {
            return "Resource '" + availabilitySetId + "' was not found.";
        }
        if (!vm.path("zones").isEmpty()) {
            return "A VM with zones " + vm.path("zones") + " cannot be placed in availability set "
                    + availabilitySetId + ": availability sets do not support availability zones.";
        }
        int members = members("availabilitySet", availabilitySetId).size();
        if (joining && members >= AVAILABILITY_SET_VMS) {
            return NOT_ALLOWED + "Availability set " + availabilitySetId + " holds at most " + AVAILABILITY_SET_VMS
                    + " VMs and has " + members + ".";
        }
        return null;
    }

    private String scaleSetMember(ObjectNode vm, String scaleSetId) {
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
        return null;
    }

    /** The VMs created in the set ({@code availabilitySet} or {@code virtualMachineScaleSet}) of this resource ID. */
    List<ObjectNode> members(String kind, String setId) {
        List<ObjectNode> members = new ArrayList<>();
        for (ObjectNode resource : arm.all()) {
            if ("Microsoft.Compute/virtualMachines".equals(resource.path("type").asText())
                    && setId.toLowerCase(Locale.ROOT).equals(reference(resource.path("properties"), kind)
                            .toLowerCase(Locale.ROOT))) {
                members.add(resource);
            }
        }
        return members;
    }

    private static String reference(JsonNode properties, String field) {
        return properties.path(field).path("id").asText("");
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
