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
    private static final int MAX_DNS_LABEL = 63;
    /** Put before a changed name that would start with a digit, so that it starts with a letter. */
    private static final char LETTER_PREFIX = 'j';

    /** The kinds of name derived, by what they allow. */
    private enum Form {
        /** An RFC 1123 label: a-z, 0-9 and '-', a letter or digit at each end. */
        LABEL,
        /** An RFC 1123 label that starts with a letter. */
        LETTER_FIRST_LABEL,
        /** a-z, 0-9, '-' and '_'. */
        CASE_INSENSITIVE_ID;

        boolean label() {
            return this != CASE_INSENSITIVE_ID;
        }
    }

    private JobNames() {
    }

    /**
     * A Kubernetes object name (an RFC 1123 label): at most 63 characters of {@code a-z}, {@code 0-9} and '-',
     * starting and ending with a letter or digit.
     *
     * @param idempotencyKey the submit's key; not null
     * @return the key itself when it is such a label, else a cleaned and cut form followed by a hash of the key
     */
    public static String dnsLabel(String idempotencyKey) {
        return derive(idempotencyKey, MAX_DNS_LABEL, Form.LABEL);
    }

    /**
     * A Kubernetes object name that also serves as a Service name and as the stem of its pods' host names: an RFC 1123
     * label of at most {@code maxLength} characters (at most 63) that starts with a letter, which a Service name must
     * (the API server refuses {@code 1abc}). A key that already is one is kept as it is; any other is cleaned, cut,
     * prefixed with {@code j} when it would start with a digit, and followed by a hash of the whole key. Leave room
     * for what is appended to the name: the AKS backend asks for 52, so that {@code NAME-INDEX} stays a valid pod
     * host name.
     *
     * @param idempotencyKey the submit's key
     * @param maxLength the longest name wanted, {@value #HASH_DIGITS} + 2 to 63
     * @return the name, at most {@code maxLength} characters
     * @throws IllegalArgumentException when {@code maxLength} is out of range
     */
    public static String dnsLabel(String idempotencyKey, int maxLength) {
        if (maxLength > MAX_DNS_LABEL) {
            throw new IllegalArgumentException("maxLength must be at most " + MAX_DNS_LABEL
                    + " (an RFC 1123 label), got " + maxLength);
        }
        return derive(idempotencyKey, maxLength, Form.LETTER_FIRST_LABEL);
    }

    /**
     * An id for an orchestrator that compares ids without case (Azure Batch jobs and tasks): at most
     * {@code maxLength} characters of {@code a-z}, {@code 0-9}, '-' and '_', always lower case so that two keys
     * differing only in case never meet as one id.
     *
     * @param idempotencyKey the submit's key; not null
     * @param maxLength the longest id wanted, at least {@value #HASH_DIGITS} + 2
     * @return the id
     * @throws IllegalArgumentException when {@code maxLength} is too small
     */
    public static String caseInsensitiveId(String idempotencyKey, int maxLength) {
        return derive(idempotencyKey, maxLength, Form.CASE_INSENSITIVE_ID);
    }

    private static String derive(String key, int maxLength, Form form) {
        Objects.requireNonNull(key, "idempotencyKey");
        if (maxLength < HASH_DIGITS + 2) {
            throw new IllegalArgumentException("maxLength must be at least " + (HASH_DIGITS + 2) + ", got "
                    + maxLength);
        }
        if (key.length() <= maxLength && fits(key, form)) {
            return key;
        }
        StringBuilder clean = new StringBuilder();
        for (char c : key.toLowerCase(Locale.ROOT).toCharArray()) {
            clean.append(allowed(c, form) ? c : '-');
        }
        int room = maxLength - HASH_DIGITS - 1;
        String head = stripLeadingSeparators(clean.length() > room ? clean.substring(0, room) : clean.toString());
        if (form == Form.LETTER_FIRST_LABEL && !head.isEmpty() && !letter(head.charAt(0))) {
            head = LETTER_PREFIX + head.substring(0, Math.min(head.length(), room - 1));
        }
        String hash = hash(key);
        if (head.isEmpty()) {
            return form == Form.LETTER_FIRST_LABEL ? LETTER_PREFIX + hash : hash;
        }
        return head + "-" + hash;
    }

    private static boolean fits(String key, Form form) {
        if (key.isEmpty()) {
            return false;
        }
        for (char c : key.toCharArray()) {
            if (!allowed(c, form)) {
                return false;
            }
        }
        boolean ends = alphanumeric(key.charAt(0)) && alphanumeric(key.charAt(key.length() - 1));
        return switch (form) {
            case LABEL -> ends;
            case LETTER_FIRST_LABEL -> ends && letter(key.charAt(0));
            case CASE_INSENSITIVE_ID -> true;
        };
    }

    private static boolean allowed(char c, Form form) {
        return alphanumeric(c) || c == '-' || (!form.label() && c == '_');
    }

    private static boolean letter(char c) {
        return c >= 'a' && c <= 'z';
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
