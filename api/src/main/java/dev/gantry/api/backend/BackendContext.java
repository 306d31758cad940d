package dev.gantry.api.backend;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * What core hands a backend besides its settings. An interface so that it can grow with default methods.
 */
public interface BackendContext {
    /**
     * {@return a directory this backend owns for its own state (job records, caches)} It exists and survives
     * restarts.
     */
    Path stateDirectory();

    /** {@return the resolver of secret references, to call at submit time} */
    SecretResolver secrets();

    /** {@return the clock to use for timestamps, so tests can control time} By default the system's, in UTC. */
    default Clock clock() {
        return Clock.systemUTC();
    }

    /**
     * The VMs Gantry provisioned and recorded ({@code gantry vm up}), for backends whose configuration may refer to
     * them by name (the manual backend's {@code provisioned} key). Read when the backend is created; empty for a
     * context that has no VM inventory.
     *
     * @return the provisioned VMs, as recorded when the backend was created
     */
    default List<ProvisionedHost> provisionedHosts() {
        return List.of();
    }

    /** {@return the logger the backend writes to} By default {@code dev.gantry.backend}. */
    default System.Logger logger() {
        return System.getLogger("dev.gantry.backend");
    }
}
