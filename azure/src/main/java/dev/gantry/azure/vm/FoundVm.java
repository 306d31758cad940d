package dev.gantry.azure.vm;

import com.azure.resourcemanager.compute.fluent.models.VirtualMachineInner;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A VM that already exists, as far as deciding whether to reuse it needs: read with its instance view. The SDK's
 * model stays inside the module; {@link ArmVms#describe} reads the rest of its facts.
 */
public final class FoundVm {
    private final VirtualMachineInner model;
    private final Map<String, String> tags;
    private final String vmSize;
    private final String provisioningState;
    private final Optional<String> powerState;
    private final Optional<String> availabilitySetId;

    FoundVm(VirtualMachineInner model, Map<String, String> tags, String vmSize, String provisioningState,
            Optional<String> powerState, Optional<String> availabilitySetId) {
        this.model = Objects.requireNonNull(model, "model");
        this.tags = Map.copyOf(tags);
        this.vmSize = vmSize;
        this.provisioningState = provisioningState;
        this.powerState = powerState;
        this.availabilitySetId = Objects.requireNonNull(availabilitySetId, "availabilitySetId");
    }

    VirtualMachineInner model() {
        return model;
    }

    public String name() {
        return model.name();
    }

    public Map<String, String> tags() {
        return tags;
    }

    /** The size, empty text when Azure reports none. */
    public String vmSize() {
        return vmSize;
    }

    /** {@code Succeeded}, {@code Failed}, {@code Creating}, ... */
    public String provisioningState() {
        return provisioningState;
    }

    /** {@code running}, {@code deallocated}, ... from the instance view's {@code PowerState/<state>} status. */
    public Optional<String> powerState() {
        return powerState;
    }

    /** The resource ID of the availability set the VM was created in, empty when it is in none. */
    public Optional<String> availabilitySetId() {
        return availabilitySetId;
    }
}
