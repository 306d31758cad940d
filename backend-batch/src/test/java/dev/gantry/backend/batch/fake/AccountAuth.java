package dev.gantry.backend.batch.fake;

import java.util.Map;

/**
 * Who may call the fake: a shared-key signature over the request ({@link SharedKey}) and, when the account takes
 * Microsoft Entra ID, a bearer token for the Batch scope. Anything else is Batch's {@code 403 AuthenticationFailed}.
 */
final class AccountAuth {
    /** The scope of Batch's data plane, with its double slash. */
    static final String BATCH_SCOPE = "https://batch.core.windows.net//.default";

    private final SharedKey sharedKey;
    private final boolean sharedKeyAllowed;
    private final boolean entraAllowed;

    AccountAuth(SharedKey sharedKey, boolean sharedKeyAllowed, boolean entraAllowed) {
        this.sharedKey = sharedKey;
        this.sharedKeyAllowed = sharedKeyAllowed;
        this.entraAllowed = entraAllowed;
    }

    void check(FakeRequest request) {
        String authorization = request.header("authorization");
        if (authorization == null) {
            throw failed("The request has no Authorization header.");
        }
        if (authorization.startsWith("Bearer ")) {
            if (!entraAllowed) {
                throw failed("This account takes shared-key authentication only.");
            }
            if (!tokenGrantsBatch(authorization.substring("Bearer ".length()))) {
                throw failed("The access token is not valid for the audience " + BATCH_SCOPE + ".");
            }
            return;
        }
        if (!sharedKeyAllowed) {
            throw failed("This account does not take shared-key authentication.");
        }
        if (request.header("ocp-date") == null && request.header("date") == null) {
            throw failed("The request has neither an ocp-date nor a Date header.");
        }
        if (!sharedKey.verifies(request, authorization)) {
            throw failed("The MAC signature found in the HTTP request is not the same as any computed signature.");
        }
    }

    /**
     * Whether a bearer token grants the Batch scope. The one place that knows the fake token issuer's format
     * ({@code fake-token:SCOPE}), so that the format can change in one line.
     */
    static boolean tokenGrantsBatch(String token) {
        return token.equals("fake-token:" + BATCH_SCOPE);
    }

    private static BatchError failed(String detail) {
        return new BatchError(403, "AuthenticationFailed", "Server failed to authenticate the request. Make sure "
                + "the value of Authorization header is formed correctly including the signature.",
                Map.of("AuthenticationErrorDetail", detail));
    }
}
