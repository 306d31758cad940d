package dev.gantry.backend.batch.internal;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** How Gantry signs in to a Batch account. */
public enum BatchAuth {
    /** The account's shared key (Batch-managed accounts only: user-subscription accounts take no shared key). */
    SHARED_KEY("sharedKey"),
    /** A Microsoft Entra ID token for {@code https://batch.core.windows.net//.default}, through gantry-azure. */
    ENTRA("entra");

    private final String configName;

    BatchAuth(String configName) {
        this.configName = configName;
    }

    /** The name written in gantry.yaml. */
    public String configName() {
        return configName;
    }

    public static List<String> configNames() {
        return Arrays.stream(values()).map(BatchAuth::configName).toList();
    }

    public static Optional<BatchAuth> ofConfigName(String name) {
        return Arrays.stream(values()).filter(auth -> auth.configName.equals(name)).findFirst();
    }
}
