package dev.gantry.api.backend;

import java.util.Arrays;

/**
 * A resolved secret value. {@link #toString()} never shows it; call {@link #reveal()} only where the value must
 * leave the process (an env file with 0600 permissions, a request body), never into logs or generated scripts.
 */
public final class Secret {
    private final char[] value;

    /**
     * Holds a resolved value.
     *
     * @param value the secret, copied
     * @throws NullPointerException when {@code value} is null
     */
    public Secret(String value) {
        this.value = value.toCharArray();
    }

    /** {@return the secret itself, to hand to where it must go; never log or print it} */
    public String reveal() {
        return new String(value);
    }

    @Override
    public String toString() {
        return "******";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Secret s && Arrays.equals(value, s.value);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(value);
    }
}
