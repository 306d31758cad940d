package dev.gantry.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Session pooling and the faults a fleet of real hosts produces: connections killed mid-command, sshd stopped and
 * restarted, a host switched off. Faults are injected with scripts/test-hosts.sh; every test leaves the hosts up.
 */
class PoolAndFaultsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    /** Fast retries so the tests can bound the reconnect time tightly. */
    private static final ReconnectPolicy QUICK = new ReconnectPolicy(20, Duration.ofMillis(100),
            Duration.ofMillis(400), 0.2);

    private final TestHosts.Host h1 = TestHosts.host(1);
    private final TestHosts.Host h2 = TestHosts.host(2);

    @AfterEach
    void hostsBackUp() {
        TestHosts.script("up", String.valueOf(TestHosts.COUNT));
    }

    /** "client-ip client-port server-ip server-port": equal values mean the same TCP connection, so one session. */
    private static String connectionOf(SshPool pool, SshTarget target) {
        return pool.exec(target, List.of("sh", "-c", "echo \"$SSH_CONNECTION\""), TIMEOUT).stdoutText().strip();
    }

    private static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    @Test
    void oneSessionPerHostCarriesEveryCommandAndTransfer() throws Exception {
        try (SshPool pool = new SshPool()) {
            Set<String> connections = new HashSet<>();
            for (int i = 0; i < 5; i++) {
                connections.add(connectionOf(pool, h1.target()));
            }
            pool.writeFile(h1.target(), "/tmp/gantry-pool-" + ProcessHandle.current().pid(), new byte[] {1}, 0600);
            pool.download(h1.target(), "/tmp/gantry-pool-" + ProcessHandle.current().pid());
            try (RemoteCommand command = pool.stream(h1.target(), List.of("echo", "x"), line -> { })) {
                assertEquals(0, command.awaitExit(TIMEOUT).orElseThrow());
            }
            connections.add(connectionOf(pool, h1.target()));
            connections.add(connectionOf(pool, h2.target()));
            assertEquals(2, connections.size(), "one connection per host: " + connections);
            assertEquals(2, pool.sessionsOpened());
        }
    }

    @Test
    void manyThreadsShareTheOneSessionBeyondTheServersChannelLimit() throws Exception {
        // The test hosts keep OpenSSH's default of 10 channels per connection; 16 threads want more at once.
        ExecutorService threads = Executors.newFixedThreadPool(16);
        try (SshPool pool = new SshPool()) {
            List<Future<String>> results = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                int n = i;
                results.add(threads.submit(() -> {
                    RemoteResult result = pool.exec(h1.target(), List.of("sh", "-c",
                            "sleep 0.3; echo \"$SSH_CONNECTION $1\"", "sh", String.valueOf(n)), TIMEOUT);
                    return result.stdoutText().strip();
                }));
            }
            Set<String> connections = new HashSet<>();
            for (int i = 0; i < results.size(); i++) {
                String line = results.get(i).get(30, TimeUnit.SECONDS);
                assertTrue(line.endsWith(" " + i), line);
                connections.add(line.substring(0, line.lastIndexOf(' ')));
            }
            assertEquals(1, connections.size(), connections.toString());
            assertEquals(1, pool.sessionsOpened());
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void channelsTheServerRefusesAreAskedForAgainUntilOneIsFree() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(16);
        // A pool allowed more channels than the server's 10: the surplus is refused and retried, never failed.
        try (SshPool pool = new SshPool(QUICK, 16)) {
            List<Future<RemoteResult>> results = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                results.add(threads.submit(() -> pool.exec(h1.target(), List.of("sleep", "0.5"), TIMEOUT)));
            }
            for (Future<RemoteResult> result : results) {
                assertEquals(0, result.get(30, TimeUnit.SECONDS).exitCode());
            }
            assertEquals(1, pool.sessionsOpened());
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void streamsNobodyAwaitedGiveTheirChannelsBack() throws Exception {
        try (SshPool pool = new SshPool(QUICK, 2)) {
            for (int i = 0; i < 2; i++) {
                pool.stream(h1.target(), List.of("true"), line -> { });
            }
            long started = System.nanoTime();
            assertEquals("ok\n", pool.exec(h1.target(), List.of("echo", "ok"), TIMEOUT).stdoutText());
            assertTrue(millisSince(started) < 2000, "waited " + millisSince(started) + " ms for a channel");
        }
    }

    @Test
    void aConnectionKilledByTheServerIsReplacedOnNextUse() {
        try (SshPool pool = new SshPool(QUICK)) {
            String before = connectionOf(pool, h2.target());
            // Several rounds: the next command may race the client noticing the dropped connection.
            for (int round = 1; round <= 5; round++) {
                TestHosts.script("drop-sessions", String.valueOf(h2.number()));
                long started = System.nanoTime();
                String after = connectionOf(pool, h2.target());
                assertTrue(millisSince(started) < 1500, "round " + round + ": reconnected in "
                        + millisSince(started) + " ms");
                assertNotEquals(before, after);
                before = after;
            }
            assertEquals(6, pool.sessionsOpened());
        }
    }

    @Test
    void aConnectionKilledMidCommandFailsThatCommandOnlyAndTheNextOneReconnects() throws Exception {
        String marker = "gantry-mid-command-" + System.nanoTime();
        try (SshPool pool = new SshPool(QUICK)) {
            connectionOf(pool, h2.target());
            CompletableFuture<RemoteResult> running = CompletableFuture.supplyAsync(
                    () -> pool.exec(h2.target(), List.of("sh", "-c", "sleep 10; : " + marker), TIMEOUT));
            waitForRemoteProcess(pool, h1.target(), marker);
            long started = System.nanoTime();
            TestHosts.script("drop-sessions", String.valueOf(h2.number()));
            ExecutionException failure = assertThrows(ExecutionException.class,
                    () -> running.get(5, TimeUnit.SECONDS));
            assertTrue(millisSince(started) < 3000, "noticed after " + millisSince(started) + " ms");
            GantryException lost = (GantryException) failure.getCause();
            assertEquals(ErrorCode.REMOTE_ERROR, lost.code());
            assertTrue(lost.getMessage().startsWith("the connection to " + h2.address() + ":22 was lost while "
                    + "`sh` ran"), lost.getMessage());
            assertEquals("gantry-h2", pool.exec(h2.target(), List.of("hostname"), TIMEOUT).stdoutText().strip());
            // Like a real host, the orphaned command lives on; the test cleans it up.
            pool.exec(h2.target(), List.of("pkill", "-f", marker), TIMEOUT);
        }
    }

    @Test
    void anSshdRestartLeavesRunningCommandsAlone() throws Exception {
        try (SshPool pool = new SshPool(QUICK)) {
            List<String> lines = new CopyOnWriteArrayList<>();
            try (RemoteCommand ticking = pool.stream(h2.target(), List.of("sh", "-c",
                    "for i in $(seq 1 15); do echo $i; sleep 0.1; done"), lines::add)) {
                TestHosts.script("restart-sshd", String.valueOf(h2.number()));
                assertEquals(0, ticking.awaitExit(TIMEOUT).orElseThrow());
                assertEquals(15, lines.size(), lines.toString());
            }
            assertEquals("gantry-h2", pool.exec(h2.target(), List.of("hostname"), TIMEOUT).stdoutText().strip());
            assertEquals(1, pool.sessionsOpened(), "the session survived the restart");
        }
    }

    @Test
    void aStoppedSshdFailsAtOnceAndTheNextUseAfterItIsBackReconnects() throws Exception {
        try (SshPool pool = new SshPool(QUICK)) {
            connectionOf(pool, h2.target());
            TestHosts.script("stop-sshd", String.valueOf(h2.number()));
            TestHosts.script("drop-sessions", String.valueOf(h2.number()));
            long started = System.nanoTime();
            GantryException refused = assertThrows(GantryException.class, () -> connectionOf(pool, h2.target()));
            long elapsed = millisSince(started);
            assertEquals(ErrorCode.BACKEND_UNAVAILABLE, refused.code(), refused.getMessage());
            assertTrue(elapsed < 1000, "refused after " + elapsed + " ms: a refused connection is not retried");
            TestHosts.script("up", String.valueOf(TestHosts.COUNT));
            connectionOf(pool, h2.target());
            assertEquals(2, pool.sessionsOpened());
        }
    }

    @Test
    void aRefusedConnectionIsNotRetriedWhateverThePolicyAllows() {
        ReconnectPolicy three = new ReconnectPolicy(3, Duration.ofMillis(100), Duration.ofMillis(400), 0);
        try (SshPool pool = new SshPool(three)) {
            TestHosts.script("stop-sshd", String.valueOf(h2.number()));
            long started = System.nanoTime();
            GantryException e = assertThrows(GantryException.class,
                    () -> pool.exec(h2.target(), List.of("true"), TIMEOUT));
            long elapsed = millisSince(started);
            assertEquals(ErrorCode.BACKEND_UNAVAILABLE, e.code());
            assertEquals("cannot connect to " + h2.address() + ":22: Connection refused; check that the host is up "
                    + "and sshd listens on port 22", e.getMessage());
            // No pauses of 100 and 200 ms between three refused attempts: one attempt.
            assertTrue(elapsed < 300, "gave up after " + elapsed + " ms");
            assertEquals(0, pool.sessionsOpened());
        }
    }

    @Test
    void aHostSwitchedOffFailsWithinTheConnectTimeout() {
        SshTarget target = h2.target().withConnectTimeout(Duration.ofSeconds(2));
        try (SshPool connected = new SshPool(QUICK); SshPool fresh = new SshPool(QUICK)) {
            connectionOf(connected, target);
            TestHosts.script("power-off", String.valueOf(h2.number()));

            long started = System.nanoTime();
            GantryException stale = assertThrows(GantryException.class,
                    () -> connected.exec(target, List.of("true"), TIMEOUT));
            long elapsed = millisSince(started);
            assertEquals(ErrorCode.REMOTE_ERROR, stale.code());
            assertTrue(stale.getMessage().contains(h2.address() + ":22"), stale.getMessage());
            assertTrue(elapsed >= 1900 && elapsed < 3000, "failed after " + elapsed + " ms");

            started = System.nanoTime();
            GantryException unreachable = assertThrows(GantryException.class,
                    () -> fresh.exec(target, List.of("true"), TIMEOUT));
            elapsed = millisSince(started);
            assertEquals(ErrorCode.BACKEND_UNAVAILABLE, unreachable.code());
            assertTrue(unreachable.getMessage().startsWith("cannot connect to " + h2.address() + ":22 within 2000 ms"),
                    unreachable.getMessage());
            assertTrue(elapsed >= 1900 && elapsed < 2500, "failed after " + elapsed + " ms");
        }
    }

    /** What a command's thread saw: the failure, and whether its interrupt flag was still set after it. */
    private record Outcome(GantryException failure, boolean stillInterrupted) {
    }

    @Test
    void anInterruptWhileAChannelOpensEndsTheCommandAtOnceAndKeepsTheFlag() throws Exception {
        // A host that stops answering leaves its session looking alive, so a channel open waits for the server's
        // confirmation up to the connect timeout: the window in which JSch alone would swallow the interrupt.
        SshTarget target = h2.target().withConnectTimeout(Duration.ofSeconds(10));
        try (SshPool pool = new SshPool(QUICK)) {
            connectionOf(pool, target);
            TestHosts.script("power-off", String.valueOf(h2.number()));
            CompletableFuture<Outcome> outcome = new CompletableFuture<>();
            Thread caller = new Thread(() -> {
                try {
                    pool.exec(target, List.of("true"), TIMEOUT);
                    outcome.complete(new Outcome(null, Thread.currentThread().isInterrupted()));
                } catch (GantryException e) {
                    outcome.complete(new Outcome(e, Thread.currentThread().isInterrupted()));
                }
            }, "interrupted-caller");
            caller.start();
            Thread.sleep(500);
            assertTrue(caller.isAlive(), "the open must still be waiting for the host that stopped answering");
            long started = System.nanoTime();
            caller.interrupt();
            Outcome seen = outcome.get(5, TimeUnit.SECONDS);
            long elapsed = millisSince(started);
            assertTrue(elapsed < 1000, "the interrupted command ended " + elapsed + " ms after the interrupt");
            assertTrue(seen.failure() != null, "an interrupted command cannot have succeeded");
            assertEquals(ErrorCode.REMOTE_ERROR, seen.failure().code());
            assertTrue(seen.failure().getMessage().startsWith("interrupted while opening an SSH exec channel to "
                    + h2.address() + ":22"), seen.failure().getMessage());
            assertTrue(seen.stillInterrupted(), "the caller's interrupt flag must survive the SSH layer");
        }
    }

    @Test
    void keepalivesNoticeAHostThatVanishedUnderARunningCommand() throws Exception {
        SshTarget target = h2.target().withKeepaliveInterval(Duration.ofMillis(300));
        try (SshPool pool = new SshPool(QUICK);
             RemoteCommand waiting = pool.stream(target, List.of("sleep", "60"), line -> { })) {
            TestHosts.script("power-off", String.valueOf(h2.number()));
            long started = System.nanoTime();
            GantryException lost = assertThrows(GantryException.class, () -> waiting.awaitExit(TIMEOUT));
            long elapsed = millisSince(started);
            assertEquals(ErrorCode.REMOTE_ERROR, lost.code());
            assertTrue(lost.getMessage().startsWith("the connection to " + h2.address() + ":22 was lost while "
                    + "`sleep` ran"), lost.getMessage());
            // Three unanswered keepalives 300 ms apart, then the session is dropped: far from the 60 s of sleep.
            assertTrue(elapsed >= 800 && elapsed < 3000, "noticed after " + elapsed + " ms");
        }
    }

    private static void waitForRemoteProcess(SshPool pool, SshTarget any, String commandLine) throws Exception {
        // All test hosts share one process table (separate network and host names only), so any host can look.
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (System.nanoTime() < deadline) {
            if (pool.exec(any, List.of("pgrep", "-f", commandLine), TIMEOUT).exitCode() == 0) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError(commandLine + " never started");
    }
}
