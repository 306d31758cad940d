package dev.gantry.ssh;

import dev.gantry.ssh.internal.HostKeyFingerprint;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One SSH public key in the OpenSSH one-line form ({@code TYPE BASE64 [COMMENT]}, as in
 * {@code /etc/ssh/ssh_host_ed25519_key.pub}), and its fingerprint exactly as {@code ssh-keygen -l -E sha256} prints
 * it, which is what {@link HostKeyPolicy#pinned} takes. Used to pin a host's keys read from the host through another
 * authenticated channel (for an Azure VM: Run Command) instead of trusting the first key a connection offers.
 */
public final class HostPublicKey {
    private final String type;
    private final String fingerprint;

    private HostPublicKey(String type, String fingerprint) {
        this.type = type;
        this.fingerprint = fingerprint;
    }

    /**
     * Parses one line; empty when it is not a public key: too few fields, base64 that does not decode, or a key blob
     * whose embedded algorithm differs from the declared one (a truncated or mangled line).
     */
    public static Optional<HostPublicKey> parse(String line) {
        Objects.requireNonNull(line, "line");
        String[] fields = line.strip().split("\\s+");
        if (fields.length < 2 || fields[0].isEmpty()) {
            return Optional.empty();
        }
        byte[] blob;
        try {
            blob = Base64.getDecoder().decode(fields[1]);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (!HostKeyFingerprint.keyType(blob).equals(fields[0]) || !wellFormed(fields[0], blob)) {
            return Optional.empty();
        }
        return Optional.of(new HostPublicKey(fields[0], HostKeyFingerprint.sha256(blob)));
    }

    /**
     * Whether the blob is the SSH wire format of such a key: length-prefixed fields that end exactly at its end, as
     * many as the algorithm has (a line cut short still decodes as base64, so this is what catches it).
     */
    private static boolean wellFormed(String type, byte[] blob) {
        List<Integer> lengths = new ArrayList<>();
        ByteBuffer in = ByteBuffer.wrap(blob);
        while (in.remaining() > 0) {
            if (in.remaining() < 4) {
                return false;
            }
            int length = in.getInt();
            if (length < 0 || length > in.remaining()) {
                return false;
            }
            in.position(in.position() + length);
            lengths.add(length);
        }
        return switch (type) {
            case "ssh-ed25519" -> lengths.size() == 2 && lengths.get(1) == 32;
            case "ssh-rsa", "ssh-dss" -> lengths.size() == (type.equals("ssh-rsa") ? 3 : 5);
            default -> type.startsWith("ecdsa-sha2-") ? lengths.size() == 3 : lengths.size() >= 2;
        };
    }

    /** The key's algorithm, e.g. {@code ssh-ed25519}. */
    public String type() {
        return type;
    }

    /** {@code SHA256:} and the unpadded base64 of the key blob's SHA-256. */
    public String fingerprint() {
        return fingerprint;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof HostPublicKey key && key.type.equals(type) && key.fingerprint.equals(fingerprint);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, fingerprint);
    }

    @Override
    public String toString() {
        return type + " " + fingerprint;
    }
}
