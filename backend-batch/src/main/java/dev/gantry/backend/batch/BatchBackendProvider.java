package dev.gantry.backend.batch;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.backend.batch.internal.BatchBackend;
import dev.gantry.backend.batch.internal.BatchSettings;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Azure Batch: pools per size and image, container tasks, multi-instance tasks, spot preemption. Discovered with
 * ServiceLoader. {@link #create} builds the backend; {@link #unavailableReason()} still says it is not available
 * until the conformance kit passes against it, so that no one is offered a backend that has not been proven.
 */
public final class BatchBackendProvider implements BackendProvider {
    static final String UNAVAILABLE = "the batch backend is not implemented in this version of Gantry; "
            + "use backend: manual (machines you manage) meanwhile";

    public BatchBackendProvider() {
    }

    @Override
    public String name() {
        return "batch";
    }

    @Override
    public String description() {
        return "Azure Batch: pools per size and image, container tasks, multi-instance tasks, spot preemption.";
    }

    @Override
    public Capabilities capabilities() {
        return new Capabilities(true, true, true, true, true, Set.of(GpuVendor.NVIDIA, GpuVendor.AMD));
    }

    @Override
    public List<ConfigKey> configKeys() {
        return BatchSettings.KEYS;
    }

    @Override
    public Optional<String> unavailableReason() {
        return Optional.of(UNAVAILABLE);
    }

    @Override
    public Backend create(BackendConfig config, BackendContext context) {
        // Until the kit passes, unavailableReason() says why and create() keeps to it; the one switch is there.
        Optional<String> unavailable = unavailableReason();
        if (unavailable.isPresent()) {
            throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, unavailable.get());
        }
        return BatchBackend.open(BatchSettings.bind(config), context);
    }
}
