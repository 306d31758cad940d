package dev.gantry.azure.keyvault;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.SecretRef;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A Key Vault secret URI taken apart: the vault ({@code https://VAULT.vault.azure.net}), the secret's name and, if
 * pinned, its version. {@link SecretRef#parse} is the one definition of an acceptable reference; this class checks
 * the parts first only to say which part is wrong, because a {@link SecretRef} can also be built directly, with any
 * location, by a program or a plugin.
 */
record KeyVaultReference(String vault, String name, Optional<String> version) {
    private static final String SHAPE = "https://VAULT.vault.azure.net/secrets/NAME[/VERSION]";
    private static final Pattern NAME = Pattern.compile("[a-zA-Z0-9-]{1,127}");
    private static final Pattern VERSION = Pattern.compile("[a-zA-Z0-9]{32}");

    static KeyVaultReference of(SecretRef ref) {
        if (ref.kind() != SecretRef.Kind.KEY_VAULT) {
            throw new IllegalArgumentException("not a Key Vault reference: " + ref.kind());
        }
        URI uri;
        try {
            uri = new URI(ref.location());
        } catch (URISyntaxException e) {
            throw malformed(ref, "it is not a URI (" + e.getReason() + " at index " + e.getIndex() + ")");
        }
        if (!"https".equals(uri.getScheme())) {
            throw malformed(ref, "the scheme must be https (Key Vault takes tokens over TLS only), got '"
                    + uri.getScheme() + "'");
        }
        if (uri.getHost() == null || uri.getPort() != -1 || uri.getRawUserInfo() != null) {
            throw malformed(ref, "the vault must be a plain host name like VAULT.vault.azure.net, got '"
                    + uri.getRawAuthority() + "'");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw malformed(ref, "a Key Vault reference takes no query or fragment (the version is a path segment)");
        }
        String path = uri.getRawPath().endsWith("/") ? uri.getRawPath().substring(0, uri.getRawPath().length() - 1)
                : uri.getRawPath();
        String[] parts = path.split("/", -1);
        // parts[0] is the empty text before the path's leading '/'.
        if (parts.length < 3 || parts.length > 4 || !parts[0].isEmpty() || !parts[1].equals("secrets")) {
            throw malformed(ref, "the path must be /secrets/NAME or /secrets/NAME/VERSION, got '" + uri.getRawPath()
                    + "'" + (parts.length > 1 && (parts[1].equals("keys") || parts[1].equals("certificates"))
                    ? " (that names a Key Vault " + parts[1].substring(0, parts[1].length() - 1) + ", not a secret)"
                    : ""));
        }
        if (!NAME.matcher(parts[2]).matches()) {
            throw malformed(ref, "the secret name '" + parts[2] + "' must be 1-127 letters, digits and '-'");
        }
        Optional<String> version = parts.length == 4 ? Optional.of(parts[3]) : Optional.empty();
        if (version.isPresent() && !VERSION.matcher(version.get()).matches()) {
            throw malformed(ref, "the secret version '" + version.get() + "' must be the 32-character id Key Vault "
                    + "shows (az keyvault secret list-versions), or left out to take the latest version");
        }
        if (!acceptedBySpecs(ref.location())) {
            throw malformed(ref, "the vault host '" + uri.getHost() + "' must be VAULT.vault.azure.net (or a sovereign"
                    + " cloud's vault domain: vault.azure.cn, vault.usgovcloudapi.net, vault.microsoftazure.de) with"
                    + " a vault name of 3-24 letters, digits and '-'");
        }
        // Host names are case-insensitive: one vault, however it is spelled, is one client.
        return new KeyVaultReference("https://" + uri.getHost().toLowerCase(Locale.ROOT), parts[2], version);
    }

    /** The vault's name, the first label of its host, as the az CLI takes it. */
    String vaultName() {
        String host = vault.substring("https://".length());
        return host.substring(0, host.indexOf('.'));
    }

    private static boolean acceptedBySpecs(String location) {
        try {
            return SecretRef.parse(location).kind() == SecretRef.Kind.KEY_VAULT;
        } catch (GantryException e) {
            return false;
        }
    }

    private static GantryException malformed(SecretRef ref, String what) {
        return new GantryException(ErrorCode.SECRET_UNRESOLVED, "secret " + ref + ": not a Key Vault secret "
                + "reference: " + what + "; write it as " + SHAPE);
    }
}
