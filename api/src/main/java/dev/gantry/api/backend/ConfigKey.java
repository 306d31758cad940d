package dev.gantry.api.backend;

import java.util.Objects;
import java.util.Optional;

/**
 * A configuration key a backend accepts.
 *
 * @param name the key, dotted; list elements as {@code [*]}
 * @param description what it sets
 * @param required whether it must be given
 * @param secret whether its value is a secret (core masks it and expects a secret reference)
 * @param defaultValue the value used when the key is absent
 */
public record ConfigKey(String name, String description, boolean required, boolean secret,
                        Optional<String> defaultValue) {
    public ConfigKey {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(defaultValue, "defaultValue");
    }

    public static ConfigKey optional(String name, String description, String defaultValue) {
        return new ConfigKey(name, description, false, false, Optional.ofNullable(defaultValue));
    }

    public static ConfigKey required(String name, String description) {
        return new ConfigKey(name, description, true, false, Optional.empty());
    }

    public static ConfigKey secret(String name, String description) {
        return new ConfigKey(name, description, false, true, Optional.empty());
    }

    /** Whether a concrete key ({@code hosts[2].address}) matches this declaration ({@code hosts[*].address}). */
    public boolean matches(String concreteKey) {
        return name.equals(concreteKey.replaceAll("\\[\\d+]", "[*]"));
    }
}
