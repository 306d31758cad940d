package dev.gantry.backend.cyclecloud.internal.cyclecloud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.SecretRef;
import dev.gantry.api.backend.Secret;
import dev.gantry.api.backend.SecretResolver;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CycleCloudClientTest {
    private static final String USER = "alice";
    private static final String PASSWORD = "pw-7f3a!K9#q:zz";
    private static final SecretRef PASSWORD_REF = SecretRef.parse("env:CC_PASSWORD");
    private static final Map<String, String> CLUSTERS = Map.of(
            "hpc-prod", Goldens.status(Goldens.SLURM),
            "spot-mix", Goldens.status(Goldens.SPOT),
            "my cluster", Goldens.status(Goldens.MULTIPLE));

    @TempDir
    static Path certificates;
    /** The fake's certificate: self-signed, for 127.0.0.1 and localhost. */
    private static TestCertificates.Certificate local;
    /** Another self-signed certificate, for a host name the fake is not reached by. */
    private static TestCertificates.Certificate elsewhere;

    private CycleCloudFake fake;
    private final RecordingLogger logger = new RecordingLogger();
    private final List<Duration> sleeps = Collections.synchronizedList(new ArrayList<>());

    @BeforeAll
    static void makeCertificates() throws Exception {
        local = TestCertificates.selfSigned(certificates, "local", "ip:127.0.0.1,dns:localhost");
        elsewhere = TestCertificates.selfSigned(certificates, "elsewhere", "dns:cyclecloud.invalid");
    }

    @BeforeEach
    void start() throws Exception {
        fake = new CycleCloudFake(local.keystore(), USER, PASSWORD, CLUSTERS);
    }

    @AfterEach
    void stop() {
        fake.close();
    }

    private CycleCloudEndpoint endpoint(URI url, String cluster, Optional<Path> caFile, boolean insecure,
                                        Duration timeout) {
        return new CycleCloudEndpoint(url, cluster, USER, PASSWORD_REF, caFile, insecure, timeout);
    }

    private CycleCloudEndpoint trusting(String cluster) {
        return endpoint(fake.url(), cluster, Optional.of(local.pem()), false, Duration.ofSeconds(10));
    }

    private CycleCloudClient client(CycleCloudEndpoint endpoint, String password) {
        SecretResolver secrets = ref -> {
            assertEquals(PASSWORD_REF, ref);
            return new Secret(password);
        };
        return new CycleCloudClient(endpoint, secrets, logger, sleeps::add);
    }

    private CycleCloudClient client(CycleCloudEndpoint endpoint) {
        return client(endpoint, PASSWORD);
    }

    @Test
    void readsTheLayoutOverHttpsWithBasicAuthenticationTrustingTheCaFile() {
        ClusterLayout layout = client(trusting("hpc-prod")).clusterLayout();
        assertEquals(Goldens.layout("hpc-prod", Goldens.SLURM), layout);
        assertEquals(List.of(new CycleCloudFake.Request("GET", "/clusters/hpc-prod/status", null,
                "Basic " + Base64.getEncoder().encodeToString((USER + ":" + PASSWORD)
                        .getBytes(StandardCharsets.UTF_8)))), fake.requests);
        assertEquals(List.of(), sleeps);
    }

    @Test
    void anotherClusterOnTheSameServerAndANameThatNeedsEncoding() {
        CycleCloudClient client = client(trusting("hpc-prod"));
        assertEquals(Goldens.layout("spot-mix", Goldens.SPOT), client.clusterLayout("spot-mix"));
        assertEquals(Goldens.layout("my cluster", Goldens.MULTIPLE), client.clusterLayout("my cluster"));
        assertEquals(List.of("/clusters/spot-mix/status", "/clusters/my%20cluster/status"),
                fake.requests.stream().map(CycleCloudFake.Request::rawPath).toList());
    }

    @Test
    void thePasswordIsResolvedAtEachCall() {
        AtomicInteger resolutions = new AtomicInteger();
        CycleCloudClient client = new CycleCloudClient(trusting("hpc-prod"), ref -> {
            resolutions.incrementAndGet();
            return new Secret(PASSWORD);
        }, logger, sleeps::add);
        assertEquals(0, resolutions.get(), "nothing is resolved before a call");
        client.clusterLayout();
        client.clusterLayout();
        assertEquals(2, resolutions.get());
    }

    @Test
    void aWrongPasswordIsAnAuthenticationFailureThatNamesTheUserAndTheReference() {
        GantryException e = assertThrows(GantryException.class,
                () -> client(trusting("hpc-prod"), "not-the-password").clusterLayout());
        assertEquals(ErrorCode.AUTH_FAILED, e.code());
        assertEquals("CycleCloud at " + fake.url() + " answered HTTP 401 for GET /clusters/hpc-prod/status: it "
                + "refused user 'alice' with the password from env:CC_PASSWORD; check the user name and that password "
                + "by signing in to CycleCloud's web page, then fix user or the secret", e.getMessage());
        assertEquals(1, fake.requests.size(), "a refused password is not retried");
    }

    @Test
    void anUnknownClusterIsNamedAndNothingElseIsListed() {
        GantryException e = assertThrows(GantryException.class, () -> client(trusting("hpc-prdo")).clusterLayout());
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals("CycleCloud at " + fake.url() + " has no cluster named 'hpc-prdo' (HTTP 404 for GET "
                + "/clusters/hpc-prdo/status); set cluster to the name CycleCloud's web page shows for it, and check "
                + "that url is CycleCloud's address", e.getMessage());
    }

    @Test
    void aClusterTheUserMayNotReadIsForbidden() {
        fake.forbidden.add("spot-mix");
        GantryException e = assertThrows(GantryException.class, () -> client(trusting("spot-mix")).clusterLayout());
        assertEquals(ErrorCode.AUTH_FAILED, e.code());
        assertTrue(e.getMessage().contains("HTTP 403") && e.getMessage().contains("user 'alice' may not read "
                + "cluster 'spot-mix'"), e.getMessage());
    }

    @Test
    void aServerErrorIsARemoteErrorAndABodyThatRepeatsTheCredentialsIsRedacted() {
        fake.queued.add(new CycleCloudFake.Answer(500, Map.of(), "Internal error\nwhile serving {authorization}"));
        GantryException e = assertThrows(GantryException.class, () -> client(trusting("hpc-prod")).clusterLayout());
        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertEquals("CycleCloud at " + fake.url() + " answered HTTP 500 for GET /clusters/hpc-prod/status: Internal "
                + "error while serving Basic ******; see CycleCloud's log (/opt/cycle_server/logs/cycle_server.log on "
                + "its VM)", e.getMessage());
    }

    @Test
    void aRedirectIsNotFollowed() {
        fake.queued.add(new CycleCloudFake.Answer(302, Map.of("Location", "https://login.example.com/"), ""));
        GantryException e = assertThrows(GantryException.class, () -> client(trusting("hpc-prod")).clusterLayout());
        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertTrue(e.getMessage().endsWith("HTTP 302 for GET /clusters/hpc-prod/status; url must be CycleCloud's own "
                + "address (it redirects to https://login.example.com/)"), e.getMessage());
        assertEquals(1, fake.requests.size());
    }

    @Test
    void aBodyThatIsNotTheStatusIsARemoteError() {
        fake.queued.add(new CycleCloudFake.Answer(200, Map.of(), "<html>Sign in</html>"));
        GantryException e = assertThrows(GantryException.class, () -> client(trusting("hpc-prod")).clusterLayout());
        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertTrue(e.getMessage().startsWith("CycleCloud's status for cluster 'hpc-prod' is not JSON"),
                e.getMessage());
    }

    @Test
    void theJdkTrustStoreRefusesCycleCloudsSelfSignedCertificate() {
        CycleCloudEndpoint jdkTrust = endpoint(fake.url(), "hpc-prod", Optional.empty(), false,
                Duration.ofSeconds(10));
        GantryException e = assertThrows(GantryException.class, () -> client(jdkTrust).clusterLayout());
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertTrue(e.getMessage().startsWith("CycleCloud at " + fake.url() + " presented a certificate this client "
                + "does not trust for that address ("), e.getMessage());
        assertTrue(e.getMessage().contains("set caFile"), e.getMessage());
        // The JDK's reason: no path to a trusted CA (not, say, a host name mismatch).
        assertTrue(e.getMessage().contains("unable to find valid certification path"), e.getMessage());
        assertEquals(List.of(), fake.requests, "no request goes out over an untrusted connection");
    }

    @Test
    void aCaFileTrustsOnlyItsOwnCertificates() {
        CycleCloudEndpoint otherCa = endpoint(fake.url(), "hpc-prod", Optional.of(elsewhere.pem()), false,
                Duration.ofSeconds(10));
        GantryException e = assertThrows(GantryException.class, () -> client(otherCa).clusterLayout());
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertTrue(e.getMessage().contains("unable to find valid certification path"), e.getMessage());
        assertEquals(List.of(), fake.requests);
    }

    @Test
    void aTrustedCertificateForAnotherHostNameIsRefused() throws Exception {
        try (CycleCloudFake misnamed = new CycleCloudFake(elsewhere.keystore(), USER, PASSWORD, CLUSTERS)) {
            CycleCloudEndpoint trusted = endpoint(misnamed.url(), "hpc-prod", Optional.of(elsewhere.pem()), false,
                    Duration.ofSeconds(10));
            GantryException e = assertThrows(GantryException.class, () -> client(trusted).clusterLayout());
            assertEquals(ErrorCode.CONFIG_INVALID, e.code());
            assertTrue(e.getMessage().contains("use in url a host name the certificate names"), e.getMessage());
            // Trusted, but issued for cyclecloud.invalid: refused for the name alone.
            assertTrue(e.getMessage().contains("No subject alternative names matching IP address 127.0.0.1"),
                    e.getMessage());
            assertEquals(List.of(), misnamed.requests);
        }
    }

    @Test
    void insecureSkipTlsVerifyAcceptsAnyCertificateAndWarnsLoudly() throws Exception {
        try (CycleCloudFake misnamed = new CycleCloudFake(elsewhere.keystore(), USER, PASSWORD, CLUSTERS)) {
            CycleCloudEndpoint insecure = endpoint(misnamed.url(), "hpc-prod", Optional.empty(), true,
                    Duration.ofSeconds(10));
            CycleCloudClient client = client(insecure);
            List<RecordingLogger.Entry> warnings = logger.entries.stream()
                    .filter(entry -> entry.level() == System.Logger.Level.WARNING).toList();
            assertEquals(List.of(new RecordingLogger.Entry(System.Logger.Level.WARNING, "insecureSkipTlsVerify is "
                    + "true for CycleCloud at " + misnamed.url() + ": its certificate and host name are NOT verified,"
                    + " so anyone on the network path can impersonate it and read the password of user 'alice'; set "
                    + "caFile to CycleCloud's certificate (PEM) instead")), warnings);
            assertEquals(Goldens.layout("hpc-prod", Goldens.SLURM), client.clusterLayout());
        }
    }

    @Test
    void aRefusedConnectionSaysCycleCloudIsUnreachable() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        URI nowhere = URI.create("https://127.0.0.1:" + closedPort);
        GantryException e = assertThrows(GantryException.class, () -> client(endpoint(nowhere, "hpc-prod",
                Optional.of(local.pem()), false, Duration.ofSeconds(10))).clusterLayout());
        assertEquals(ErrorCode.BACKEND_UNAVAILABLE, e.code());
        assertTrue(e.getMessage().startsWith("cannot connect to CycleCloud at " + nowhere + " (ConnectException: the "
                + "connection was refused or the host cannot be reached)"),
                e.getMessage());
        assertTrue(e.getMessage().endsWith("check url's host and port, that CycleCloud is running on its VM "
                + "(systemctl status cycle_server), and that a firewall or network security group lets this machine "
                + "reach it"), e.getMessage());
    }

    @Test
    void noAnswerWithinTheTimeoutIsUnavailability() {
        fake.delay = Duration.ofSeconds(5);
        CycleCloudEndpoint quick = endpoint(fake.url(), "hpc-prod", Optional.of(local.pem()), false,
                Duration.ofMillis(300));
        long start = System.nanoTime();
        GantryException e = assertThrows(GantryException.class, () -> client(quick).clusterLayout());
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(4).toNanos(), "gave up at the timeout");
        assertEquals(ErrorCode.BACKEND_UNAVAILABLE, e.code());
        assertEquals("CycleCloud at " + fake.url() + " did not answer GET /clusters/hpc-prod/status within 300ms "
                + "(timeout); CycleCloud may be overloaded or starting, so try again, or raise timeout", e.getMessage());
    }

    @Test
    void retryAfterIsHonouredOnThrottlingAndUnavailability() {
        fake.queued.add(new CycleCloudFake.Answer(429, Map.of("Retry-After", "7"), ""));
        fake.queued.add(new CycleCloudFake.Answer(503, Map.of("Retry-After", "2"), ""));
        assertEquals(Goldens.layout("hpc-prod", Goldens.SLURM), client(trusting("hpc-prod")).clusterLayout());
        assertEquals(List.of(Duration.ofSeconds(7), Duration.ofSeconds(2)), sleeps);
        assertEquals(3, fake.requests.size());
    }

    @Test
    void withoutRetryAfterTheWaitDoubles() {
        fake.queued.add(new CycleCloudFake.Answer(503, Map.of(), ""));
        fake.queued.add(new CycleCloudFake.Answer(503, Map.of(), ""));
        assertEquals(Goldens.layout("hpc-prod", Goldens.SLURM), client(trusting("hpc-prod")).clusterLayout());
        assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(2)), sleeps);
    }

    @Test
    void retriesAreBoundedToTwo() {
        for (int i = 0; i < 5; i++) {
            fake.queued.add(new CycleCloudFake.Answer(503, Map.of("Retry-After", "1"), ""));
        }
        GantryException e = assertThrows(GantryException.class, () -> client(trusting("hpc-prod")).clusterLayout());
        assertEquals(ErrorCode.BACKEND_UNAVAILABLE, e.code());
        assertEquals("CycleCloud at " + fake.url() + " answered HTTP 503 for GET /clusters/hpc-prod/status 3 times "
                + "(unavailable); try again later", e.getMessage());
        assertEquals(3, fake.requests.size());
        assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(1)), sleeps);
    }

    @Test
    void everyRequestIsCountedRetriesIncluded() {
        CycleCloudClient client = client(trusting("hpc-prod"));
        assertEquals(0, client.calls());
        fake.queued.add(new CycleCloudFake.Answer(503, Map.of("Retry-After", "1"), ""));
        client.clusterLayout();
        client.clusterLayout("spot-mix");
        assertEquals(3, fake.requests.size());
        assertEquals(3, client.calls(), "the backend's remoteCalls() adds these to its login node's commands");
    }

    @Test
    void aRetryAfterBeyondTheBoundIsNotWaitedFor() {
        fake.queued.add(new CycleCloudFake.Answer(429, Map.of("Retry-After", "3600"), ""));
        GantryException e = assertThrows(GantryException.class, () -> client(trusting("hpc-prod")).clusterLayout());
        assertEquals(ErrorCode.BACKEND_UNAVAILABLE, e.code());
        assertEquals("CycleCloud at " + fake.url() + " answered HTTP 429 for GET /clusters/hpc-prod/status and asks "
                + "to retry after 3600s, longer than this client waits (30s); try again later", e.getMessage());
        assertEquals(1, fake.requests.size());
        assertEquals(List.of(), sleeps);
    }

    /**
     * Every way a call can end, and everything the client says along the way: the password, and the token that
     * carries it, appear in no message, no cause, no log entry and no {@code toString}.
     */
    @Test
    void thePasswordNeverAppearsInAnExceptionOrTheLog() throws Exception {
        List<String> said = new ArrayList<>();
        CycleCloudClient good = client(trusting("hpc-prod"));
        good.clusterLayout();
        said.add(good.toString());
        said.add(trusting("hpc-prod").toString());
        fake.queued.add(new CycleCloudFake.Answer(500, Map.of(), "echo {authorization} " + PASSWORD));
        fake.queued.add(new CycleCloudFake.Answer(302, Map.of("Location", "https://x/?p=" + PASSWORD), ""));
        fake.queued.add(new CycleCloudFake.Answer(400, Map.of(), PASSWORD));
        for (int i = 0; i < 3; i++) {
            fake.queued.add(new CycleCloudFake.Answer(503, Map.of(), ""));
        }
        // The 500, the redirect, the 400, then three 503s that use up one call's attempts.
        for (int i = 0; i < 4; i++) {
            said.addAll(failure(() -> good.clusterLayout()));
        }
        assertTrue(fake.queued.isEmpty());
        said.addAll(failure(() -> client(trusting("hpc-prod"), PASSWORD + "x").clusterLayout()));
        said.addAll(failure(() -> good.clusterLayout("nope")));
        said.addAll(failure(() -> client(endpoint(fake.url(), "hpc-prod", Optional.empty(), false,
                Duration.ofSeconds(10))).clusterLayout()));
        fake.delay = Duration.ofSeconds(5);
        said.addAll(failure(() -> client(endpoint(fake.url(), "hpc-prod", Optional.of(local.pem()), false,
                Duration.ofMillis(200))).clusterLayout()));
        fake.delay = Duration.ZERO;
        try (CycleCloudFake misnamed = new CycleCloudFake(elsewhere.keystore(), USER, PASSWORD, CLUSTERS)) {
            client(endpoint(misnamed.url(), "hpc-prod", Optional.empty(), true, Duration.ofSeconds(10)))
                    .clusterLayout();
        }
        logger.entries.forEach(entry -> said.add(entry.text()));

        String token = Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        assertTrue(fake.requests.stream().anyMatch(r -> ("Basic " + token).equals(r.authorization())),
                "the password was sent, so its absence below means something");
        assertTrue(said.size() > 20, "everything said was collected: " + said.size());
        assertTrue(logger.entries.stream().anyMatch(entry -> entry.level() == System.Logger.Level.DEBUG),
                "requests were logged");
        for (String text : said) {
            assertFalse(text.contains(PASSWORD), text);
            assertFalse(text.contains(token), text);
            assertFalse(text.contains(Base64.getEncoder().encodeToString(PASSWORD.getBytes(StandardCharsets.UTF_8))),
                    text);
        }
    }

    /** The messages and {@code toString} of the exception a call throws, and of its causes and suppressed ones. */
    private static List<String> failure(Runnable call) {
        GantryException e = assertThrows(GantryException.class, call::run);
        List<String> texts = new ArrayList<>();
        collect(e, texts);
        return texts;
    }

    private static void collect(Throwable t, List<String> texts) {
        for (Throwable cause = t; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            texts.add(String.valueOf(cause.getMessage()));
            texts.add(cause.toString());
            for (Throwable suppressed : cause.getSuppressed()) {
                collect(suppressed, texts);
            }
        }
    }
}
