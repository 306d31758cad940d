package dev.gantry.backend.batch;

import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.backend.batch.internal.BatchBackend;
import dev.gantry.backend.batch.internal.BatchSettings;
import dev.gantry.backend.batch.internal.validate.BatchCapabilities;
import java.util.List;
import java.util.Optional;

/**
 * Azure Batch: pools per size and image, container tasks, multi-instance tasks, spot preemption. Discovered with
 * ServiceLoader. Available: the conformance kit passes against the Batch fake ({@code BatchConformanceTest}), and
 * {@link #create} binds {@code backends.batch.*} and builds the backend.
 */
public final class BatchBackendProvider implements BackendProvider {
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

    /** What the backend can do at most: Spot needs an account that can have it, which only the backend reads. */
    @Override
    public Capabilities capabilities() {
        return BatchCapabilities.of(List.of()).toBuilder().spot(true).build();
    }

    @Override
    public List<ConfigKey> configKeys() {
        return BatchSettings.KEYS;
    }

    @Override
    public Optional<String> unavailableReason() {
        return Optional.empty();
    }

    @Override
    public Backend create(BackendConfig config, BackendContext context) {
        return BatchBackend.open(BatchSettings.bind(config), context);
    }
}
