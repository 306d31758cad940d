package dev.gantry.api.backend;

import java.util.List;
import java.util.Optional;

/**
 * The one extension point: a named factory for a {@link Backend}, found with {@link java.util.ServiceLoader}. Register
 * an implementation in {@code META-INF/services/dev.gantry.api.backend.BackendProvider}; it must be public with a
 * public no-argument constructor, and cheap to construct (listing backends instantiates every provider).
 *
 * <p>New methods are added with defaults so that existing plugins keep working.
 */
public interface BackendProvider {
    /** {@return a stable lower-case name, used in configuration: {@code manual}, {@code aks}, ...} */
    String name();

    /** {@return one line describing the backend, for {@code gantry backends}} */
    String description();

    /**
     * What the backend can do in some configuration, known without creating it. A created backend's
     * {@link Backend#capabilities()} narrows this to what its configuration allows.
     *
     * @return the most this backend can do
     */
    Capabilities capabilities();

    /**
     * The configuration keys this backend accepts, and which of them hold secrets (core masks those). Keys of list
     * elements use {@code [*]}, e.g. {@code hosts[*].address}.
     *
     * @return every key accepted, in the order to document them
     */
    List<ConfigKey> configKeys();

    /**
     * Why this backend cannot be created in this installation (not implemented yet, a missing system requirement),
     * or empty when it can. Listing shows it; {@link #create} then fails with BACKEND_UNAVAILABLE.
     *
     * @return the reason, one sentence, or empty
     */
    default Optional<String> unavailableReason() {
        return Optional.empty();
    }

    /**
     * Creates a backend from its settings. Binds {@code config} to the backend's own typed settings and fails with
     * {@link dev.gantry.api.ErrorCode#CONFIG_INVALID} naming the exact key that is wrong, or with
     * {@link dev.gantry.api.ErrorCode#BACKEND_UNAVAILABLE} when it cannot be used here.
     *
     * @param config the backend's settings as a string map, from {@code backends.NAME} of the configuration
     * @param context the state directory, secret resolver, clock and logger core provides
     * @return the backend, ready to submit; the caller closes it
     */
    Backend create(BackendConfig config, BackendContext context);

    /**
     * How this backend checks a VM Gantry provisioned before running jobs there (SPI v2); empty for backends that do
     * not run jobs on provisioned VMs.
     *
     * @return the checks, or empty
     */
    default Optional<ProvisionedHostDoctor> provisionedHostDoctor() {
        return Optional.empty();
    }
}
