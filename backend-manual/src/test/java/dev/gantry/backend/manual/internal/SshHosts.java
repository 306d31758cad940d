package dev.gantry.backend.manual.internal;

import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.backend.manual.ManualBackendProvider;
import dev.gantry.ssh.TestHosts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The manual backend's ssh transport pointed at the real test hosts of scripts/test-hosts.sh. The hosts share this
 * machine's file system, so each gets its own work directory under one fresh directory per test class, as separate
 * machines would have; host keys are pinned by fingerprint.
 */
public final class SshHosts implements AutoCloseable {
    private final List<TestHosts.Host> hosts = TestHosts.hosts();
    private final Path root = Path.of("/tmp", "gantry-it-" + UUID.randomUUID());
    private final String user;

    /** The hosts as their test user logs in. */
    public SshHosts() {
        this(null);
    }

    private SshHosts(String user) {
        this.user = user;
    }

    /**
     * The hosts as root logs in (with the same test key): for the container tests, whose Podman runs rootful, as
     * a VM's admin runs it with sudo.
     */
    public static SshHosts asRoot() {
        return new SshHosts("root");
    }

    /** The configuration for the test hosts, plus {@code extra} keys (e.g. {@code hosts[0].gpus}). */
    public Map<String, String> config(Map<String, String> extra) {
        Map<String, String> config = new TreeMap<>();
        config.put("transport", "ssh");
        config.put("cancelGrace", "2s");
        config.put("defaults.user", user != null ? user : hosts.get(0).user());
        config.put("defaults.identityFile", hosts.get(0).identity().toString());
        config.put("defaults.connectTimeout", "2s");
        for (int i = 0; i < hosts.size(); i++) {
            TestHosts.Host h = hosts.get(i);
            config.put("hosts[" + i + "].name", h.name());
            config.put("hosts[" + i + "].address", h.address());
            config.put("hosts[" + i + "].hostKeyFingerprint", h.fingerprint());
            config.put("hosts[" + i + "].workDir", workDir(h.name()));
        }
        config.putAll(extra);
        return config;
    }

    /**
     * The PATH for a job whose ranks should find an {@code nvidia-smi} that lists {@code gpus} GPUs and reports no
     * memory errors: the test hosts have no GPU, and the node health check of a multi-node job with GPUs asks
     * {@code nvidia-smi} first ({@code StartChecks}). The hosts share this machine's file system, so one stand-in
     * serves both.
     */
    public String pathWithNvidiaSmi(int gpus) throws IOException {
        // Beside the work directories, not in their parent: the test user creates that one over SSH.
        Path bin = Path.of(root + "-bin");
        Files.createDirectories(bin);
        Path tool = bin.resolve("nvidia-smi");
        StringBuilder indexes = new StringBuilder();
        for (int i = 0; i < gpus; i++) {
            indexes.append(i).append("\\n");
        }
        Files.writeString(tool, "#!/bin/sh\ncase \"$*\" in\n  *--query-gpu=index\\ *|*--query-gpu=index) printf \""
                + indexes + "\";;\nesac\n");
        Files.setPosixFilePermissions(tool, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        return bin + ":/usr/local/bin:/usr/bin:/bin";
    }

    /** The work directory of a host by name. */
    public String workDir(String host) {
        return root.resolve(host).toString();
    }

    public TestHosts.Host host(int k) {
        return hosts.get(k - 1);
    }

    public ManualBackend backend(BackendContext context, Map<String, String> extra) {
        return (ManualBackend) new ManualBackendProvider().create(new BackendConfig("manual", config(extra)), context);
    }

    /**
     * Kills what still runs from these work directories (a case that failed half way; JUnit also runs a subclass's
     * cleanup before the conformance kit cancels its jobs), then removes the directories. The hosts share this
     * machine's process table and file system, so both are done here.
     */
    @Override
    public void close() throws IOException {
        ProcessHandle.allProcesses()
                .filter(p -> p.info().arguments().map(a -> java.util.Arrays.stream(a)
                        .anyMatch(arg -> arg.startsWith(root + "/"))).orElse(false))
                .forEach(p -> {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                });
        for (Path tree : List.of(root, Path.of(root + "-bin"))) {
            if (Files.exists(tree)) {
                try (Stream<Path> files = Files.walk(tree)) {
                    for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                        Files.deleteIfExists(p);
                    }
                }
            }
        }
    }
}
