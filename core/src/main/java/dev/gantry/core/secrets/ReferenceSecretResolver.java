package dev.gantry.core.secrets;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.SecretRef;
import dev.gantry.api.UserHome;
import dev.gantry.api.backend.Secret;
import dev.gantry.api.backend.SecretResolver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Resolves {@code env:} and {@code file:} references from the submitting process, and Key Vault URIs through the
 * {@link SecretStore} (Azure Key Vault in production). Errors name the reference, never a value.
 */
public final class ReferenceSecretResolver implements SecretResolver {
    private final Map<String, String> environment;
    private final Path workingDirectory;
    private final SecretStore keyVault;

    public ReferenceSecretResolver(Map<String, String> environment, Path workingDirectory, SecretStore keyVault) {
        this.environment = Map.copyOf(environment);
        this.workingDirectory = Objects.requireNonNull(workingDirectory, "workingDirectory");
        this.keyVault = Objects.requireNonNull(keyVault, "keyVault");
    }

    @Override
    public Secret resolve(SecretRef ref) {
        return switch (ref.kind()) {
            case ENV -> fromEnvironment(ref);
            case FILE -> fromFile(ref);
            case KEY_VAULT -> keyVault.fetch(ref);
        };
    }

    private Secret fromEnvironment(SecretRef ref) {
        String value = environment.get(ref.location());
        if (value == null) {
            throw new GantryException(ErrorCode.SECRET_UNRESOLVED, "secret " + ref + ": the environment variable "
                    + ref.location() + " is not set in the shell that runs gantry; export it or use file:PATH");
        }
        return new Secret(value);
    }

    private Secret fromFile(SecretRef ref) {
        Path path = workingDirectory.resolve(expandHome(ref.location()));
        try {
            String text = Files.readString(path, StandardCharsets.UTF_8);
            // A trailing newline is almost always an editor's, not part of the secret.
            if (text.endsWith("\r\n")) {
                text = text.substring(0, text.length() - 2);
            } else if (text.endsWith("\n")) {
                text = text.substring(0, text.length() - 1);
            }
            return new Secret(text);
        } catch (IOException e) {
            throw new GantryException(ErrorCode.SECRET_UNRESOLVED, "secret " + ref + ": cannot read " + path + " ("
                    + e.getClass().getSimpleName() + ")");
        }
    }

    private String expandHome(String location) {
        if (location.equals("~") || location.startsWith("~/")) {
            return UserHome.expand(location, UserHome.of(environment)).toString();
        }
        return location;
    }
}
