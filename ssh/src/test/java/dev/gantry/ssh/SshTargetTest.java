package dev.gantry.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SshTargetTest {

    private static final String PIN = "SHA256:t1TmsEZS4vdjjS4sINzxFuOL7hEaKbSrbyEqQxX28p4";

    @Test
    void everyInvalidFieldIsReportedAtOnce() {
        GantryException e = assertThrows(GantryException.class, () -> new SshTarget(" ", 0, "", ClientIdentity.agent(),
                HostKeyPolicy.pinned(PIN), Duration.ZERO, Duration.ofSeconds(-1)));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals(List.of("host", "port", "user", "connectTimeout", "keepaliveInterval"),
                e.problems().stream().map(Problem::path).toList());
        assertTrue(e.getMessage().contains("port: 0 is not a TCP port; allowed 1..65535"), e.getMessage());
    }

    @Test
    void aHostThatLooksLikeAnOptionIsRefused() {
        GantryException e = assertThrows(GantryException.class, () -> SshTarget.of("-oProxyCommand=x", 22, "u",
                ClientIdentity.agent(), HostKeyPolicy.pinned(PIN)));
        assertEquals("host", e.problems().get(0).path());
    }

    @Test
    void pinnedFingerprintsMustLookLikeOpenSshPrintsThem() {
        GantryException e = assertThrows(GantryException.class,
                () -> HostKeyPolicy.pinned(PIN, "MD5:aa:bb", "SHA256:short"));
        assertEquals(List.of("hostKeyFingerprint[1]", "hostKeyFingerprint[2]"),
                e.problems().stream().map(Problem::path).toList());
        assertTrue(e.getMessage().contains("'MD5:aa:bb' is not a SHA-256 host key fingerprint"), e.getMessage());
        assertEquals("hostKeyFingerprint", assertThrows(GantryException.class, HostKeyPolicy::pinned)
                .problems().get(0).path());
    }

    @Test
    void equalTargetsAreOnePoolKeyAndTheInsecurePolicyIsNamedLoudly() {
        SshTarget a = SshTarget.of("10.0.0.4", 22, "azureuser", ClientIdentity.keyFile(Path.of("id")),
                HostKeyPolicy.knownHosts(Path.of("kh")));
        SshTarget b = SshTarget.of("10.0.0.4", 22, "azureuser", ClientIdentity.keyFile(Path.of("id")),
                HostKeyPolicy.knownHosts(Path.of("kh")));
        assertEquals(a, b);
        assertEquals("azureuser@10.0.0.4:22", a.address());
        assertEquals("INSECURE_ACCEPT_ANY_HOST_KEY",
                a.withHostKeyPolicy(HostKeyPolicy.INSECURE_ACCEPT_ANY_HOST_KEY).hostKeyPolicy().toString());
    }
}
