package dev.gantry.runs.provision;

import dev.gantry.model.VmInventoryEntry;
import java.util.Objects;

/**
 * A VM that {@link VmProvisioner#up} left running and ready, and whether this run created it or found it from an
 * earlier run with the same name prefix.
 */
public record ProvisionedVm(VmInventoryEntry vm, boolean created) {
    public ProvisionedVm {
        Objects.requireNonNull(vm, "vm");
    }

    public String name() {
        return vm.name();
    }
}
