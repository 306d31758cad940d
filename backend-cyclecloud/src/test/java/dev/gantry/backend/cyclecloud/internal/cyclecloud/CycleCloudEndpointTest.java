package dev.gantry.backend.cyclecloud.internal.cyclecloud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.SecretRef;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CycleCloudEndpointTest {
    private static final SecretRef PASSWORD = SecretRef.parse("env:CC_PASSWORD");

    private static CycleCloudEndpoint endpoint(String url, String cluster) {
        return new CycleCloudEndpoint(URI.create(url), cluster, "alice", PASSWORD, Optional.empty(), false,
                CycleCloudEndpoint.DEFAULT_TIMEOUT);
    }

    @Test
    void theStatusUrlKeepsAPathPrefixAndEncodesTheClusterAsOneSegment() {
        assertEquals(URI.create("https://cc.example.com/clusters/hpc-prod/status"),
                endpoint("https://cc.example.com/", "hpc-prod").statusUri("hpc-prod", false));
        assertEquals(URI.create("https://cc.example.com:8443/cyclecloud/clusters/my%20cluster%2Fx/status?nodes=true"),
                endpoint("https://cc.example.com:8443/cyclecloud", "c").statusUri("my cluster/x", true));
    }

    @Test
    void everyWrongFieldIsReportedAtOnce() {
        GantryException e = assertThrows(GantryException.class, () -> new CycleCloudEndpoint(
                URI.create("http://cc.example.com"), " ", "al:ice", null, Optional.of(Path.of("/etc/cc.pem")), true,
                Duration.ZERO));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals(List.of("url", "cluster", "user", "password", "insecureSkipTlsVerify", "timeout"),
                e.problems().stream().map(Problem::path).toList());
        assertEquals("must be an https:// address (basic authentication over http would send the password in the "
                + "clear), got 'http://cc.example.com'; for CycleCloud's self-signed certificate set caFile",
                e.problems().get(0).message());
        assertEquals("is true while caFile is set to /etc/cc.pem; with caFile the certificate is verified, so set "
                + "insecureSkipTlsVerify to false", e.problems().get(4).message());
    }

    @Test
    void credentialsInTheUrlAreRefusedWithoutBeingRepeated() {
        GantryException e = assertThrows(GantryException.class,
                () -> endpoint("https://alice:hunter2@cc.example.com/x", "c"));
        assertEquals(List.of(Problem.of("url", "must not carry a user or password (user:password@), got "
                + "https://cc.example.com/x with credentials; set user, and password to a secret reference")),
                e.problems());
        assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
    }

    @Test
    void aQueryOrFragmentIsRefused() {
        GantryException e = assertThrows(GantryException.class, () -> endpoint("https://cc.example.com/?a=b", "c"));
        assertEquals(List.of("url"), e.problems().stream().map(Problem::path).toList());
    }

    @Test
    void theRecordPrintsTheReferenceNeverASecret() {
        assertEquals("CycleCloudEndpoint[url=https://cc.example.com, cluster=c, user=alice, password=env:CC_PASSWORD, "
                + "caFile=Optional.empty, insecureSkipTlsVerify=false, timeout=PT30S]",
                endpoint("https://cc.example.com", "c").toString());
    }
}
