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
    /**
     * Checks that the texts and the default are given.
     *
     * @param name the key
     * @param description what it sets
     * @param required whether it must be given
     * @param secret whether its value is a secret
     * @param defaultValue the default, or empty
     * @throws NullPointerException when {@code name}, {@code description} or {@code defaultValue} is null
     */
    public ConfigKey {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(defaultValue, "defaultValue");
    }

    /**
     * A key that may be left out.
     *
     * @param name the key, dotted
     * @param description what it sets
     * @param defaultValue the value used when it is absent, or null for none
     * @return the declaration
     */
    public static ConfigKey optional(String name, String description, String defaultValue) {
        return new ConfigKey(name, description, false, false, Optional.ofNullable(defaultValue));
    }

    /**
     * A key that must be given.
     *
     * @param name the key, dotted
     * @param description what it sets
     * @return the declaration, without a default
     */
    public static ConfigKey required(String name, String description) {
        return new ConfigKey(name, description, true, false, Optional.empty());
    }

    /**
     * An optional key whose value is a secret: core masks it and expects a secret reference.
     *
     * @param name the key, dotted
     * @param description what it sets
     * @return the declaration, without a default
     */
    public static ConfigKey secret(String name, String description) {
        return new ConfigKey(name, description, false, true, Optional.empty());
    }

    /**
     * Whether a concrete key matches this declaration.
     *
     * @param concreteKey a key as given, e.g. {@code hosts[2].address}
     * @return true when it is this key with its indexes as {@code [*]}, e.g. {@code hosts[*].address}
     */
    public boolean matches(String concreteKey) {
        return name.equals(concreteKey.replaceAll("\\[\\d+]", "[*]"));
    }
}
