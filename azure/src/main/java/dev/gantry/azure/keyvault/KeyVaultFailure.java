package dev.gantry.azure.keyvault;

import com.azure.core.exception.ClientAuthenticationException;
import com.azure.core.exception.HttpResponseException;
import com.azure.core.http.HttpHeaderName;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.SecretRef;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns what the SDK threw into an error that names the reference and the likely fix. It never quotes the SDK's
 * message: for an error answer that is only Key Vault's error body, but for a broken success answer it could be the
 * body that carries the value. For the same reason only error answers and a credential's own failure are kept as
 * the cause.
 */
final class KeyVaultFailure {
    private static final Pattern AUTHORIZATION = Pattern.compile(
            "authorization(?:_uri)?=\"?https://[^/\"]+/([A-Za-z0-9.-]+)");

    private KeyVaultFailure() {
    }

    static GantryException explain(SecretRef ref, KeyVaultReference where, RuntimeException e) {
        if (e instanceof ClientAuthenticationException signIn && signIn.getResponse() == null) {
            // The credential failed before Key Vault was asked; its own message lists what it tried, and holds
            // no secret, so it stays as the cause.
            return new GantryException(ErrorCode.SECRET_UNRESOLVED, "secret " + ref + ": no Azure credential could "
                    + "get a token for Key Vault (" + e.getClass().getSimpleName() + "); sign in with az login, or "
                    + "run gantry where a managed identity is available", e);
        }
        if (!(e instanceof HttpResponseException answer) || answer.getResponse() == null
                || answer.getResponse().getStatusCode() < 400) {
            return new GantryException(ErrorCode.SECRET_UNRESOLVED, "secret " + ref + ": Key Vault did not return "
                    + "it (" + e.getClass().getSimpleName() + "); check that the vault exists and is reachable from "
                    + "here, and that gantry can get an Azure token (az login, or a managed identity)");
        }
        int status = answer.getResponse().getStatusCode();
        Optional<String> code = errorCode(answer.getValue(), "error");
        Optional<String> inner = code.flatMap(c -> errorCode(answer.getValue(), "error", "innererror"));
        String answered = status + code.map(c -> " " + c).orElse("") + inner.map(c -> ", " + c).orElse("");
        String said = "Key Vault answered " + answered;
        String vault = where.vaultName();
        String secret = "'" + where.name() + "'";
        String text = switch (status) {
            case 401 -> "Key Vault refused the token (" + answered + "); sign in to the vault's tenant (az login "
                    + "--tenant " + tenant(answer).orElse("TENANT") + ") or check the managed identity gantry runs as";
            case 403 -> inner.filter("SecretDisabled"::equals).isPresent()
                    ? "this version of secret " + secret + " is disabled (" + said + "); enable it with az keyvault "
                            + "secret set-attributes --enabled true, or reference an enabled version"
                    : "your identity may not read secrets in the vault " + vault + " (" + said + "); grant it the Key"
                            + " Vault Secrets User role on the vault, or a get-secret access policy if the vault uses "
                            + "access policies";
            case 404 -> where.version()
                    .map(v -> "the vault " + vault + " has no version '" + v + "' of secret " + secret + " (" + said
                            + "); list its versions with az keyvault secret list-versions --vault-name " + vault
                            + " --name " + where.name() + ", or leave the version out to take the latest")
                    .orElse("the vault " + vault + " has no secret " + secret + " (" + said + "); check the name "
                            + "with az keyvault secret list --vault-name " + vault);
            default -> said + "; try again later, and check the vault's health in the portal if it persists";
        };
        return new GantryException(ErrorCode.SECRET_UNRESOLVED, "secret " + ref + ": " + text, e);
    }

    /** The tenant the vault's challenge names: {@code Bearer authorization="https://login.../TENANT", ...}. */
    private static Optional<String> tenant(HttpResponseException answer) {
        Matcher challenge = AUTHORIZATION.matcher(String.valueOf(answer.getResponse().getHeaderValue(
                HttpHeaderName.WWW_AUTHENTICATE)));
        return challenge.find() ? Optional.of(challenge.group(1)) : Optional.empty();
    }

    /** Reads {@code code} from Key Vault's error body {@code {"error":{"code":...,"innererror":{"code":...}}}}. */
    private static Optional<String> errorCode(Object body, String... path) {
        Object node = body;
        for (String field : path) {
            node = node instanceof Map<?, ?> map ? map.get(field) : null;
        }
        return node instanceof Map<?, ?> map && map.get("code") instanceof String code && !code.isBlank()
                ? Optional.of(code) : Optional.empty();
    }
}
