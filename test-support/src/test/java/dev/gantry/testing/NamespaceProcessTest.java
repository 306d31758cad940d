package dev.gantry.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Processes as test nodes run them, on this machine's own network (the namespaces themselves are exercised by the
 * modules whose scripts make them): exact environment, own hostname, own process group, killed whole.
 */
class NamespaceProcessTest {
    private static final String PATH = "/usr/local/bin:/usr/bin:/bin";

    @TempDir
    Path work;

    @Test
    void theEnvironmentIsExactlyTheOneGivenAndNothingIsInherited() throws Exception {
        Map<String, String> environment = Map.of("PATH", PATH, "WITH_SPACE", "a b", "EMPTY", "", "QUOTES", "'\"$x");
        assertEquals(new TreeSet<>(List.of("PATH=" + PATH, "WITH_SPACE=a b", "EMPTY=", "QUOTES='\"$x")),
                new TreeSet<>(runToEnd("", List.of("/usr/bin/env"), environment).lines().toList()));
    }

    @Test
    void aHostnameOfItsOwnLeavesTheEnvironmentExact() throws Exception {
        Map<String, String> environment = Map.of("PATH", PATH, "A", "1");
        assertEquals("node-7\n", runToEnd("node-7", List.of("/bin/uname", "-n"), environment));
        assertEquals(new TreeSet<>(List.of("PATH=" + PATH, "A=1")),
                new TreeSet<>(runToEnd("node-7", List.of("/usr/bin/env"), environment).lines().toList()));
        assertEquals(new TreeSet<>(List.of("PATH=" + PATH, "PWD=/given")), new TreeSet<>(runToEnd("node-7",
                List.of("/usr/bin/env"), Map.of("PATH", PATH, "PWD", "/given")).lines().toList()));
    }

    @Test
    void stdoutAndStderrGoWhereTheyAreSentApartOrTogether() throws Exception {
        List<String> argv = List.of("/bin/sh", "-c", "echo out; echo err >&2; echo out2");
        Path out = work.resolve("out.txt");
        Path err = work.resolve("err.txt");
        NamespaceProcess apart = NamespaceProcess.start(spec("", argv, Map.of(), ProcessBuilder.Redirect.to(
                out.toFile()), ProcessBuilder.Redirect.to(err.toFile())));
        assertEquals(0, apart.exit().get(10, TimeUnit.SECONDS));
        assertEquals("out\nout2\n", Files.readString(out));
        assertEquals("err\n", Files.readString(err));
        Path both = work.resolve("both.txt");
        ProcessBuilder.Redirect log = ProcessBuilder.Redirect.appendTo(both.toFile());
        assertEquals(0, NamespaceProcess.start(spec("", argv, Map.of(), log, log)).exit().get(10, TimeUnit.SECONDS));
        assertEquals("out\nerr\nout2\n", Files.readString(both));
    }

    @Test
    void theWorkingDirectoryIsMadeAndTheExitCodeReported() throws Exception {
        Path dir = work.resolve("made/here");
        Path out = work.resolve("pwd.txt");
        NamespaceProcess process = NamespaceProcess.start(new NamespaceProcess.Spec("", "", List.of("/bin/sh", "-c",
                "pwd; exit 7"), Map.of(), dir, ProcessBuilder.Redirect.to(out.toFile()),
                ProcessBuilder.Redirect.DISCARD));
        assertEquals(7, process.exit().get(10, TimeUnit.SECONDS));
        assertEquals(dir + "\n", Files.readString(out));
    }

    @Test
    void theFirstProcessLeadsItsOwnSessionAndProcessGroup() throws Exception {
        NamespaceProcess process = NamespaceProcess.start(spec("", List.of("/bin/sleep", "30"), Map.of(),
                ProcessBuilder.Redirect.DISCARD, ProcessBuilder.Redirect.DISCARD));
        try {
            awaitProgram(process.pid(), "sleep");
            String[] stat = statFields(process.pid());
            assertEquals(String.valueOf(process.pid()), stat[4], "process group");
            assertEquals(String.valueOf(process.pid()), stat[5], "session");
        } finally {
            process.killGroup();
        }
    }

    @Test
    void killingTheGroupKillsAGrandchildWhoseParentHasEnded() throws Exception {
        Path grandchildPid = work.resolve("grandchild.pid");
        // The subshell starts the grandchild and ends at once: the grandchild is re-parented, out of reach of a
        // kill that walks the first process's descendants.
        NamespaceProcess process = NamespaceProcess.start(spec("", List.of("/bin/sh", "-c",
                "(sleep 300 & echo $! > grandchild.pid); exec sleep 300"), Map.of(), ProcessBuilder.Redirect.DISCARD,
                ProcessBuilder.Redirect.DISCARD));
        long grandchild = awaitPid(grandchildPid);
        assertTrue(alive(grandchild), "the grandchild runs before the kill");
        assertTrue(process.process().descendants().noneMatch(p -> p.pid() == grandchild),
                "the grandchild is no descendant of the first process any more");
        process.killGroup();
        assertEquals(137, process.exit().get(10, TimeUnit.SECONDS));
        awaitGone(grandchild);
    }

    @Test
    void terminatingTheGroupReachesEveryMember() throws Exception {
        Path grandchildPid = work.resolve("grandchild.pid");
        NamespaceProcess process = NamespaceProcess.start(spec("", List.of("/bin/sh", "-c",
                "(sleep 300 & echo $! > grandchild.pid); exec sleep 300"), Map.of(), ProcessBuilder.Redirect.DISCARD,
                ProcessBuilder.Redirect.DISCARD));
        long grandchild = awaitPid(grandchildPid);
        process.terminateGroup();
        assertEquals(143, process.exit().get(10, TimeUnit.SECONDS));
        awaitGone(grandchild);
    }

    @Test
    void aMissingNamespaceIsNamedWithTheCommandThatMakesIt() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> NamespaceProcess.requireNamespace("gantry-none99", "scripts/test-something.sh up"));
        assertEquals("the network namespace gantry-none99 does not exist; make it with scripts/test-something.sh up"
                + " (as root)", e.getMessage());
    }

    @Test
    void anEmptyArgvIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> spec("", List.of(), Map.of(),
                ProcessBuilder.Redirect.DISCARD, ProcessBuilder.Redirect.DISCARD));
        assertEquals("argv is empty: a process needs at least its program", e.getMessage());
    }

    private String runToEnd(String hostname, List<String> argv, Map<String, String> environment) throws Exception {
        Path out = Files.createTempFile(work, "out", ".txt");
        NamespaceProcess process = NamespaceProcess.start(new NamespaceProcess.Spec("", hostname, argv, environment,
                work, ProcessBuilder.Redirect.to(out.toFile()), ProcessBuilder.Redirect.INHERIT));
        assertEquals(0, process.exit().get(10, TimeUnit.SECONDS));
        return Files.readString(out);
    }

    private NamespaceProcess.Spec spec(String hostname, List<String> argv, Map<String, String> environment,
            ProcessBuilder.Redirect stdout, ProcessBuilder.Redirect stderr) {
        return new NamespaceProcess.Spec("", hostname, argv, environment, work, stdout, stderr);
    }

    /** /proc/PID/stat after the command name (which may hold spaces): state, ppid, pgrp, session, ... from [2]. */
    private static String[] statFields(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
        String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        String[] fields = new String[rest.length + 2];
        System.arraycopy(rest, 0, fields, 2, rest.length);
        return fields;
    }

    /** Running, and not a zombie waiting for a parent (or init) to reap it. */
    private static boolean alive(long pid) {
        try {
            return !statFields(pid)[2].equals("Z");
        } catch (IOException gone) {
            return false;
        }
    }

    /** Until the wrappers before it have exec'd the workload's program. */
    private static void awaitProgram(long pid, String program) throws InterruptedException, IOException {
        Path comm = Path.of("/proc", String.valueOf(pid), "comm");
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        while (!Files.readString(comm).strip().equals(program)) {
            assertTrue(Instant.now().isBefore(deadline), pid + " did not exec " + program + " within 10 s");
            Thread.sleep(20);
        }
    }

    private static long awaitPid(Path file) throws InterruptedException, IOException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        while (Instant.now().isBefore(deadline)) {
            if (Files.exists(file) && !Files.readString(file).isBlank()) {
                return Long.parseLong(Files.readString(file).strip());
            }
            Thread.sleep(20);
        }
        throw new AssertionError(file + " was not written within 10 s");
    }

    private static void awaitGone(long pid) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        while (alive(pid) && Instant.now().isBefore(deadline)) {
            Thread.sleep(20);
        }
        assertFalse(alive(pid), "process " + pid + " still runs after the group was signalled");
    }
}
