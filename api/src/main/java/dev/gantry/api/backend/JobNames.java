package dev.gantry.api.backend;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;

/**
 * Stable short names from idempotency keys, for orchestrators whose job names are limited. The same key always gives
 * the same name, so a retried submit finds its job by name; two keys give two names. A key that already fits is used
 * as it is, so names stay readable; one that does not is cut, cleaned and followed by a hash of the whole key, so that
 * keys differing only in what was cut or cleaned (case included) still differ.
 */
public final class JobNames {
    /** Hex digits of the key's SHA-256 appended when a key had to be changed: 48 bits. */
    static final int HASH_DIGITS = 12;

    private JobNames() {
    }

    /**
     * A Kubernetes object name (an RFC 1123 label): at most 63 characters of {@code a-z}, {@code 0-9} and '-',
     * starting and ending with a letter or digit.
     */
    public static String dnsLabel(String idempotencyKey) {
        return derive(idempotencyKey, 63, true);
    }

    /**
     * An id for an orchestrator that compares ids without case (Azure Batch jobs and tasks): at most
     * {@code maxLength} characters of {@code a-z}, {@code 0-9}, '-' and '_', always lower case so that two keys
     * differing only in case never meet as one id.
     */
    public static String caseInsensitiveId(String idempotencyKey, int maxLength) {
        return derive(idempotencyKey, maxLength, false);
    }

    private static String derive(String key, int maxLength, boolean dnsLabel) {
        Objects.requireNonNull(key, "idempotencyKey");
        if (maxLength < HASH_DIGITS + 2) {
            throw new IllegalArgumentException("maxLength must be at least " + (HASH_DIGITS + 2) + ", got "
                    + maxLength);
        }
        if (key.length() <= maxLength && fits(key, dnsLabel)) {
            return key;
        }
        StringBuilder clean = new StringBuilder();
        for (char c : key.toLowerCase(Locale.ROOT).toCharArray()) {
            clean.append(allowed(c, dnsLabel) ? c : '-');
        }
        int room = maxLength - HASH_DIGITS - 1;
        String head = clean.length() > room ? clean.substring(0, room) : clean.toString();
        head = stripLeadingSeparators(head);
        String hash = hash(key);
        return head.isEmpty() ? hash : head + "-" + hash;
    }

    private static boolean fits(String key, boolean dnsLabel) {
        if (key.isEmpty()) {
            return false;
        }
        for (char c : key.toCharArray()) {
            if (!allowed(c, dnsLabel)) {
                return false;
            }
        }
        return !dnsLabel || (alphanumeric(key.charAt(0)) && alphanumeric(key.charAt(key.length() - 1)));
    }

    private static boolean allowed(char c, boolean dnsLabel) {
        return alphanumeric(c) || c == '-' || (!dnsLabel && c == '_');
    }

    private static boolean alphanumeric(char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    }

    private static String stripLeadingSeparators(String text) {
        int start = 0;
        while (start < text.length() && !alphanumeric(text.charAt(start))) {
            start++;
        }
        return text.substring(start);
    }

    private static String hash(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, HASH_DIGITS);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
