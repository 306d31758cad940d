package dev.gantry.cli.swap;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.backend.aks.testcluster.KubeTestCluster;
import dev.gantry.backend.aks.testcluster.NodeSlot;
import dev.gantry.backend.aks.testcluster.NodeTemplate;
import dev.gantry.backend.batch.fake.BatchFake;
import dev.gantry.backend.batch.fake.BatchFakeOptions;
import dev.gantry.backend.cyclecloud.slurm.TestCluster;
import dev.gantry.ssh.TestHosts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The backends of the test environment as sections of one gantry.yaml, for tests that run the same spec on each of
 * them by configuration alone. Each method returns a {@link Section}: the backend's name (what {@code backend:}
 * says), its settings as YAML lines under {@code backends:}, and what it started for them (closed with the
 * section). {@link #config} puts sections together into a whole file.
 *
 * <ul>
 *   <li>{@link #manualLocal}: the manual backend's local transport (this machine); {@link #manualLocalSpot} as a
 *       Spot VM whose Scheduled Events a fake instance metadata service serves;</li>
 *   <li>{@link #manualSsh}: the manual backend over SSH on the two test hosts (scripts/test-hosts.sh);
 *       {@link #manualSshSpot} with the hosts as Spot VMs;</li>
 *   <li>{@link #slurm} and {@link #gridEngine}: the cyclecloud backend on the test cluster's Slurm and Grid Engine
 *       (scripts/test-cluster.sh; {@link TestCluster});</li>
 *   <li>{@link #aks}: the aks backend on the Kubernetes test cluster ({@link KubeTestCluster}, started in this
 *       process over the node namespaces of scripts/test-kube.sh), whose two nodes are of the planned VM size;
 *       {@link #aksOneNode} with a single on-demand node in the test's own network;</li>
 *   <li>{@link #batch}: the batch backend on the Batch fake ({@link BatchFake}, started in this process, its nodes
 *       in the namespaces of scripts/test-batch.sh), a shared-key account over HTTP named after the planned region;
 *       {@link #batchSpot} on the fake as a process, an Entra ID account that can have Spot.</li>
 * </ul>
 *
 * {@link #config(Section, String...)} makes a file of one section, for tests of one backend; {@link #sharedDirectory}
 * gives a test a fresh directory on the test cluster's share.
 *
 * Two sections of one backend name (manual local and over SSH; cyclecloud on Slurm and on Grid Engine) cannot be in
 * one file: a test that runs on both makes one file per such environment, each holding every backend's section.
 */
public final class TestBackends {
    /** The Batch fake's supported image of the advisor's CPU plans, so that the backend's validate accepts it. */
    private static final String NODE_AGENT = "batch.node.ubuntu 22.04";
    /**
     * How often the Batch fake evaluates its pools' autoscale formulas: nodes join within a fraction of a second
     * (Batch's shortest interval, five minutes, would hold a two-node task that long).
     */
    private static final Duration AUTOSCALE_INTERVAL = Duration.ofMillis(200);

    private TestBackends() {
    }

    /**
     * One backend environment as a section of gantry.yaml.
     *
     * @param environment what the test calls it ({@code manual (ssh)}, {@code cyclecloud (slurm)})
     * @param backend the backend's name, as {@code backend:} and {@code backends.NAME} write it
     * @param lines the section's lines, indented as under {@code backends:}, starting with {@code "  NAME:"}
     * @param started what was started for it (a test cluster, a fake), closed with the section; or nothing
     */
    public record Section(String environment, String backend, List<String> lines, AutoCloseable started)
            implements AutoCloseable {
        public Section {
            lines = List.copyOf(lines);
        }

        @Override
        public void close() throws Exception {
            started.close();
        }
    }

    /** The planned VM size the test clusters offer nodes of (from {@code gantry plan SPEC --output json}). */
    public record PlannedSize(String vmSize, int vcpus, double memoryGib, String region, String imageUrn) {
    }

    /** The manual backend's local transport, cancels given 2 s. */
    public static Section manualLocal() {
        return new Section("manual (local)", "manual", List.of(
                "  manual:",
                "    transport: local",
                "    cancelGrace: 2s"), () -> { });
    }

    /**
     * The manual backend's local transport on this machine as an Azure Spot VM whose Scheduled Events are at
     * {@code eventsUrl} (a fake instance metadata service's).
     */
    public static Section manualLocalSpot(String eventsUrl) {
        return new Section("manual (local)", "manual", List.of(
                "  manual:",
                "    transport: local",
                "    cancelGrace: 2s",
                "    spot: true",
                "    scheduledEvents.endpoint: " + eventsUrl), () -> { });
    }

    /**
     * The manual backend over SSH on every test host, each with a work directory of its own under {@code shared}
     * (the hosts share this machine's file system; {@code shared} must be writable by their test user).
     */
    public static Section manualSsh(Path shared) {
        return ssh(shared, List.of());
    }

    /**
     * {@link #manualSsh} with every host an Azure Spot VM whose Scheduled Events are at {@code eventsUrl} (a fake
     * instance metadata service's, on an address the hosts reach).
     */
    public static Section manualSshSpot(Path shared, String eventsUrl) {
        return ssh(shared, List.of("    scheduledEvents.endpoint: " + eventsUrl, "    defaults: {spot: true}"));
    }

    private static Section ssh(Path shared, List<String> settings) {
        List<String> lines = new ArrayList<>(List.of(
                "  manual:",
                "    transport: ssh",
                "    cancelGrace: 2s"));
        lines.addAll(settings);
        lines.add("    hosts:");
        for (TestHosts.Host host : TestHosts.hosts()) {
            lines.add("      - {name: " + host.name() + ", address: " + host.address() + ", port: " + host.port()
                    + ", user: " + host.user() + ", identityFile: " + host.identity() + ", hostKeyFingerprint: '"
                    + host.fingerprint() + "', workDir: " + shared.resolve(host.name()) + "}");
        }
        return new Section("manual (ssh)", "manual", lines, () -> { });
    }

    /**
     * A fresh directory {@code PREFIX-UUID} under the test cluster's shared one, that the login user whose jobs
     * write there can write to.
     */
    public static Path sharedDirectory(TestCluster cluster, String prefix) throws IOException {
        return writable(Path.of(cluster.sharedDirectory()).resolve(prefix + "-" + UUID.randomUUID()));
    }

    /**
     * {@code directory}, made if missing, that every test user may read, write and search (the SSH hosts' and the
     * cluster's users write their jobs there).
     */
    static Path writable(Path directory) throws IOException {
        Files.createDirectories(directory);
        directory.toFile().setWritable(true, false);
        directory.toFile().setExecutable(true, false);
        directory.toFile().setReadable(true, false);
        return directory;
    }

    /** The cyclecloud backend on the test cluster's Slurm, jobs under {@code shared/jobs} (on the cluster's share). */
    public static Section slurm(TestCluster cluster, Path shared) {
        List<String> lines = new ArrayList<>(login(cluster, shared, "slurm"));
        lines.add("    jobCompLog: " + cluster.value("SLURM_JOBCOMP"));
        return new Section("cyclecloud (slurm)", "cyclecloud", lines, () -> { });
    }

    /**
     * The cyclecloud backend on the test cluster's Grid Engine: jobs of {@code vmSizes} go to the compute nodes'
     * queue (one or several hosts, through its parallel environment of one slot per host), where a rescheduled
     * job runs again.
     */
    public static Section gridEngine(TestCluster cluster, Path shared, Collection<String> vmSizes) {
        List<String> lines = new ArrayList<>(login(cluster, shared, "gridengine"));
        lines.add("    partitions: [" + vmSizes.stream().distinct().map(size -> size + "=" + cluster.value(
                "GE_NODE_QUEUE")).collect(Collectors.joining(", ")) + "]");
        lines.add("    parallelEnvironment: smp");
        lines.add("    multiNodeParallelEnvironment: " + cluster.value("GE_NODE_PE"));
        return new Section("cyclecloud (gridengine)", "cyclecloud", lines, () -> { });
    }

    private static List<String> login(TestCluster cluster, Path shared, String scheduler) {
        return List.of(
                "  cyclecloud:",
                "    scheduler: " + scheduler,
                "    address: " + cluster.value("LOGIN_ADDRESS"),
                "    port: " + cluster.value("LOGIN_PORT"),
                "    user: " + cluster.value("LOGIN_USER"),
                "    identityFile: " + cluster.value("LOGIN_IDENTITY"),
                "    hostKeyFingerprint: '" + cluster.value("LOGIN_FINGERPRINT") + "'",
                "    workDir: " + shared.resolve("jobs"));
    }

    /**
     * The aks backend on a Kubernetes test cluster started now, with two nodes of {@code size} (Spot nodes when
     * {@code spot}) in the node namespaces gantry-k1 and gantry-k2; pods of images other than the kit's busybox run
     * as processes of this machine, so that the default image only has to be named. Its kubeconfig goes to
     * {@code directory}.
     */
    public static Section aks(Path directory, PlannedSize size, boolean spot) {
        List<NodeTemplate> nodes = new ArrayList<>();
        for (int k = 1; k <= 2; k++) {
            nodes.add(node(NodeSlot.kube(k), size, spot));
        }
        return aks(directory, nodes);
    }

    /**
     * {@link #aks} with a single on-demand node of {@code size} whose pods run in the test's own network, so that
     * it needs none of scripts/test-kube.sh's node namespaces.
     */
    public static Section aksOneNode(Path directory, PlannedSize size) {
        return aks(directory, List.of(node(NodeSlot.host(1), size, false)));
    }

    /** A node of {@code size}'s vCPUs and memory, in an AKS pool of that size. */
    private static NodeTemplate node(NodeSlot slot, PlannedSize size, boolean spot) {
        return new NodeTemplate(slot, pool(size.vmSize()), size.vmSize(), spot, Map.of(
                "cpu", Integer.toString(size.vcpus()),
                "memory", Math.round(size.memoryGib() * 1024) + "Mi",
                "pods", "110", "ephemeral-storage", "100Gi"), List.of());
    }

    private static Section aks(Path directory, List<NodeTemplate> nodes) {
        KubeTestCluster cluster = KubeTestCluster.builder().nodes(nodes).start();
        Path kubeconfig = cluster.writeKubeconfig(directory.resolve("kubeconfig"));
        return new Section("aks", "aks", List.of(
                "  aks:",
                "    kubeconfig: " + kubeconfig,
                "    namespace: " + cluster.namespace(),
                "    defaultImage: docker.io/library/python:3.12-slim"), cluster);
    }

    /** An AKS pool name of the size's letters and digits ({@code Standard_E2as_v5} is {@code e2asv5}). */
    private static String pool(String vmSize) {
        String name = vmSize.toLowerCase(Locale.ROOT).replaceFirst("^standard_", "").replaceAll("[^a-z0-9]", "");
        return name.substring(0, Math.min(12, name.length()));
    }

    /**
     * The batch backend on a Batch fake started now: a shared-key (Batch-managed) account over HTTP on loopback,
     * named after the planned region (a loopback URL names no account), that supports the planned image; its key in
     * {@code directory}. Gantry makes the pools, which the fake scales every 200 ms; an idle one goes after 5 s.
     * Shared-key accounts have no Spot: {@link #batchSpot} has it.
     */
    public static Section batch(Path directory, PlannedSize size) throws IOException {
        BatchFake fake = new BatchFake(new BatchFakeOptions().account(size.region())
                .autoscaleInterval(AUTOSCALE_INTERVAL).nodeRetention(Duration.ofSeconds(5)));
        try {
            String[] urn = size.imageUrn().split(":");
            List<ObjectNode> images = new ArrayList<>(List.of(supportedImage(urn)));
            fake.supportedImages(images);
            Path key = Files.writeString(directory.resolve("batch.key"), fake.accountKey());
            return new Section("batch", "batch", List.of(
                    "  batch:",
                    "    accounts:",
                    "      - {url: \"" + fake.url() + "\", region: " + size.region() + ", auth: sharedKey, key: \"file:"
                            + key + "\"}",
                    "    idlePoolTimeout: 5s"), fake);
        } catch (IOException | RuntimeException e) {
            fake.close();
            throw e;
        }
    }

    /**
     * The batch backend on a Batch fake as Spot needs it, started now in a process of its own
     * ({@link EntraBatchFake}): a user-subscription account signed in with Microsoft Entra ID. A {@code gantry}
     * that uses this section runs in a JVM of its own: {@link EntraBatchFake#cli}.
     */
    public static Section batchSpot(Path directory, PlannedSize size) throws Exception {
        EntraBatchFake fake = EntraBatchFake.start(directory, size, NODE_AGENT);
        return new Section("batch", "batch", List.of(
                "  batch:",
                "    accounts:",
                "      - " + fake.account(),
                "    idlePoolTimeout: 5s"), fake);
    }

    /** Batch's ImageInformation of a marketplace image {@code PUBLISHER:OFFER:SKU[:VERSION]}, Docker-compatible. */
    private static ObjectNode supportedImage(String[] urn) {
        ObjectNode image = JsonNodeFactory.instance.objectNode();
        image.put("nodeAgentSKUId", NODE_AGENT);
        ObjectNode reference = image.putObject("imageReference");
        reference.put("publisher", urn[0]);
        reference.put("offer", urn[1]);
        reference.put("sku", urn[2]);
        reference.put("version", "latest");
        image.put("osType", "linux");
        image.putArray("capabilities").add("DockerCompatible");
        image.put("verificationType", "verified");
        return image;
    }

    /**
     * A gantry.yaml of {@code section} alone, for tests of one backend: {@code backend:} its backend, runs polled
     * every second, then the test's own top-level lines {@code more} (such as {@code spot:} settings).
     */
    public static String config(Section section, String... more) {
        List<String> lines = new ArrayList<>(List.of("backend: " + section.backend(), "backends:"));
        lines.addAll(section.lines());
        lines.add("runs:");
        lines.add("  pollInterval: 1s");
        lines.addAll(List.of(more));
        return String.join("\n", lines) + "\n";
    }

    /**
     * A whole gantry.yaml: {@code backend: BACKEND}, every section under {@code backends:}, the planned region as
     * the only one allowed, runs polled every second, and an evicted Spot step kept on Spot.
     */
    public static String config(String backend, String region, List<Section> sections) {
        List<String> lines = new ArrayList<>();
        lines.add("backend: " + backend);
        lines.add("defaults: {regions: [" + region + "]}");
        lines.add("backends:");
        sections.forEach(section -> lines.addAll(section.lines()));
        lines.add("runs:");
        lines.add("  pollInterval: 1s");
        lines.add("spot:");
        lines.add("  onDemandAfterEvictions: 0");
        return String.join("\n", lines) + "\n";
    }
}
