package dev.gantry.core.backends;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.ProvisionedHost;
import dev.gantry.api.backend.SecretResolver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;

/**
 * The context core gives each backend: its own state directory under Gantry's, secrets, the clock and the VMs
 * Gantry provisioned (read from the VM inventory only when a backend asks).
 */
public final class CoreBackendContext implements BackendContext {
    private final Path stateDirectory;
    private final SecretResolver secrets;
    private final Clock clock;
    private final Supplier<List<ProvisionedHost>> provisionedHosts;

    public CoreBackendContext(Path gantryState, String backendName, SecretResolver secrets, Clock clock) {
        this(gantryState, backendName, secrets, clock, List::of);
    }

    public CoreBackendContext(Path gantryState, String backendName, SecretResolver secrets, Clock clock,
                              Supplier<List<ProvisionedHost>> provisionedHosts) {
        this.stateDirectory = gantryState.resolve("backends").resolve(backendName);
        this.secrets = secrets;
        this.clock = clock;
        this.provisionedHosts = provisionedHosts;
        try {
            Files.createDirectories(stateDirectory);
        } catch (IOException e) {
            throw new GantryException(ErrorCode.CONFIG_INVALID, "cannot create the state directory " + stateDirectory
                    + " (" + e.getMessage() + "); set state.dir in gantry.yaml or GANTRY_STATE_DIR to a writable place",
                    e);
        }
    }

    @Override
    public Path stateDirectory() {
        return stateDirectory;
    }

    @Override
    public SecretResolver secrets() {
        return secrets;
    }

    @Override
    public Clock clock() {
        return clock;
    }

    @Override
    public List<ProvisionedHost> provisionedHosts() {
        return List.copyOf(provisionedHosts.get());
    }
}
