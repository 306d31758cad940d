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
    /** A stable lower-case name, used in configuration: {@code manual}, {@code aks}, ... */
    String name();

    /** One line for {@code gantry backends}. */
    String description();

    /**
     * What the backend can do in some configuration, known without creating it. A created backend's
     * {@link Backend#capabilities()} narrows this to what its configuration allows.
     */
    Capabilities capabilities();

    /**
     * The configuration keys this backend accepts, and which of them hold secrets (core masks those). Keys of list
     * elements use {@code [*]}, e.g. {@code hosts[*].address}.
     */
    List<ConfigKey> configKeys();

    /**
     * Why this backend cannot be created in this installation (not implemented yet, a missing system requirement),
     * or empty when it can. Listing shows it; {@link #create} then fails with BACKEND_UNAVAILABLE.
     */
    default Optional<String> unavailableReason() {
        return Optional.empty();
    }

    /**
     * Creates a backend from its settings. Binds {@code config} to the backend's own typed settings and fails with
     * {@link dev.gantry.api.ErrorCode#CONFIG_INVALID} naming the exact key that is wrong, or with
     * {@link dev.gantry.api.ErrorCode#BACKEND_UNAVAILABLE} when it cannot be used here.
     */
    Backend create(BackendConfig config, BackendContext context);

    /**
     * How this backend checks a VM Gantry provisioned before running jobs there (SPI v2); empty for backends that do
     * not run jobs on provisioned VMs.
     */
    default Optional<ProvisionedHostDoctor> provisionedHostDoctor() {
        return Optional.empty();
    }
}
