package dev.gantry.ssh.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/** A host key's identity as OpenSSH prints it: {@code SHA256:} and the unpadded base64 of the key blob's SHA-256. */
public final class HostKeyFingerprint {

    private HostKeyFingerprint() {
    }

    public static String sha256(byte[] keyBlob) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(keyBlob);
            return "SHA256:" + Base64.getEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** The algorithm name a key blob starts with, e.g. ssh-ed25519; "unknown" for a malformed blob. */
    public static String keyType(byte[] keyBlob) {
        if (keyBlob.length < 4) {
            return "unknown";
        }
        int length = ByteBuffer.wrap(keyBlob, 0, 4).getInt();
        if (length <= 0 || length > keyBlob.length - 4) {
            return "unknown";
        }
        return new String(keyBlob, 4, length, StandardCharsets.US_ASCII);
    }
}
