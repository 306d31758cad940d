package dev.gantry.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class HostPublicKeyTest {
    @Test
    void fingerprintIsWhatSshKeygenPrintsForTheTestHostsKey() throws Exception {
        TestHosts.Host h1 = TestHosts.host(1);
        String line = Files.readString(TestHosts.stateDir().resolve("h1").resolve("ssh_host_ed25519_key.pub"));

        HostPublicKey key = HostPublicKey.parse(line).orElseThrow();

        assertEquals("ssh-ed25519", key.type());
        assertEquals(h1.fingerprint(), key.fingerprint());
    }

    @Test
    void aKnownKeyGivesItsPublishedFingerprint() {
        // The OpenSSH test key regress/unittests/sshkey/testdata/ed25519_1.pub and its ssh-keygen -l fingerprint.
        HostPublicKey key = HostPublicKey.parse("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIC/bdHnFnYBgCjMyEwdjXnrRYpdLEYr"
                + "XikT4vSBKBAba root@host").orElseThrow();

        assertEquals(key, HostPublicKey.parse("  ssh-ed25519\tAAAAC3NzaC1lZDI1NTE5AAAAIC/bdHnFnYBgCjMyEwdjXnrRYpdLEYr"
                + "XikT4vSBKBAba").orElseThrow());
        assertTrue(key.fingerprint().matches("SHA256:[A-Za-z0-9+/]{43}"), key.fingerprint());
    }

    @Test
    void linesThatAreNotKeysAreRefused() {
        assertTrue(HostPublicKey.parse("").isEmpty());
        assertTrue(HostPublicKey.parse("ssh-ed25519").isEmpty());
        assertTrue(HostPublicKey.parse("ssh-ed25519 not*base64").isEmpty());
        // An RSA type word in front of an ed25519 blob: mangled, not a key.
        assertTrue(HostPublicKey.parse("ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIC/bdHnFnYBgCjMyEwdjXnrRYpdLEYrXikT4vSBKBAba")
                .isEmpty());
        assertTrue(HostPublicKey.parse("ssh-ed25519 AAAAC3NzaC1lZD").isEmpty());
        // Cut short: still base64, still starts with the type, but the key field is not all there.
        assertTrue(HostPublicKey.parse("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIC/bdHnFnY").isEmpty());
    }
}
