package dev.gantry.backend.aks.internal.kube;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.backend.aks.internal.AksSettings;
import dev.gantry.backend.aks.internal.Kubeconfig;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.internal.KubeConfigUtils;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The Kubernetes client of one backend: built from the kubeconfig and context the settings found, on the JDK's HTTP
 * client, with every request counted and the retry limit set here rather than left at the client's default of 10
 * (429 is retried after its Retry-After by {@link ThrottleWait}, 5xx and I/O failures with doubling waits from
 * {@link #RETRY_INTERVAL_MS}).
 * Its failures become Gantry's errors naming the API server's address and the settings that chose it.
 */
public final class KubeConnection implements AutoCloseable {
    /** Retries after the first try: 250 ms, 0.5, 1, 2 s, about 4 s in all, unless Retry-After asks for longer. */
    static final int RETRY_LIMIT = 4;
    static final int RETRY_INTERVAL_MS = 250;
    static final int CONNECT_TIMEOUT_MS = 5_000;
    /**
     * The first wait before a dropped watch (or its informer's relist) is tried again; the client doubles it up to
     * 32 times this, so 100 ms gives at most 3.2 s between tries. Its default of 1 s let statuses stay UNKNOWN for up
     * to 32 s after an API server came back from a minute's outage; a try against a server that is down is a
     * refused connection, which costs it nothing.
     */
    static final int WATCH_RECONNECT_INTERVAL_MS = 100;

    private final KubernetesClient client;
    private final RequestCounter counter;
    private final WatchStreams watchStreams;
    private final String namespace;
    private final String source;
    private final boolean proxied;
    private volatile boolean reached;

    private KubeConnection(KubernetesClient client, RequestCounter counter, WatchStreams watchStreams,
            String namespace, String source) {
        this.client = client;
        this.counter = counter;
        this.watchStreams = watchStreams;
        this.namespace = namespace;
        this.source = source;
        Config config = client.getConfiguration();
        this.proxied = config.getHttpsProxy() != null || config.getHttpProxy() != null;
    }

    /** Builds the client; contacts nothing. */
    public static KubeConnection open(AksSettings settings) {
        Config config = config(settings.kubeconfig());
        config.setNamespace(settings.namespace());
        config.setRequestRetryBackoffLimit(RETRY_LIMIT);
        config.setRequestRetryBackoffInterval(RETRY_INTERVAL_MS);
        config.setConnectionTimeout(CONNECT_TIMEOUT_MS);
        config.setWatchReconnectInterval(WATCH_RECONNECT_INTERVAL_MS);
        // Watches as HTTP streams, as client-go and kubectl watch, not WebSockets: when the connection of a JDK 17
        // WebSocket ends while the client has not yet asked for the next message (Fabric8 asks only once it has
        // handled the last one), the end is never reported, and the watch stays "open" with nothing coming (2 runs
        // in 10 of AksFaultTest's 410 case had a pod watch so, until the informer's own 5 to 10 minute restart).
        // The end of an HTTP stream is reported as an error at once.
        config.setOnlyHttpWatches(true);
        // HTTP/1.1 always: every watch on a connection of its own, whose end is the watch's end, as the test API
        // server proves it (over plain HTTP the JDK client would also try an h2c upgrade, which API servers do not
        // offer and which leaves HTTP/2 connections that JDK 17 cannot close).
        config.setHttp2Disable(true);
        RequestCounter counter = new RequestCounter();
        WatchStreams watchStreams = new WatchStreams();
        KubernetesClient client = new KubernetesClientBuilder().withConfig(config)
                .withHttpClientFactory(new JdkHttpClientFactory())
                .withHttpClientBuilderConsumer(builder -> builder.addOrReplaceInterceptor(RequestCounter.NAME, counter)
                        .addOrReplaceInterceptor(WatchStreams.NAME, watchStreams)
                        .addOrReplaceInterceptor(ThrottleWait.NAME, new ThrottleWait(counter::resent)))
                .build();
        return new KubeConnection(client, counter, watchStreams, settings.namespace(),
                describe(settings.kubeconfig()));
    }

    public KubernetesClient client() {
        return client;
    }

    public String namespace() {
        return namespace;
    }

    /** The watches whose streams are open now. */
    public WatchStreams watchStreams() {
        return watchStreams;
    }

    /** HTTP requests sent so far. */
    public long requests() {
        return counter.requests();
    }

    /** The API server's address, as the kubeconfig gives it. */
    public String address() {
        return String.valueOf(client.getConfiguration().getMasterUrl());
    }

    /**
     * Runs a request, turning the client's failures into Gantry's: an API server that cannot be reached
     * BACKEND_UNAVAILABLE (at once for a refused connection, not after the client's retries), 401 AUTH_FAILED,
     * 403 AUTH_FAILED naming the permission, 400 and 422 PLAN_REJECTED, anything else REMOTE_ERROR naming the
     * request.
     */
    public <T> T call(String what, Supplier<T> request) {
        ensureReachable();
        try {
            return request.get();
        } catch (KubernetesClientException e) {
            throw failure(what, e);
        }
    }

    /** Like {@link #call} for a request without an answer. */
    public void run(String what, Runnable request) {
        call(what, () -> {
            request.run();
            return null;
        });
    }

    /**
     * Opens one TCP connection to the API server before the first request, so that a server that refuses
     * connections or does not exist is named at once instead of after the client's retries. Not an HTTP request;
     * skipped behind a proxy, where the API server may be reachable only through it.
     */
    public void ensureReachable() {
        if (reached || proxied) {
            return;
        }
        URI uri = URI.create(address());
        int port = uri.getPort() > 0 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(uri.getHost(), port), CONNECT_TIMEOUT_MS);
            reached = true;
        } catch (IOException e) {
            throw unreachable(e);
        }
    }

    /** The error of a request that failed, as {@link #call} throws it. */
    public GantryException failure(String what, KubernetesClientException e) {
        int code = e.getCode();
        if (code == 0 || causedByIo(e)) {
            reached = false;
            return unreachable(e);
        }
        String reason = Optional.ofNullable(e.getStatus()).map(s -> s.getMessage()).filter(m -> !m.isBlank())
                .orElse(e.getMessage());
        if (code == 401) {
            return new GantryException(ErrorCode.AUTH_FAILED, "the Kubernetes API server at " + address()
                    + " did not accept the credentials of " + source + " (" + reason + "); sign in again (az aks "
                    + "get-credentials, kubelogin) or choose another context");
        }
        if (code == 403) {
            return new GantryException(ErrorCode.AUTH_FAILED, what + " was refused: " + reason + "; grant the "
                    + "account of " + source + " Gantry's Role in namespace " + namespace + " (docs/backends/aks.md)");
        }
        if (code == 400 || code == 422) {
            return new GantryException(ErrorCode.PLAN_REJECTED, "Kubernetes refused " + what + ": " + reason);
        }
        return new GantryException(ErrorCode.REMOTE_ERROR, what + " failed with HTTP " + code + " from the "
                + "Kubernetes API server at " + address() + (code == 429 || code >= 500 ? " after " + RETRY_LIMIT
                + " retries" : "") + ": " + reason);
    }

    /**
     * Applies a JSON merge patch to the named Job in one request (the client reads the object first unless it is
     * given one, whose name is all it needs).
     */
    public void patchJob(String name, String mergePatch) {
        Job named = new JobBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata().build();
        client.batch().v1().jobs().resource(named).patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
    }

    private GantryException unreachable(Exception e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        String why = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        return new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "cannot reach the Kubernetes API server at "
                + address() + " (" + why + "), the server of " + source + "; check that the cluster is running and "
                + "reachable from here, or set backends.aks.kubeconfig and backends.aks.context to the cluster's");
    }

    private static boolean causedByIo(Throwable e) {
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    private static Config config(Kubeconfig kubeconfig) {
        if (kubeconfig.inCluster()) {
            return new ConfigBuilder(Config.autoConfigure(kubeconfig.context().orElse(null))).build();
        }
        Path file = fileOf(kubeconfig);
        return Config.fromKubeconfig(kubeconfig.context().orElse(null), file.toFile());
    }

    /** The file that defines the chosen context (the first file when the current context is meant). */
    private static Path fileOf(Kubeconfig kubeconfig) {
        List<Path> files = kubeconfig.files();
        if (kubeconfig.context().isEmpty() || files.size() == 1) {
            return files.get(0);
        }
        for (Path file : files) {
            List<NamedContext> contexts = Optional.ofNullable(KubeConfigUtils.parseConfig(file.toFile())
                    .getContexts()).orElse(List.of());
            if (contexts.stream().anyMatch(c -> Objects.equals(c.getName(), kubeconfig.context().get()))) {
                return file;
            }
        }
        return files.get(0);
    }

    private static String describe(Kubeconfig kubeconfig) {
        if (kubeconfig.inCluster()) {
            return "the pod's in-cluster account";
        }
        return "kubeconfig " + fileOf(kubeconfig) + kubeconfig.context().map(c -> ", context " + c)
                .orElse(", its current context") + " (backends.aks.kubeconfig, backends.aks.context)";
    }

    @Override
    public void close() {
        client.close();
    }
}
