package dev.gantry.azure.aks;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The name of the node pool Gantry makes for one VM size and priority: {@code g} and the first 11 hex digits of the
 * SHA-256 of {@code vmsize/priority} (the size in lower case, since Azure compares sizes without case). AKS allows a
 * Linux pool 12 lower-case letters and digits, starting with a letter, so the name cannot carry the size itself; a
 * hash gives every process, and every Gantry version, the same pool for the same size and priority.
 */
public final class PoolName {
    /** What AKS accepts as an agent pool's name ({@code AgentPoolNameParameter} of the AKS REST API). */
    public static final Pattern AKS_NAME = Pattern.compile("[a-z][a-z0-9]{0,11}");
    private static final int HASH_DIGITS = 11;

    private PoolName() {
    }

    public static String of(String vmSize, Priority priority) {
        Objects.requireNonNull(vmSize, "vmSize");
        Objects.requireNonNull(priority, "priority");
        String identity = vmSize.strip().toLowerCase(Locale.ROOT) + "/" + priority.armValue().toLowerCase(Locale.ROOT);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
            return "g" + HexFormat.of().formatHex(digest).substring(0, HASH_DIGITS);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
