package dev.gantry.ssh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Commands on the real test hosts (scripts/test-hosts.sh). */
class RemoteExecTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static SshPool pool;
    private static SshTarget h1;
    private static SshTarget h2;

    @BeforeAll
    static void start() {
        h1 = TestHosts.host(1).target();
        h2 = TestHosts.host(2).target();
        pool = new SshPool();
    }

    @AfterAll
    static void stop() {
        pool.close();
    }

    @Test
    void eachHostIsItsOwnMachineWithItsOwnNameAndAddress() {
        assertEquals("gantry-h1\n", pool.exec(h1, List.of("hostname"), TIMEOUT).stdoutText());
        assertEquals("gantry-h2\n", pool.exec(h2, List.of("hostname"), TIMEOUT).stdoutText());
        String addresses = pool.exec(h2, List.of("ip", "-4", "-o", "addr", "show", "dev", "eth0"), TIMEOUT)
                .stdoutText();
        assertTrue(addresses.contains("inet " + TestHosts.host(2).address() + "/24"), addresses);
        assertEquals("gantry\n", pool.exec(h1, List.of("id", "-un"), TIMEOUT).stdoutText());
    }

    @Test
    void exitCodesAndBothStreamsComeBack() {
        RemoteResult result = pool.exec(h1, List.of("sh", "-c", "echo out; echo err >&2; exit 3"), TIMEOUT);
        assertEquals(3, result.exitCode());
        assertFalse(result.succeeded());
        assertEquals("out\n", result.stdoutText());
        assertEquals("err\n", result.stderrText());
        assertEquals(0, pool.exec(h1, List.of("true"), TIMEOUT).exitCode());
        assertEquals(127, pool.exec(h1, List.of("no-such-program-here"), TIMEOUT).exitCode());
    }

    @Test
    void everyArgumentArrivesVerbatimThroughTheRemoteLoginShell() {
        List<String> arguments = new ArrayList<>(List.of("", " ", "'", "\"", "$(touch /tmp/gantry-pwned)",
                "`touch /tmp/gantry-pwned`", "${HOME}", "a;touch /tmp/gantry-pwned", "*", "/etc/*", "?", "~", "\n",
                "a\nb", "\\", "-n", "--", "-e", "!", "#x", "if", "A=b", "|", "&", "> /tmp/gantry-pwned",
                "gr\u00fc\u00dfe \u6a21\u578b \ud83d\ude80", "\t", "'\"'\"'"));
        Random random = new Random(42);
        String alphabet = "'\"$`\\\n ;&|<>(){}*?~!#=-\u00e9\ud83d\ude80x";
        int[] codePoints = alphabet.codePoints().toArray();
        for (int n = 0; n < 200; n++) {
            StringBuilder argument = new StringBuilder();
            for (int c = random.nextInt(10); c > 0; c--) {
                argument.appendCodePoint(codePoints[random.nextInt(codePoints.length)]);
            }
            arguments.add(argument.toString());
        }
        List<String> argv = new ArrayList<>(List.of("printf", "%s\\000"));
        argv.addAll(arguments);
        RemoteResult result = pool.exec(h1, argv, TIMEOUT);
        assertEquals(0, result.exitCode(), result.stderrText());
        assertEquals(arguments, ShellQuotingTest.splitNul(result.stdout()));
        assertEquals(1, pool.exec(h1, List.of("test", "-e", "/tmp/gantry-pwned"), TIMEOUT).exitCode(),
                "no argument may have run as a command");
    }

    @Test
    void stdinIsFedThenClosed() {
        byte[] input = "line one\nline 'two' $(x)\n\u00e9\n".getBytes(StandardCharsets.UTF_8);
        RemoteResult result = pool.exec(h1, List.of("cat"), Optional.of(input), TIMEOUT);
        assertArrayEquals(input, result.stdout());
        assertEquals("0", pool.exec(h1, List.of("wc", "-c"), TIMEOUT).stdoutText().strip(),
                "no stdin means EOF at once");
    }

    @Test
    void aCommandPastItsTimeoutIsStoppedAndReported() {
        String marker = "gantry-timeout-" + System.nanoTime();
        long started = System.nanoTime();
        GantryException e = assertThrows(GantryException.class,
                () -> pool.exec(h1, List.of("sh", "-c", "sleep 30; : " + marker), Duration.ofMillis(700)));
        long elapsedMillis = (System.nanoTime() - started) / 1_000_000;
        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertTrue(e.getMessage().contains("`sh` on " + h1.host() + ":22 did not finish within 700 ms"),
                e.getMessage());
        assertFalse(e.getMessage().contains(marker), "the command line must not be printed");
        assertTrue(elapsedMillis >= 700 && elapsedMillis < 3000, "took " + elapsedMillis + " ms");
        assertRemoteProcessGone(h1, marker);
        // The pooled session survives a killed channel.
        assertEquals("ok\n", pool.exec(h1, List.of("echo", "ok"), TIMEOUT).stdoutText());
    }

    @Test
    void severalMegabytesOfOutputArriveWhole() {
        RemoteResult result = pool.exec(h1, List.of("sh", "-c",
                "head -c 6000000 /dev/zero | tr '\\0' x; head -c 2000000 /dev/zero | tr '\\0' y >&2"), TIMEOUT);
        assertEquals(0, result.exitCode());
        assertEquals(6_000_000, result.stdout().length);
        assertEquals(2_000_000, result.stderr().length);
        assertTrue(result.stdoutText().chars().allMatch(c -> c == 'x'));
    }

    @Test
    void streamingHandsOverEachLineAsItComes() throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        try (RemoteCommand command = pool.stream(h2, List.of("sh", "-c",
                "for i in 1 2 3; do echo \"line $i\"; sleep 0.2; done; printf 'no newline'; echo oops >&2; exit 4"),
                lines::add)) {
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (lines.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(List.of("line 1"), lines, "the first line arrives before the command ends");
            assertTrue(command.isRunning());
            assertEquals(OptionalInt.of(4), command.awaitExit(Duration.ofSeconds(10)));
            assertEquals(List.of("line 1", "line 2", "line 3", "no newline"), lines);
            assertEquals("oops\n", command.stderrText());
        }
    }

    @Test
    void streamedLinesAreUtf8WithoutTheirLineEnds() throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        // Multi-byte characters cut across network packets must still decode: 40000 of them in one line.
        try (RemoteCommand command = pool.stream(h1, List.of("sh", "-c",
                "printf 'caf\\303\\251\\r\\n\\n'; i=0; while [ $i -lt 40000 ]; do printf '\\303\\251'; "
                        + "i=$((i+1)); done; echo; printf 'last'"), lines::add)) {
            assertEquals(OptionalInt.of(0), command.awaitExit(TIMEOUT));
        }
        assertEquals(List.of("caf\u00e9", "", "\u00e9".repeat(40000), "last"), lines);
    }

    @Test
    void aCancelledStreamStopsTheRemoteCommand() throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        String marker = "gantry-follow-" + System.nanoTime();
        RemoteCommand command = pool.stream(h2, List.of("sh", "-c",
                "while :; do echo tick; sleep 0.1; done; : " + marker), lines::add);
        assertEquals(OptionalInt.empty(), command.awaitExit(Duration.ofMillis(500)));
        assertTrue(lines.size() >= 2, "ticks so far: " + lines);
        command.cancel();
        assertFalse(command.isRunning());
        int seen = lines.size();
        Thread.sleep(400);
        assertTrue(lines.size() <= seen + 1, "no lines after cancel: " + lines.size() + " vs " + seen);
        assertRemoteProcessGone(h2, marker);
    }

    private static void assertRemoteProcessGone(SshTarget host, String marker) {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        int found;
        do {
            found = pool.exec(host, List.of("pgrep", "-f", marker), TIMEOUT).exitCode();
        } while (found == 0 && System.nanoTime() < deadline);
        assertEquals(1, found, "the remote process of " + marker + " must be gone");
    }

    @Test
    void aThrowingLineCallbackCancelsOnlyItsCommand() throws Exception {
        RemoteCommand command = pool.stream(h1, List.of("sh", "-c", "while :; do echo x; sleep 0.05; done"), line -> {
            throw new IllegalStateException("consumer broke");
        });
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (command.isRunning() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertFalse(command.isRunning());
        assertTrue(command.stderrText().contains("line callback failed"), command.stderrText());
        assertEquals("still fine\n", pool.exec(h1, List.of("echo", "still fine"), TIMEOUT).stdoutText());
    }
}
