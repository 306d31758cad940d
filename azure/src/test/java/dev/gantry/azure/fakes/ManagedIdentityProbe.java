package dev.gantry.azure.fakes;

import com.azure.core.credential.TokenCredential;
import com.azure.core.credential.TokenRequestContext;
import com.azure.identity.DefaultAzureCredentialBuilder;
import com.azure.identity.ManagedIdentityCredentialBuilder;

/**
 * Asks azure-identity for tokens in a JVM of its own, for {@link ManagedIdentityFakeTest}: MSAL4J, under
 * azure-identity's managed identity credential, reads {@code IDENTITY_ENDPOINT} and {@code IDENTITY_HEADER} from the
 * process environment only (azure-identity's {@code Configuration} does not reach it), so the test starts this with
 * them set, as the {@code gantry} CLI is started. Prints {@code token SCOPE VALUE} per scope, or {@code refused
 * MESSAGE} and exits 1.
 *
 * <pre>ManagedIdentityProbe default|managed SCOPE...</pre>
 */
public final class ManagedIdentityProbe {
    private ManagedIdentityProbe() {
    }

    public static void main(String[] args) {
        TokenCredential credential = args[0].equals("default") ? new DefaultAzureCredentialBuilder().build()
                : new ManagedIdentityCredentialBuilder().build();
        try {
            for (int i = 1; i < args.length; i++) {
                String token = credential.getTokenSync(new TokenRequestContext().addScopes(args[i])).getToken();
                System.out.println("token " + args[i] + " " + token);
            }
        } catch (RuntimeException e) {
            StringBuilder messages = new StringBuilder();
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                messages.append(' ').append(cause.getMessage());
            }
            System.out.println("refused" + messages.toString().replace('\n', ' '));
            System.exit(1);
        }
    }
}
