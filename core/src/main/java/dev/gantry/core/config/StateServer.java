package dev.gantry.core.config;

import dev.gantry.api.SecretRef;
import java.util.Objects;
import java.util.Optional;

/**
 * A state database on a server that a team shares, instead of the SQLite file in the state directory: the same
 * schema and migrations, in PostgreSQL. The password is a reference, resolved when the database is opened.
 *
 * @param url the JDBC URL, {@code jdbc:postgresql://HOST[:PORT]/DATABASE[?OPTIONS]}; never holds a password
 * @param user the role to log in as; empty: the URL's {@code user} option, else the driver's default
 * @param password where the role's password lives ({@code env:NAME}, {@code file:PATH}, a Key Vault secret URI);
 *     empty: no password (peer, certificate or trust authentication)
 */
public record StateServer(String url, Optional<String> user, Optional<SecretRef> password) {
    public StateServer {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
    }

    @Override
    public String toString() {
        return url + user.map(u -> " as " + u).orElse("") + password.map(p -> " (password " + p + ")").orElse("");
    }
}
