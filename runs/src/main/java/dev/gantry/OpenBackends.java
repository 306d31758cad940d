package dev.gantry;

import dev.gantry.api.backend.Backend;
import dev.gantry.core.backends.BackendRegistry;
import dev.gantry.core.backends.CoreBackendContext;
import dev.gantry.core.wiring.CoreServices;
import dev.gantry.runs.provision.VmInventory;
import dev.gantry.model.VmInventoryEntry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The backends a facade opened, by name, each created from the configuration on first use with its context (state
 * directory, secrets, clock, the VMs Gantry provisioned); closed with the facade. Shared by the facade and its
 * sub-facades, which need a backend but not the facade.
 */
final class OpenBackends {
    private final CoreServices services;
    private final Map<String, Backend> open = new LinkedHashMap<>();

    OpenBackends(CoreServices services) {
        this.services = services;
    }

    BackendRegistry registry() {
        return services.registry().get();
    }

    synchronized Backend backend(String name) {
        Backend backend = open.get(name);
        if (backend == null) {
            backend = registry().create(name, services.config().backendConfig(name), context(name));
            open.put(name, backend);
        }
        return backend;
    }

    CoreBackendContext context(String name) {
        return new CoreBackendContext(services.config().stateDirectory(), name, services.secrets(), services.clock(),
                () -> vmInventory().list().stream().map(VmInventoryEntry::asProvisionedHost).toList());
    }

    VmInventory vmInventory() {
        return VmInventory.inStateDirectory(services.config().stateDirectory());
    }

    /** Closes every backend opened so far; the failures after the first are suppressed into it. */
    synchronized List<RuntimeException> close() {
        List<RuntimeException> failures = new ArrayList<>();
        for (Backend backend : open.values()) {
            try {
                backend.close();
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        open.clear();
        return failures;
    }
}
