package dev.gantry.api;

/**
 * Stable error codes. Codes are part of the public contract: scripts match on them, so a code is never renamed or
 * reused. {@link #isUserError()} tells whether the fix lies with the user's input (the CLI exits 2) or elsewhere
 * (exit 1).
 */
public enum ErrorCode {
    /** A workload spec is malformed or violates a constraint. */
    SPEC_INVALID(true),
    /** The Gantry configuration or a backend's settings are malformed. */
    CONFIG_INVALID(true),
    /** Command-line usage error. */
    USAGE(true),
    /** No VM size in the catalog satisfies the workload's constraints. */
    NO_FEASIBLE_VM(false),
    /** The configured backend name is not installed. */
    UNKNOWN_BACKEND(true),
    /** Two installed providers claim the same backend name. */
    DUPLICATE_BACKEND(false),
    /**
     * The backend's host, login node or service cannot be reached (the message names the address, {@code host:port},
     * and the setting that holds it), or the backend cannot be used here at all (not implemented yet); retry later or
     * fix the address. Never a verdict on the plan: that is {@link #PLAN_REJECTED}.
     */
    BACKEND_UNAVAILABLE(false),
    /** The backend refused a plan it cannot place. */
    PLAN_REJECTED(false),
    /** Credentials were missing or refused. */
    AUTH_FAILED(false),
    /** The subscription's quota does not allow the request. */
    QUOTA_EXCEEDED(false),
    /** A remote service answered with an error. */
    REMOTE_ERROR(false),
    /** A host's key is unknown or changed. */
    HOST_KEY_REJECTED(false),
    /** A secret reference could not be resolved. */
    SECRET_UNRESOLVED(false),
    /** No job with the given id is known. */
    JOB_NOT_FOUND(true),
    /** The VM catalog could not be read. */
    CATALOG_INVALID(false),
    /** A bug in Gantry. */
    INTERNAL(false);

    private final boolean userError;

    ErrorCode(boolean userError) {
        this.userError = userError;
    }

    /**
     * Whether the user's input is at fault.
     *
     * @return true when the user's input is at fault and retrying the same input cannot succeed (the CLI exits 2);
     *     false when the cause lies elsewhere and a retry may succeed (exit 1)
     */
    public boolean isUserError() {
        return userError;
    }
}
