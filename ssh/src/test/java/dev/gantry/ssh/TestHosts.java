package dev.gantry.ssh;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real SSH hosts that scripts/test-hosts.sh runs on this machine (OpenSSH servers in network namespaces), for
 * tests of everything that speaks SSH. Starts them when they are not up; when that is impossible (not root, sshd not
 * installed) the calling test fails, never skips: run scripts/test-all.sh as root, which installs what is needed.
 *
 * <p>Modules built in parallel (the test command builds with {@code -T}) share them, but never with a fault test: a
 * JVM holds a shared lock from its first use of the hosts, and an exclusive one from the first fault it injects, both
 * until it ends ({@link #lease}), so that no sshd restarts or host switched off meets another module's connections.
 */
public final class TestHosts {

    /** Hosts the tests expect; scripts/test-hosts.sh up starts this many. */
    public static final int COUNT = 2;

    /** One test host as scripts/test-hosts.sh lists it. */
    public record Host(String name, String address, int port, String user, Path identity, String fingerprint) {
        /** This host with its key pinned, the way production configurations should trust hosts. */
        public SshTarget target() {
            return SshTarget.of(address, port, user, ClientIdentity.keyFile(identity),
                    HostKeyPolicy.pinned(fingerprint));
        }

        /** The K in gantry-hK, as the fault-injection commands of the script take it. */
        public int number() {
            return Integer.parseInt(name.substring(name.lastIndexOf('h') + 1));
        }
    }

    private TestHosts() {
    }

    /** The state directory the script writes (GANTRY_TEST_HOSTS_DIR, as the script reads it). */
    public static Path stateDir() {
        String dir = System.getenv("GANTRY_TEST_HOSTS_DIR");
        return Path.of(dir == null || dir.isEmpty() ? "/var/lib/gantry-test-hosts" : dir);
    }

    /** The known_hosts file listing every host that is up. */
    public static Path knownHosts() {
        return stateDir().resolve("known_hosts");
    }

    /** The lock file's channel and the lock this JVM holds on it, from its first use of the hosts until it ends. */
    private static FileChannel leaseFile;
    private static FileLock lease;

    /**
     * Takes this JVM's turn on the hosts: shared for a JVM that only uses them, exclusive from the first fault it
     * injects (an sshd stopped or restarted, sessions dropped, a host powered off) until the JVM ends, which the
     * operating system releases. Kept for the life of the JVM, not per test: the modules that use the hosts run their
     * classes in one fork each, and a fault test's cases leave the hosts up again only at their end. Upgrading lets
     * go of the shared lock first, so two JVMs that both inject faults never wait on each other.
     */
    private static synchronized void lease(boolean faults) {
        if (lease != null && (!lease.isShared() || !faults)) {
            return;
        }
        Path file = stateDir().resolveSibling(stateDir().getFileName() + ".tests.lock");
        try {
            if (leaseFile == null) {
                leaseFile = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
            }
            if (lease != null) {
                lease.release();
                lease = null;
            }
            FileLock taken = leaseFile.tryLock(0, Long.MAX_VALUE, !faults);
            if (taken == null) {
                System.err.println("waiting for " + (faults ? "every other test JVM that uses the SSH test hosts "
                        + "to end before injecting faults" : "a test JVM that injects faults into the SSH test hosts "
                        + "to end") + " (" + file + ")");
                taken = leaseFile.lock(0, Long.MAX_VALUE, !faults);
            }
            lease = taken;
        } catch (IOException e) {
            fail("cannot lock " + file + " to use the SSH test hosts: " + e + "; run scripts/test-all.sh as root");
        }
    }

    /** Every test host, started first if needed. */
    public static List<Host> hosts() {
        lease(false);
        List<Host> hosts = readHosts();
        if (hosts.size() >= COUNT && hosts.stream().allMatch(TestHosts::accepts)) {
            return hosts;
        }
        script("up", String.valueOf(COUNT));
        hosts = readHosts();
        if (hosts.size() < COUNT || !hosts.stream().allMatch(TestHosts::accepts)) {
            fail("scripts/test-hosts.sh up " + COUNT + " ran but " + stateDir().resolve("hosts") + " lists "
                    + hosts + "; run scripts/test-all.sh as root");
        }
        return hosts;
    }

    /** Test host number {@code k} (1-based), started first if needed. */
    public static Host host(int k) {
        return hosts().get(k - 1);
    }

    /** Runs scripts/test-hosts.sh with the given arguments; fails the test with its output if it fails. */
    public static String script(String... args) {
        lease(args.length > 0 && !args[0].equals("up"));
        Path script = findScript();
        List<String> command = new ArrayList<>(List.of("bash", script.toString()));
        command.addAll(List.of(args));
        return run(command, "scripts/test-hosts.sh " + String.join(" ", args));
    }

    /** Established SSH connections into a host, counted on the server side. */
    public static int serverConnections(Host host) {
        String out = run(List.of("ip", "netns", "exec", host.name(), "ss", "-H", "-t", "-n", "state", "established",
                "( sport = :" + host.port() + " )"), "ss in " + host.name());
        return (int) out.lines().filter(line -> !line.isBlank()).count();
    }

    private static String run(List<String> command, String what) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail(what + " did not finish within 60 s");
            }
            String text = new String(output, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                fail(what + " failed (exit " + process.exitValue() + "): " + text.strip()
                        + "\nThe SSH tests need real test hosts: run scripts/test-all.sh as root (it installs "
                        + "openssh-server and iproute2 and starts them).");
            }
            return text;
        } catch (IOException e) {
            return fail(what + " could not run: " + e + "; run scripts/test-all.sh as root");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted while running " + what);
        }
    }

    private static List<Host> readHosts() {
        Path file = stateDir().resolve("hosts");
        List<Host> hosts = new ArrayList<>();
        if (!Files.isReadable(file)) {
            return hosts;
        }
        try {
            for (String line : Files.readAllLines(file)) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t");
                if (f.length != 6) {
                    fail(file + " has a malformed line (want 6 tab-separated fields): " + line);
                }
                hosts.add(new Host(f[0], f[1], Integer.parseInt(f[2]), f[3], Path.of(f[4]), f[5]));
            }
        } catch (IOException e) {
            fail("cannot read " + file + ": " + e);
        }
        return hosts;
    }

    private static boolean accepts(Host host) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host.address(), host.port()), (int) Duration.ofMillis(500).toMillis());
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static Path findScript() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path script = dir.resolve("scripts/test-hosts.sh");
            if (Files.isRegularFile(script)) {
                return script;
            }
        }
        return fail("scripts/test-hosts.sh not found above " + Path.of("").toAbsolutePath()
                + "; run the tests from the Gantry repository");
    }
}
