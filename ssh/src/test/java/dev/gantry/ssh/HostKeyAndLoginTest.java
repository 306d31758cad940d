package dev.gantry.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Host-key policies and logins against the real test hosts, each with its own host key. */
class HostKeyAndLoginTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final String WRONG_PIN = "SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

    private final TestHosts.Host h1 = TestHosts.host(1);
    private final TestHosts.Host h2 = TestHosts.host(2);

    private static String hostname(SshTarget target) {
        try (SshPool pool = new SshPool()) {
            return pool.exec(target, List.of("hostname"), TIMEOUT).stdoutText().strip();
        }
    }

    private static GantryException refused(SshTarget target) {
        try (SshPool pool = new SshPool()) {
            return assertThrows(GantryException.class, () -> pool.exec(target, List.of("hostname"), TIMEOUT));
        }
    }

    @Test
    void thePinnedFingerprintIsAccepted() {
        assertEquals("gantry-h1", hostname(h1.target()));
        // Pins of several keys (rotation): any one matching is enough.
        assertEquals("gantry-h2", hostname(h2.target().withHostKeyPolicy(
                HostKeyPolicy.pinned(h1.fingerprint(), h2.fingerprint()))));
    }

    @Test
    void aWrongPinIsRefusedShowingTheOfferedFingerprintAndHowToPinIt() {
        GantryException e = refused(h1.target().withHostKeyPolicy(HostKeyPolicy.pinned(WRONG_PIN)));
        assertEquals(ErrorCode.HOST_KEY_REJECTED, e.code());
        assertTrue(e.getMessage().startsWith("host key of " + h1.address() + ":22 does not match the pinned "
                + "fingerprint " + WRONG_PIN + ": the server offered ssh-ed25519 key " + h1.fingerprint()),
                e.getMessage());
        assertTrue(e.getMessage().endsWith("pin it: hostKeyFingerprint: " + h1.fingerprint()), e.getMessage());
        // Another host's key is as wrong as a made-up one.
        assertEquals(ErrorCode.HOST_KEY_REJECTED,
                refused(h1.target().withHostKeyPolicy(HostKeyPolicy.pinned(h2.fingerprint()))).code());
    }

    @Test
    void theKnownHostsFileTheScriptWroteIsTrusted() {
        assertEquals("gantry-h2", hostname(h2.target().withHostKeyPolicy(
                HostKeyPolicy.knownHosts(TestHosts.knownHosts()))));
    }

    @Test
    void aHostMissingFromKnownHostsIsRefusedWithTheKeyscanCommand(@TempDir Path dir) throws Exception {
        Path knownHosts = dir.resolve("known_hosts");
        Files.write(knownHosts, Files.readAllLines(TestHosts.knownHosts()).stream()
                .filter(line -> line.startsWith(h2.address() + " ")).toList());
        GantryException e = refused(h1.target().withHostKeyPolicy(HostKeyPolicy.knownHosts(knownHosts)));
        assertEquals(ErrorCode.HOST_KEY_REJECTED, e.code());
        assertTrue(e.getMessage().startsWith("host key of " + h1.address() + ":22 is unknown: the server offered "
                + "ssh-ed25519 key " + h1.fingerprint() + ", which " + knownHosts + " does not list."),
                e.getMessage());
        String keyscan = "ssh-keyscan -p 22 " + h1.address() + " >> " + knownHosts;
        assertTrue(e.getMessage().contains("trust it with `" + keyscan + "` or pin it with hostKeyFingerprint: "
                + h1.fingerprint()), e.getMessage());

        // Following the advice works.
        Process scan = new ProcessBuilder("sh", "-c", keyscan).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(scan.waitFor(20, TimeUnit.SECONDS));
        assertEquals("gantry-h1", hostname(h1.target().withHostKeyPolicy(HostKeyPolicy.knownHosts(knownHosts))));
    }

    @Test
    void aMissingKnownHostsFileTrustsNothing(@TempDir Path dir) {
        Path missing = dir.resolve("nowhere/known_hosts");
        GantryException e = refused(h1.target().withHostKeyPolicy(HostKeyPolicy.knownHosts(missing)));
        assertEquals(ErrorCode.HOST_KEY_REJECTED, e.code());
        assertTrue(e.getMessage().contains(missing + " does not list"), e.getMessage());
    }

    @Test
    void aChangedHostKeyIsRefusedLoudly(@TempDir Path dir) throws Exception {
        // known_hosts says h1's address has h2's key: what a reinstalled host or an impostor looks like.
        String h2Key = Files.readAllLines(TestHosts.knownHosts()).stream()
                .filter(line -> line.startsWith(h2.address() + " ")).findFirst().orElseThrow()
                .substring(h2.address().length() + 1);
        Path knownHosts = dir.resolve("known_hosts");
        Files.writeString(knownHosts, h1.address() + " " + h2Key + "\n");
        GantryException e = refused(h1.target().withHostKeyPolicy(HostKeyPolicy.knownHosts(knownHosts)));
        assertEquals(ErrorCode.HOST_KEY_REJECTED, e.code());
        assertTrue(e.getMessage().startsWith("host key of " + h1.address() + ":22 has CHANGED: the server offered "
                + "ssh-ed25519 key " + h1.fingerprint()), e.getMessage());
        assertTrue(e.getMessage().contains("ssh-keygen -R '" + h1.address() + "' -f " + knownHosts), e.getMessage());
    }

    @Test
    void onlyTheLoudlyNamedInsecureOptionAcceptsAnyKey() {
        assertEquals("gantry-h1", hostname(h1.target().withHostKeyPolicy(HostKeyPolicy.INSECURE_ACCEPT_ANY_HOST_KEY)));
    }

    @Test
    void aKeyTheHostDoesNotAuthorizeIsAnAuthFailureNamingUserAndKey(@TempDir Path dir) throws Exception {
        Path stranger = dir.resolve("stranger_ed25519");
        run(Map.of(), "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", stranger.toString());
        GantryException e = refused(h1.target().withIdentity(ClientIdentity.keyFile(stranger)));
        assertEquals(ErrorCode.AUTH_FAILED, e.code());
        assertTrue(e.getMessage().startsWith("login as gantry on " + h1.address() + ":22 was refused for key "
                + stranger), e.getMessage());

        GantryException missing = refused(h1.target().withIdentity(ClientIdentity.keyFile(dir.resolve("nope"))));
        assertEquals(ErrorCode.AUTH_FAILED, missing.code());
        assertTrue(missing.getMessage().startsWith("cannot use private key " + dir.resolve("nope")),
                missing.getMessage());
    }

    @Test
    void anSshAgentCanHoldTheKey(@TempDir Path dir) throws Exception {
        Path socket = dir.resolve("agent.sock");
        Process agent = new ProcessBuilder("ssh-agent", "-D", "-a", socket.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            // The socket file appears when ssh-agent binds it, a moment before it listens: a connect in between is
            // refused. "ssh-add -l" exits 2 while the agent cannot be reached, 1 once it answers with no keys.
            while (agentUnreachable(socket) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            run(Map.of("SSH_AUTH_SOCK", socket.toString()), "ssh-add", h1.identity().toString());
            assertEquals("gantry-h1", hostname(h1.target().withIdentity(ClientIdentity.agent(socket))));
        } finally {
            agent.destroy();
            agent.waitFor(5, TimeUnit.SECONDS);
        }
        GantryException gone = refused(h1.target().withIdentity(ClientIdentity.agent(socket)));
        assertEquals(ErrorCode.AUTH_FAILED, gone.code());
    }

    private static boolean agentUnreachable(Path socket) throws Exception {
        if (!Files.exists(socket)) {
            return true;
        }
        ProcessBuilder list = new ProcessBuilder("ssh-add", "-l").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        list.environment().put("SSH_AUTH_SOCK", socket.toString());
        Process process = list.start();
        assertTrue(process.waitFor(20, TimeUnit.SECONDS));
        return process.exitValue() == 2;
    }

    private static void run(Map<String, String> env, String... command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(env);
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(20, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), String.join(" ", command) + ": " + out);
    }
}
