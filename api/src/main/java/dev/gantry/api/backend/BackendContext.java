package dev.gantry.api.backend;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * What core hands a backend besides its settings. An interface so that it can grow with default methods.
 */
public interface BackendContext {
    /** A directory this backend owns for its own state (job records, caches); it exists and survives restarts. */
    Path stateDirectory();

    /** Resolves secret references at submit time. */
    SecretResolver secrets();

    /** The clock to use for timestamps, so tests can control time. */
    default Clock clock() {
        return Clock.systemUTC();
    }

    /**
     * The VMs Gantry provisioned and recorded ({@code gantry vm up}), for backends whose configuration may refer to
     * them by name (the manual backend's {@code provisioned} key). Read when the backend is created; empty for a
     * context that has no VM inventory.
     */
    default List<ProvisionedHost> provisionedHosts() {
        return List.of();
    }

    /** Where the backend logs. */
    default System.Logger logger() {
        return System.getLogger("dev.gantry.backend");
    }
}
