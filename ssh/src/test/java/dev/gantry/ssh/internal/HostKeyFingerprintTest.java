package dev.gantry.ssh.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostKeyFingerprintTest {

    @Test
    void matchesWhatSshKeygenPrints(@TempDir Path dir) throws Exception {
        for (String type : new String[] {"ed25519", "ecdsa", "rsa"}) {
            Path key = dir.resolve("key_" + type);
            run("ssh-keygen", "-q", "-t", type, "-N", "", "-f", key.toString());
            String pub = Files.readString(dir.resolve("key_" + type + ".pub"));
            byte[] blob = Base64.getDecoder().decode(pub.split(" ")[1]);
            String expected = run("ssh-keygen", "-l", "-E", "sha256", "-f", key + ".pub").split(" ")[1];
            assertEquals(expected, HostKeyFingerprint.sha256(blob), type);
            assertEquals(pub.split(" ")[0], HostKeyFingerprint.keyType(blob), type);
        }
        assertEquals("unknown", HostKeyFingerprint.keyType(new byte[] {0, 0, 0, 9, 'x'}));
    }

    private static String run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes());
        process.waitFor(30, TimeUnit.SECONDS);
        assertEquals(0, process.exitValue(), String.join(" ", command) + ": " + out);
        return out;
    }
}
