package dev.gantry.backend.aks.testcluster;

/**
 * containerd's wording for a container runc could not start, as the kubelet shows it in a {@code StartError}'s
 * message on AKS (containerd with runc): what every runtime of the test cluster reports, whatever ran it.
 */
final class RuncMessages {
    private static final String CREATE_FAILED = "failed to create containerd task: failed to create shim task: OCI"
            + " runtime create failed: runc create failed: unable to start container process: error during container"
            + " init: ";

    private RuncMessages() {
    }

    /** runc could not exec the container's program: {@code reason} as runc words it (permission denied, ...). */
    static String execFailed(String program, String reason) {
        return createFailed("exec: \"" + program + "\": " + reason);
    }

    /** runc could not create the container for {@code detail}. */
    static String createFailed(String detail) {
        return CREATE_FAILED + detail + ": unknown";
    }
}
