package dev.gantry.backend.batch.fake.nodes;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fake's nodes in the namespaces {@code scripts/test-batch.sh nodes-up} makes: each node at its own address,
 * reachable from the others, tasks with exactly their environment, killed as a whole process group.
 */
class NamespaceNodeProcessesTest {
    private static final String PATH = "/usr/local/bin:/usr/bin:/bin";
    private static final int PORT = 29511;
    /** Rank 0: accepts one connection and says who it is and who called, as a rank-discovery master would. */
    private static final String LISTEN = "use IO::Socket::INET; my $s = IO::Socket::INET->new(LocalAddr => $ARGV[0],"
            + " LocalPort => $ARGV[1], Listen => 1, ReuseAddr => 1) or die \"listen: $!\"; print \"ready\\n\";"
            + " $| = 1; my $c = $s->accept; print 'master ', $c->sockhost, ' heard ', $c->peerhost, ': ',"
            + " scalar <$c>";
    private static final String CONNECT = "use IO::Socket::INET; for (1 .. 100) { my $c = IO::Socket::INET->new("
            + "PeerAddr => $ARGV[0], PeerPort => $ARGV[1]); if ($c) { print $c \"hello from $ENV{RANK}\\n\";"
            + " print 'reached ', $c->peerhost, ' from ', $c->sockhost, \"\\n\"; exit 0 } select(undef, undef,"
            + " undef, 0.1) } die \"never reached $ARGV[0]\\n\"";

    private final NamespaceNodeProcesses nodes = new NamespaceNodeProcesses();

    @TempDir
    Path work;

    @BeforeAll
    static void theNodeNamespacesExist() {
        NodeNetwork.requireAll(NodeNetwork.all());
    }

    @AfterEach
    void stopEverything() {
        nodes.close();
    }

    @Test
    void twoNodesEachAtItsOwnAddressReachOneAnother() throws Exception {
        NodeNetwork master = NodeNetwork.batch(1);
        NodeNetwork worker = NodeNetwork.batch(2);
        Path masterOut = work.resolve("master.out");
        NodeProcess listening = start(master, List.of("/usr/bin/perl", "-e", LISTEN, master.address(),
                String.valueOf(PORT)), Map.of("PATH", PATH), masterOut, work.resolve("master.err"));
        awaitContent(masterOut, "ready\n");
        Path workerOut = work.resolve("worker.out");
        NodeProcess connecting = start(worker, List.of("/usr/bin/perl", "-e", CONNECT, master.address(),
                String.valueOf(PORT)), Map.of("PATH", PATH, "RANK", "1"), workerOut, work.resolve("worker.err"));
        assertEquals(0, connecting.exit().get(20, TimeUnit.SECONDS), Files.readString(work.resolve("worker.err")));
        assertEquals(0, listening.exit().get(20, TimeUnit.SECONDS), Files.readString(work.resolve("master.err")));
        assertEquals("ready\nmaster 10.200.0.161 heard 10.200.0.162: hello from 1\n", Files.readString(masterOut));
        assertEquals("reached 10.200.0.161 from 10.200.0.162\n", Files.readString(workerOut));
    }

    @Test
    void everyNodeSeesOnlyItsOwnAddress() throws Exception {
        for (NodeNetwork node : NodeNetwork.all()) {
            Path out = work.resolve(node.namespace() + ".out");
            NodeProcess addresses = start(node, List.of("/sbin/ip", "-o", "-4", "addr", "show", "scope", "global"),
                    Map.of("PATH", PATH), out, work.resolve(node.namespace() + ".err"));
            assertEquals(0, addresses.exit().get(10, TimeUnit.SECONDS));
            List<String> inets = Files.readString(out).lines().map(l -> l.split("\\s+")[3]).toList();
            assertEquals(List.of(node.address() + "/24"), inets, node.namespace());
        }
    }

    @Test
    void theTaskGetsExactlyItsEnvironmentAndItsOwnFiles() throws Exception {
        Map<String, String> environment = Map.of("PATH", PATH, "AZ_BATCH_HOST_LIST", "10.200.0.161,10.200.0.162",
                "SPACES", " a  b ", "EMPTY", "", "QUOTED", "'\"$(x)`");
        Path out = work.resolve("stdout.txt");
        Path err = work.resolve("stderr.txt");
        Files.writeString(out, "earlier\n");
        NodeProcess env = start(NodeNetwork.batch(3), List.of("/bin/sh", "-c", "env; echo to-stderr >&2", "task"),
                environment, out, err);
        assertEquals(0, env.exit().get(10, TimeUnit.SECONDS));
        List<String> lines = Files.readString(out).lines().toList();
        assertEquals("earlier", lines.get(0), "stdout.txt is appended to");
        TreeSet<String> expected = new TreeSet<>(List.of("PATH=" + PATH, "AZ_BATCH_HOST_LIST=10.200.0.161,10.200.0.162",
                "SPACES= a  b ", "EMPTY=", "QUOTED='\"$(x)`", "PWD=" + work.resolve("task-dir")));
        assertEquals(expected, new TreeSet<>(lines.subList(1, lines.size())), "only PWD, which sh itself sets");
        assertEquals("to-stderr\n", Files.readString(err));
    }

    @Test
    void killingTheGroupEndsTheTaskAndAGrandchildItLeftRunning() throws Exception {
        Path pidFile = work.resolve("task-dir/grandchild.pid");
        NodeProcess task = start(NodeNetwork.batch(4), List.of("/bin/sh", "-c",
                "(sleep 300 & echo $! > grandchild.pid); exec sleep 300"), Map.of("PATH", PATH),
                work.resolve("out"), work.resolve("err"));
        long grandchild = Long.parseLong(awaitContent(pidFile, null).strip());
        assertTrue(alive(grandchild));
        task.killGroup();
        assertEquals(137, task.exit().get(10, TimeUnit.SECONDS));
        awaitGone(grandchild);
    }

    @Test
    void closingKillsEveryTaskStillRunning() throws Exception {
        NodeProcess first = start(NodeNetwork.batch(1), List.of("/bin/sleep", "300"), Map.of(), work.resolve("1"),
                work.resolve("1e"));
        NodeProcess second = start(NodeNetwork.batch(2), List.of("/bin/sleep", "300"), Map.of(), work.resolve("2"),
                work.resolve("2e"));
        nodes.close();
        assertEquals(137, first.exit().get(10, TimeUnit.SECONDS));
        assertEquals(137, second.exit().get(10, TimeUnit.SECONDS));
    }

    @Test
    void aMissingNodeNamespaceIsNamedWithTheCommandThatMakesIt() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> nodes.start("gantry-b99",
                List.of("/bin/true"), Map.of(), work, work.resolve("o"), work.resolve("e")));
        assertEquals("the network namespace gantry-b99 does not exist; make it with `scripts/test-batch.sh"
                + " nodes-up` (as root)", e.getMessage());
        IllegalArgumentException outOfRange = assertThrows(IllegalArgumentException.class,
                () -> NodeNetwork.batch(5));
        assertEquals("Batch fake node 5 does not exist; nodes are 1 to 4 (gantry-b1 to gantry-b4, made by"
                + " `scripts/test-batch.sh nodes-up`)", outOfRange.getMessage());
    }

    private NodeProcess start(NodeNetwork node, List<String> argv, Map<String, String> environment, Path out,
            Path err) throws IOException {
        return nodes.start(node.namespace(), argv, environment, work.resolve("task-dir"), out, err);
    }

    /** The file's content once it is {@code expected} (or, with null, once it is a whole line). */
    private static String awaitContent(Path file, String expected) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        while (Instant.now().isBefore(deadline)) {
            String content = Files.exists(file) ? Files.readString(file) : "";
            if (expected == null ? content.endsWith("\n") : content.equals(expected)) {
                return content;
            }
            Thread.sleep(20);
        }
        throw new AssertionError(file + " did not become " + (expected == null ? "a line" : expected) + " in 10 s");
    }

    /** Running, and not a zombie left for init to reap. */
    private static boolean alive(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException gone) {
            return false;
        }
    }

    private static void awaitGone(long pid) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        while (alive(pid) && Instant.now().isBefore(deadline)) {
            Thread.sleep(20);
        }
        assertFalse(alive(pid), "process " + pid + " still runs after its task's group was killed");
    }
}
