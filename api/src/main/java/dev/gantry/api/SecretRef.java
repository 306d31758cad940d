package dev.gantry.api;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where a secret lives, never the secret itself: {@code env:NAME}, {@code file:PATH}, or an Azure Key Vault secret
 * URI ({@code https://VAULT.vault.azure.net/secrets/NAME[/VERSION]}). References are resolved only when a job is
 * submitted, and resolved values are never printed, logged or written into generated scripts.
 *
 * @param kind which store holds the secret
 * @param location the variable name ({@link Kind#ENV}), the path ({@link Kind#FILE}) or the whole secret URI
 *     ({@link Kind#KEY_VAULT})
 */
public record SecretRef(Kind kind, String location) {
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern KEY_VAULT = Pattern.compile(
            "https://[a-zA-Z0-9-]{3,24}\\.vault\\.(?:azure\\.net|azure\\.cn|usgovcloudapi\\.net|microsoftazure\\.de)"
                    + "/secrets/[a-zA-Z0-9-]{1,127}(?:/[a-zA-Z0-9]{32})?/?");

    /** The kinds of secret store Gantry resolves. */
    public enum Kind {
        /** An environment variable of the submitting process. */
        ENV,
        /** A file on the submitting machine. */
        FILE,
        /** A secret in Azure Key Vault. */
        KEY_VAULT
    }

    /**
     * Checks that both components are given; {@link #parse(String)} checks their form.
     *
     * @param kind the store
     * @param location where in it
     * @throws NullPointerException when a component is null
     */
    public SecretRef {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(location, "location");
    }

    /**
     * Parses {@code env:NAME}, {@code file:PATH} or a Key Vault secret URI.
     *
     * @param text the reference as written in a spec
     * @return the reference
     * @throws GantryException with {@link ErrorCode#SPEC_INVALID} when the text is blank, an {@code env:} name is
     *     not a variable name, a {@code file:} path is empty, or a URI is not a Key Vault secret URI; the message
     *     shows the forms accepted
     */
    public static SecretRef parse(String text) {
        Checks checks = new Checks();
        SecretRef ref = null;
        if (text == null || text.isBlank()) {
            checks.add(Problem.of("", "must be env:NAME, file:PATH or https://VAULT.vault.azure.net/secrets/NAME, got ''"));
        } else if (text.startsWith("env:")) {
            String name = text.substring(4);
            checks.require(ENV_NAME.matcher(name).matches(), "",
                    "env: needs a variable name of letters, digits and '_', got '" + text + "'");
            ref = new SecretRef(Kind.ENV, name);
        } else if (text.startsWith("file:")) {
            String path = text.substring(5);
            checks.require(!path.isEmpty(), "", "file: needs a path, got '" + text + "'");
            ref = new SecretRef(Kind.FILE, path);
        } else if (text.startsWith("https://")) {
            checks.require(KEY_VAULT.matcher(text).matches(), "", "a Key Vault reference must look like "
                    + "https://VAULT.vault.azure.net/secrets/NAME[/VERSION], got '" + text + "'");
            ref = new SecretRef(Kind.KEY_VAULT, text);
        } else {
            checks.add(Problem.of("", "must be env:NAME, file:PATH or https://VAULT.vault.azure.net/secrets/NAME, got '"
                    + text + "'"));
        }
        checks.throwIfAny();
        return ref;
    }

    /** The reference as written in a spec (safe to print: it is not the secret). */
    @Override
    public String toString() {
        return switch (kind) {
            case ENV -> "env:" + location;
            case FILE -> "file:" + location;
            case KEY_VAULT -> location;
        };
    }
}
