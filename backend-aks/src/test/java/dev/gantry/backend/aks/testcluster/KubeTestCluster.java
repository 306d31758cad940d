package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * A Kubernetes cluster for tests that runs what it is given: Fabric8's CRUD API server over HTTPS on 127.0.0.1,
 * behind a front that adds logs, evictions, the documented Role's 403s and a request count (see {@link ApiServer}).
 * Containers run as processes of this machine in their node's network namespace, except those of the busybox test
 * image ({@code TestPodman.IMAGE}), which run under Podman and see the image ({@link PodmanRuntime}; a pod of that
 * image fails to start, saying why, when Podman is not working).
 *
 * <p>Start it with {@code KubeTestCluster.builder().start()} (close it when done); hand the code under test
 * {@link #config()} or {@link #writeKubeconfig(Path)}, which authenticate as the Role-bound user {@value #USER} in
 * {@link #namespace()}; act as the cluster's admin with {@link #adminConfig()}. As a process: {@link #main}.
 */
public final class KubeTestCluster implements AutoCloseable {
    /** The user Gantry is in the test cluster: bound to the documented Role only. */
    public static final String USER = "gantry";
    /** The cluster admin (tests, controllers): not restricted, not counted with {@link #USER}. */
    public static final String ADMIN = "kubernetes-admin";
    /** Where {@code ip netns} keeps each node namespace's files: its hosts file is {@code NS/hosts}. */
    private static final Path NETNS_CONFIG = Path.of("/etc/netns");

    private final String namespace;
    private final Path workDirectory;
    private final boolean ownsWorkDirectory;
    private final TestCertificate certificate;
    private final RequestCounter counter = new RequestCounter();
    private final ObjectStore store;
    private final PodLogs logs;
    private final ApiServer apiServer;
    private final String userToken = token();
    private final String adminToken = token();
    private final String serverUrl;
    private final ClusterNodes nodes;
    private final ControlPlane controlPlane;
    private final Duration replacementDelay;
    private final List<ContainerRuntime> runtimes;

    private KubeTestCluster(Builder builder) throws IOException {
        this.namespace = builder.namespace;
        this.ownsWorkDirectory = builder.workDirectory == null;
        this.workDirectory = builder.workDirectory != null ? builder.workDirectory
                : Files.createTempDirectory("gantry-kube-");
        Clock clock = Clock.systemUTC();
        this.certificate = TestCertificate.create();
        this.store = new ObjectStore(clock);
        this.logs = new PodLogs(workDirectory.resolve("logs"));
        Disruptions disruptions = new Disruptions(store, clock);
        this.apiServer = new ApiServer(store, logs, disruptions, counter, Map.of(
                userToken, new ApiServer.Caller(USER, Optional.of(new DocumentedRole(namespace, USER))),
                adminToken, new ApiServer.Caller(ADMIN, Optional.empty())));
        store.create(Paths.namespaces(), namespaceObject(namespace));
        List<NodeTemplate> templates = builder.templates();
        requireNetworkNamespaces(templates);
        this.replacementDelay = builder.replacementDelay;
        List<ContainerRuntime> runtimes = new ArrayList<>(builder.runtimes);
        runtimes.add(PodmanRuntime.forTestImage(NETNS_CONFIG));
        runtimes.add(new HostProcessRuntime());
        this.runtimes = List.copyOf(runtimes);
        this.nodes = new ClusterNodes(store, logs, clock, this.runtimes, NETNS_CONFIG);
        templates.forEach(nodes::join);
        this.controlPlane = new ControlPlane(store, disruptions, clock, nodes::sync);
        // Read before the first request, which would otherwise pay for it on the server's event loop, where every
        // other request waits meanwhile.
        OpenApiSchema.v132();
        int port = apiServer.start("127.0.0.1", builder.port, certificate);
        this.serverUrl = "https://127.0.0.1:" + port;
        controlPlane.start();
    }

    private static void requireNetworkNamespaces(List<NodeTemplate> templates) {
        for (NodeTemplate template : templates) {
            String ns = template.slot().namespace();
            if (template.slot().isolated() && !Files.exists(Path.of("/run/netns", ns))) {
                throw new IllegalStateException("the test cluster's node network namespace " + ns + " does not exist;"
                        + " make it with `scripts/test-kube.sh up` (as root), or start the cluster with"
                        + " KubeTestCluster.builder().hostNetwork() for tests that need no node network");
            }
        }
    }

    /** Runs the test cluster as a process; see {@link KubeTestClusterMain} for the options. */
    public static void main(String[] args) throws Exception {
        try {
            KubeTestClusterMain.run(args);
        } catch (IllegalArgumentException e) {
            System.err.println("KubeTestCluster: " + e.getMessage());
            System.exit(2);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The namespace the Role covers, where Gantry's objects go. */
    public String namespace() {
        return namespace;
    }

    /** {@code https://127.0.0.1:PORT}. */
    public String serverUrl() {
        return serverUrl;
    }

    /** The PEM certificate clients verify the server with (it is its own CA). */
    public String certificatePem() {
        return certificate.certificatePem();
    }

    /** A kubeconfig for {@value #USER}, whose current context is the test cluster and {@link #namespace()}. */
    public String kubeconfig() {
        return kubeconfig(serverUrl);
    }

    /**
     * {@link #kubeconfig()} with another server address, such as a TCP proxy's in front of {@link #serverUrl()}:
     * {@code https://127.0.0.1:PORT} still verifies, since the certificate names the address and not the port.
     */
    public String kubeconfig(String server) {
        return Kubeconfig.render(server, certificate.certificatePem(), USER, userToken, namespace);
    }

    /** A kubeconfig for {@value #ADMIN}. */
    public String adminKubeconfig() {
        return Kubeconfig.render(serverUrl, certificate.certificatePem(), ADMIN, adminToken, namespace);
    }

    /** Writes {@link #kubeconfig()} to {@code file} (readable by its owner only: it holds a token). */
    public Path writeKubeconfig(Path file) {
        return writeKubeconfig(file, serverUrl);
    }

    /** Writes {@link #kubeconfig(String)} to {@code file}, as {@link #writeKubeconfig(Path)} does. */
    public Path writeKubeconfig(Path file, String server) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, kubeconfig(server));
            file.toFile().setReadable(false, false);
            file.toFile().setReadable(true, true);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A client configuration for {@value #USER}, as read from {@link #kubeconfig()}. */
    public Config config() {
        return Config.fromKubeconfig(kubeconfig());
    }

    public Config adminConfig() {
        return Config.fromKubeconfig(adminKubeconfig());
    }

    /** HTTP requests {@value #USER} made since the start or the last {@link #resetRequestCount()}. */
    public long requestCount() {
        return counter.total(USER);
    }

    /** Those requests by {@code VERB resource} ({@code list pods}, {@code watch jobs}, ...). */
    public Map<String, Long> requestBreakdown() {
        return counter.breakdown(USER);
    }

    /** The requests of {@value #USER} the documented Role refused ({@code METHOD PATH}), oldest first. */
    public List<String> forbiddenRequests() {
        return counter.forbidden(USER);
    }

    /** Forgets the counts and the refused requests so far. */
    public void resetRequestCount() {
        counter.reset();
    }

    /**
     * Compacts the history as etcd does: a watch from any resourceVersion given out until now is answered with an
     * ERROR event {@code 410 Expired} ("too old resource version"), so a client must list again; watches from a
     * later resourceVersion (a new list's) go on as before.
     */
    public void compactHistory() {
        apiServer.compactBelow(store.nextResourceVersion());
    }

    /**
     * From now on, until {@link #answerAll}, every request of this verb on this resource (for example {@code create}
     * {@code secrets}) has its connection closed unanswered and unapplied, as when the client's process dies after
     * sending it or the network drops it on the way.
     */
    public void dropRequests(String verb, String resource) {
        apiServer.drop(verb, resource);
    }

    /** Requests that {@link #dropRequests} named are answered again. */
    public void answerAll() {
        apiServer.drop("", "");
    }

    /** The names of the nodes now in the cluster, sorted. */
    public List<String> nodeNames() {
        return nodes.names();
    }

    /**
     * Deletes a node as Azure deletes an evicted Spot VM: its processes die at once, its Node object goes, and pod
     * GC then marks its pods {@code DisruptionTarget} ({@code DeletionByPodGC}) and deletes them.
     */
    public void deleteNode(String name) {
        nodes.delete(name);
        controlPlane.wake();
    }

    /**
     * {@link #deleteNode} and, after the replacement delay, a new VM of the same pool joins in the same network
     * namespace (the scale set's next instance name), as AKS's autoscaler replaces an evicted Spot node.
     *
     * @return the replacement's name, once it has joined
     */
    public CompletableFuture<String> evictNode(String name) {
        NodeTemplate template = nodes.delete(name);
        controlPlane.wake();
        return CompletableFuture.supplyAsync(() -> nodes.join(template),
                CompletableFuture.delayedExecutor(replacementDelay.toMillis(), TimeUnit.MILLISECONDS));
    }

    /**
     * The node stops answering, as a VM that hangs: its processes stop, it turns Ready Unknown with the
     * {@code node.kubernetes.io/unreachable} taints, and its pods are evicted ({@code DeletionByTaintManager}) once
     * their toleration of that taint runs out; they stay Terminating until the node is deleted.
     */
    public void stopNode(String name) {
        nodes.stopAnswering(name);
        controlPlane.wake();
    }

    /** A new node of {@code template} joins now; its name. */
    public String addNode(NodeTemplate template) {
        return nodes.join(template);
    }

    Optional<Throwable> controlPlaneFailure() {
        return controlPlane.lastFailure();
    }

    ObjectStore store() {
        return store;
    }

    PodLogs logs() {
        return logs;
    }

    /** One pass of every controller now (tests that step the cluster instead of waiting for its loop). */
    void reconcile() {
        controlPlane.runOnce();
    }

    @Override
    public void close() {
        controlPlane.close();
        nodes.powerOffAll();
        runtimes.forEach(ContainerRuntime::close);
        apiServer.close();
        if (ownsWorkDirectory) {
            deleteTree(workDirectory);
        }
    }

    private static void deleteTree(Path root) {
        try (var paths = Files.walk(root)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // A leftover temporary directory of logs: nothing to stop the test for.
        }
    }

    private static Namespace namespaceObject(String name) {
        return new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().withNewStatus()
                .withPhase("Active").endStatus().build();
    }

    private static String token() {
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** How to start a test cluster. */
    public static final class Builder {
        private String namespace = "gantry";
        private int port;
        private Path workDirectory;
        private List<NodeTemplate> templates;
        private boolean hostNetwork;
        private Duration replacementDelay = Duration.ofSeconds(1);
        private final List<ContainerRuntime> runtimes = new ArrayList<>();

        private Builder() {
        }

        /**
         * A runtime for the images it {@linkplain ContainerRuntime#runs runs}, asked before the default ones: Podman
         * for the busybox test image of scripts/setup-podman.sh ({@link PodmanRuntime}), then every other image as a
         * process of this machine ({@link HostProcessRuntime}).
         */
        Builder containerRuntime(ContainerRuntime runtime) {
            runtimes.add(runtime);
            return this;
        }

        /** The nodes (default: two {@link NodeTemplate#kit} nodes in gantry-k1 and gantry-k2). */
        public Builder nodes(List<NodeTemplate> templates) {
            this.templates = List.copyOf(templates);
            return this;
        }

        /** The default nodes run their processes in this machine's own network (no namespaces needed, no DNS). */
        public Builder hostNetwork() {
            this.hostNetwork = true;
            return this;
        }

        /** How long an evicted node's replacement takes to join (default 1 s). */
        public Builder replacementDelay(Duration delay) {
            this.replacementDelay = delay;
            return this;
        }

        private List<NodeTemplate> templates() {
            if (templates != null) {
                return templates;
            }
            return List.of(NodeTemplate.kit(hostNetwork ? NodeSlot.host(1) : NodeSlot.kube(1)),
                    NodeTemplate.kit(hostNetwork ? NodeSlot.host(2) : NodeSlot.kube(2)));
        }

        /** The namespace Gantry works in (default {@code gantry}). */
        public Builder namespace(String namespace) {
            this.namespace = namespace;
            return this;
        }

        /** The API server's port on 127.0.0.1 (default: any free port). */
        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /** Where logs and working files go (default: a new temporary directory, deleted on close). */
        public Builder workDirectory(Path workDirectory) {
            this.workDirectory = workDirectory;
            return this;
        }

        public KubeTestCluster start() {
            try {
                return new KubeTestCluster(this);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
