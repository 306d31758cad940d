package dev.gantry.backend.cyclecloud.slurm;

import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.ssh.ClientIdentity;
import dev.gantry.ssh.HostKeyPolicy;
import dev.gantry.ssh.SshTarget;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The real Slurm cluster scripts/test-cluster.sh runs on this machine: a controller, two compute nodes in network
 * namespaces and a login node's sshd. Started when it is not up; when that is impossible (not root, Slurm not
 * installed) the calling test fails, never skips: run scripts/test-all.sh as root, which installs what is needed.
 */
public final class TestCluster {
    private static final Path STATE = Path.of(System.getenv().getOrDefault("GANTRY_TEST_CLUSTER_DIR",
            "/var/lib/gantry-test-cluster"));

    private final Map<String, String> env;

    private TestCluster(Map<String, String> env) {
        this.env = env;
    }

    /** The cluster, started first if needed. */
    public static TestCluster get() {
        Map<String, String> env = read();
        if (env.isEmpty() || !accepts(env)) {
            script("up");
            env = read();
            if (env.isEmpty() || !accepts(env)) {
                fail("scripts/test-cluster.sh up ran but " + STATE.resolve("cluster.env") + " lists no reachable "
                        + "login node; run scripts/test-all.sh as root");
            }
        }
        return new TestCluster(env);
    }

    public String value(String key) {
        String value = env.get(key);
        if (value == null) {
            fail(STATE.resolve("cluster.env") + " has no " + key);
        }
        return value;
    }

    public List<String> nodes() {
        return List.of(value("SLURM_NODES").split(" "));
    }

    /**
     * The backend's settings for this cluster, with a work directory of the caller's own under the shared directory
     * (so test runs never see each other's jobs), and the login node's key pinned.
     */
    public Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("scheduler", "slurm");
        settings.put("address", value("LOGIN_ADDRESS"));
        settings.put("port", value("LOGIN_PORT"));
        settings.put("user", value("LOGIN_USER"));
        settings.put("identityFile", value("LOGIN_IDENTITY"));
        settings.put("hostKeyFingerprint", value("LOGIN_FINGERPRINT"));
        settings.put("workDir", sharedDirectory() + "/jobs-" + UUID.randomUUID());
        settings.put("jobCompLog", value("SLURM_JOBCOMP"));
        settings.put("partitions[0]", "tck-small=hpc");
        return settings;
    }

    /** The login node as the test user reaches it, its host key pinned: where a user's qsub and sbatch run. */
    public SshTarget login() {
        return SshTarget.of(value("LOGIN_ADDRESS"), Integer.parseInt(value("LOGIN_PORT")), value("LOGIN_USER"),
                ClientIdentity.keyFile(Path.of(value("LOGIN_IDENTITY"))),
                HostKeyPolicy.pinned(value("LOGIN_FINGERPRINT")));
    }

    /** The VM size whose jobs run in the Grid Engine queue of the compute nodes ({@link #gridEngineSettings()}). */
    public static final String GRID_ENGINE_NODE_SIZE = "tck-nodes";

    /**
     * The backend's settings for the cluster's Grid Engine (the same login node and shared directory): jobs of the
     * test's small size go to the queue on this host, several slots through its {@code smp} parallel environment;
     * jobs of {@link #GRID_ENGINE_NODE_SIZE} go to the compute nodes' queue, several hosts through its parallel
     * environment of one slot per host.
     */
    public Map<String, String> gridEngineSettings() {
        Map<String, String> settings = settings();
        settings.put("scheduler", "gridengine");
        settings.remove("jobCompLog");
        settings.put("partitions[0]", "tck-small=" + value("GE_QUEUE"));
        settings.put("partitions[1]", GRID_ENGINE_NODE_SIZE + "=" + value("GE_NODE_QUEUE"));
        settings.put("parallelEnvironment", "smp");
        settings.put("multiNodeParallelEnvironment", value("GE_NODE_PE"));
        return settings;
    }

    /** Runs a Grid Engine client or admin command here, as root (this machine is the qmaster). */
    public static String gridEngine(String... argv) {
        return run(List.of(argv), String.join(" ", argv));
    }

    /** A directory every node and the login node see alike, writable by the login user. */
    public String sharedDirectory() {
        return value("SHARED_DIR");
    }

    /** Runs a Slurm client command here, as root (this machine is the controller). */
    public static String slurm(String... argv) {
        return run(List.of(argv), String.join(" ", argv));
    }

    /** Runs scripts/test-cluster.sh with the given arguments; fails the test with its output if it fails. */
    public static String script(String... args) {
        List<String> command = new ArrayList<>(List.of("bash", findScript().toString()));
        command.addAll(List.of(args));
        return run(command, "scripts/test-cluster.sh " + String.join(" ", args));
    }

    private static String run(List<String> command, String what) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(180, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail(what + " did not finish within 180 s");
            }
            String text = new String(output, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                fail(what + " failed (exit " + process.exitValue() + "): " + text.strip()
                        + "\nThe Slurm tests need the real test cluster: run scripts/test-all.sh as root (it "
                        + "installs Slurm and munge and starts them).");
            }
            return text;
        } catch (IOException e) {
            return fail(what + " could not run: " + e + "; run scripts/test-all.sh as root");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted while running " + what);
        }
    }

    private static Map<String, String> read() {
        Map<String, String> env = new LinkedHashMap<>();
        Path file = STATE.resolve("cluster.env");
        if (!Files.isReadable(file)) {
            return env;
        }
        try {
            for (String line : Files.readAllLines(file)) {
                int eq = line.indexOf('=');
                if (line.startsWith("#") || eq < 0) {
                    continue;
                }
                String value = line.substring(eq + 1);
                if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                    value = value.substring(1, value.length() - 1);
                }
                env.put(line.substring(0, eq), value);
            }
        } catch (IOException e) {
            fail("cannot read " + file + ": " + e);
        }
        return env;
    }

    private static boolean accepts(Map<String, String> env) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(env.getOrDefault("LOGIN_ADDRESS", "127.0.0.1"),
                    Integer.parseInt(env.getOrDefault("LOGIN_PORT", "2222"))), 500);
            String state = run(List.of("timeout", "5", "sinfo", "-h", "-o", "%t"), "sinfo");
            // Grid Engine's qmaster answers too (run fails, and so refuses, when it does not).
            run(List.of("timeout", "5", "qconf", "-sh"), "qconf -sh");
            return state.lines().anyMatch(l -> l.startsWith("idle") || l.startsWith("mix") || l.startsWith("alloc"));
        } catch (IOException | AssertionError e) {
            return false;
        }
    }

    private static Path findScript() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path script = dir.resolve("scripts/test-cluster.sh");
            if (Files.isRegularFile(script)) {
                return script;
            }
        }
        return fail("scripts/test-cluster.sh not found above " + Path.of("").toAbsolutePath()
                + "; run the tests from the Gantry repository");
    }
}
