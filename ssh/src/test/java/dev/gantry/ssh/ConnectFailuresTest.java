package dev.gantry.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.jcraft.jsch.JSch;
import com.jcraft.jsch.KeyPair;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How long a connect that cannot succeed takes, against local sockets only (127.0.0.1): a closed port (refused), a
 * listener whose accept queue is full (the kernel drops the SYN: no answer), one that accepts and never speaks SSH,
 * and one that accepts and closes at once (a reset during the handshake, the one failure worth retrying).
 */
class ConnectFailuresTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    /** What a thread switch, a scheduler tick and the JVM's own pauses may add to a bound on a busy machine. */
    private static final long SLACK_MILLIS = 500;

    @TempDir
    static Path keys;
    private static ClientIdentity identity;
    private final List<AutoCloseable> opened = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void key() throws Exception {
        KeyPair pair = KeyPair.genKeyPair(new JSch(), KeyPair.ECDSA, 256);
        Path file = keys.resolve("id_ecdsa");
        pair.writePrivateKey(file.toString());
        identity = ClientIdentity.keyFile(file);
    }

    @AfterEach
    void closeSockets() throws Exception {
        for (AutoCloseable c : opened) {
            c.close();
        }
    }

    private static SshTarget target(int port, Duration connectTimeout) {
        return new SshTarget(LOOPBACK.getHostAddress(), port, "gantry", identity,
                HostKeyPolicy.INSECURE_ACCEPT_ANY_HOST_KEY, connectTimeout, SshTarget.DEFAULT_KEEPALIVE_INTERVAL);
    }

    private record Failure(GantryException error, long millis) {
    }

    private static Failure fail(SshPool pool, SshTarget target) {
        long started = System.nanoTime();
        GantryException e = assertThrows(GantryException.class,
                () -> pool.exec(target, List.of("true"), Duration.ofSeconds(30)));
        return new Failure(e, (System.nanoTime() - started) / 1_000_000);
    }

    private static int closedPort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, LOOPBACK)) {
            return probe.getLocalPort();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {5, 20})
    void aRefusedConnectionFailsAtOnceWhateverTheConnectTimeout(int seconds) throws IOException {
        int port = closedPort();
        try (SshPool pool = new SshPool()) {
            Failure f = fail(pool, target(port, Duration.ofSeconds(seconds)));
            assertEquals(ErrorCode.BACKEND_UNAVAILABLE, f.error().code(), f.error().getMessage());
            assertEquals("cannot connect to 127.0.0.1:" + port + ": Connection refused; check that the host is up "
                    + "and sshd listens on port " + port, f.error().getMessage());
            assertTrue(f.millis() < 1000, "refused after " + f.millis() + " ms");
            assertEquals(0, pool.sessionsOpened());
        }
    }

    @Test
    void anAddressThatDoesNotAnswerWaitsExactlyItsConnectTimeout() throws IOException {
        ServerSocket full = new ServerSocket(0, 1, LOOPBACK);
        opened.add(full);
        fillAcceptQueue(full);
        try (SshPool pool = new SshPool()) {
            Failure f = fail(pool, target(full.getLocalPort(), Duration.ofMillis(1500)));
            assertEquals(ErrorCode.BACKEND_UNAVAILABLE, f.error().code(), f.error().getMessage());
            assertTrue(f.error().getMessage().startsWith("cannot connect to 127.0.0.1:" + full.getLocalPort()
                    + " within 1500 ms (connect timeout): no answer"), f.error().getMessage());
            assertTrue(f.millis() >= 1500 && f.millis() < 1500 + SLACK_MILLIS, "gave up after " + f.millis() + " ms");
        }
    }

    @Test
    void aServerThatAcceptsAndNeverSpeaksIsHeldToTheSameBound() throws IOException {
        ServerSocket silent = listen(socket -> {
            // keep the connection open and say nothing
        });
        try (SshPool pool = new SshPool()) {
            Failure f = fail(pool, target(silent.getLocalPort(), Duration.ofMillis(1500)));
            assertEquals(ErrorCode.BACKEND_UNAVAILABLE, f.error().code(), f.error().getMessage());
            assertTrue(f.error().getMessage().contains("did not complete the handshake"), f.error().getMessage());
            assertTrue(f.millis() >= 1500 && f.millis() < 1500 + SLACK_MILLIS, "gave up after " + f.millis() + " ms");
        }
    }

    @Test
    void aConnectionClosedDuringTheHandshakeIsRetriedUpToThePolicy() throws IOException {
        AtomicInteger accepted = new AtomicInteger();
        ServerSocket closing = listen(socket -> {
            accepted.incrementAndGet();
            socket.close();
        });
        ReconnectPolicy three = new ReconnectPolicy(3, Duration.ofMillis(50), Duration.ofMillis(100), 0);
        try (SshPool pool = new SshPool(three)) {
            Failure f = fail(pool, target(closing.getLocalPort(), Duration.ofSeconds(10)));
            assertEquals(ErrorCode.REMOTE_ERROR, f.error().code(), f.error().getMessage());
            assertEquals(3, accepted.get(), "attempts");
            assertTrue(f.millis() < 2000, "gave up after " + f.millis() + " ms");
        }
    }

    /** Connects until a connect is not answered: the listener's accept queue is then full, and it drops SYNs. */
    private void fillAcceptQueue(ServerSocket listener) throws IOException {
        for (int i = 0; i < 16; i++) {
            Socket client = new Socket();
            opened.add(client);
            try {
                client.connect(new InetSocketAddress(LOOPBACK, listener.getLocalPort()), 300);
            } catch (SocketTimeoutException full) {
                return;
            }
        }
        throw new AssertionError("the accept queue of a listener with backlog 1 never filled");
    }

    private interface Handler {
        void handle(Socket socket) throws IOException;
    }

    private ServerSocket listen(Handler handler) throws IOException {
        ServerSocket server = new ServerSocket(0, 50, LOOPBACK);
        opened.add(server);
        Thread thread = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    opened.add(socket);
                    handler.handle(socket);
                } catch (IOException e) {
                    return;
                }
            }
        }, "connect-failures-listener");
        thread.setDaemon(true);
        thread.start();
        return server;
    }
}
