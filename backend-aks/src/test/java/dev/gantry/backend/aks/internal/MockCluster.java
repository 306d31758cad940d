package dev.gantry.backend.aks.internal;

import dev.gantry.api.Architecture;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.SecretRef;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.Secret;
import dev.gantry.api.backend.SecretResolver;
import dev.gantry.backend.aks.AksBackendProvider;
import dev.gantry.backend.aks.internal.pools.PoolKeeper;
import dev.gantry.backend.aks.internal.render.PodEnvironment;
import io.fabric8.kubernetes.api.model.ContainerStateTerminatedBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import dev.gantry.backend.aks.testcluster.StreamedWatch;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.vertx.HttpServerRequestHandler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Fabric8's mock API server in CRUD mode (with expectations for what CRUD lacks: logs, faults), a kubeconfig
 * pointing at it, and the controller's part played by hand: a test writes the Job's status and the pods the Job
 * controller and the kubelet would. Its dispatcher is served by a plain-HTTP front of its own, which also serves
 * watches as HTTP streams ({@link StreamedWatch}), the form the backend asks for; the mock server's own HTTP server
 * knows only WebSocket watches.
 */
final class MockCluster implements AutoCloseable {
    static final String NAMESPACE = "ml-jobs";
    static final VmSize SMALL = new VmSize("tck-small", "tck", 1, 0.5, Optional.empty(), false, Architecture.X64,
            Set.of("V2"));
    static final VmSize T4 = new VmSize("Standard_NC4as_T4_v3", "NC", 4, 28,
            Optional.of(new GpuSpec("T4", 1, 16, GpuVendor.NVIDIA)), false, Architecture.X64, Set.of("V2"));

    /** Where tests set expectations; its dispatcher answers through {@link #front}. */
    final KubernetesMockServer server;
    /** The controller's client: what it does is not counted against the backend. */
    final NamespacedKubernetesClient controller;
    private final Path home;
    private final Vertx vertx = Vertx.vertx();
    private final ExecutorService watchClosers = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "mock-cluster-watch-close");
        thread.setDaemon(true);
        return thread;
    });
    private final HttpServer front;

    MockCluster(Path home) throws IOException {
        this.home = home;
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        KubernetesMixedDispatcher dispatcher = new KubernetesMixedDispatcher(responses);
        server = new KubernetesMockServer(new Context(), new MockWebServer(), responses, dispatcher, false);
        server.init();
        HttpServerRequestHandler crud = new HttpServerRequestHandler(vertx) {
            @Override
            protected MockResponse onHttpRequest(RecordedRequest request) {
                return dispatcher.dispatch(request);
            }
        };
        // HTTP/1.1 only. The JDK client asks a plain-HTTP server to upgrade to HTTP/2 (h2c), and Vert.x's upgrade
        // answered a large list under load with bytes the client read as an HTTP/2 frame ("Frame type(108)
        // length(3809901) exceeds MAX_FRAME_SIZE"); an API server speaks HTTP/2 only over TLS, chosen by ALPN.
        HttpServerOptions options = new HttpServerOptions().setHost("127.0.0.1").setPort(0)
                .setHttp2ClearTextEnabled(false);
        front = vertx.createHttpServer(options).requestHandler(
                request -> {
                    if (StreamedWatch.wanted(request)) {
                        StreamedWatch.serve(request, dispatcher::dispatch, watchClosers);
                    } else {
                        crud.handle(request);
                    }
                });
        try {
            front.listen().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IOException("the mock API server's front could not listen: " + e, e);
        }
        String url = "http://127.0.0.1:" + front.actualPort();
        controller = new KubernetesClientBuilder().withConfig(new ConfigBuilder().withMasterUrl(url)
                .withNamespace(NAMESPACE).build()).build().adapt(NamespacedKubernetesClient.class);
        Files.writeString(kubeconfig(), kubeconfigText(url));
    }

    Path kubeconfig() {
        return home.resolve("kubeconfig");
    }

    static String kubeconfigText(String serverUrl) {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: test
                  cluster:
                    server: %s
                contexts:
                - name: test
                  context:
                    cluster: test
                    user: gantry
                    namespace: default
                current-context: test
                users:
                - name: gantry
                  user:
                    token: not-a-real-token
                """.formatted(serverUrl);
    }

    private static Backend backend(Path kubeconfig, Path stateDirectory, List<String> logged,
                                   String... keysAndValues) {
        return new AksBackendProvider().create(config(kubeconfig, keysAndValues), context(stateDirectory, logged));
    }

    private static BackendConfig config(Path kubeconfig, String... keysAndValues) {
        Map<String, String> values = new HashMap<>();
        values.put("namespace", NAMESPACE);
        values.put("kubeconfig", kubeconfig.toString());
        values.put("defaultImage", "busybox:1.36");
        for (int i = 0; i < keysAndValues.length; i += 2) {
            values.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return new BackendConfig("aks", values);
    }

    /** What the backends of this cluster logged, message by message. */
    final List<String> logged = new CopyOnWriteArrayList<>();

    Backend backend(Path stateDirectory, String... keysAndValues) {
        return backend(kubeconfig(), stateDirectory, logged, keysAndValues);
    }

    /** A backend whose plans get their node pools from {@code pools} (made from its settings). */
    Backend backend(Path stateDirectory, Function<AksSettings, PoolKeeper> pools, String... keysAndValues) {
        AksSettings settings = AksSettings.bind(config(kubeconfig(), keysAndValues));
        return new AksBackend(new AksBackendProvider().capabilities(), settings, context(stateDirectory, logged),
                "dev", pools.apply(settings));
    }

    static Backend backend(Path kubeconfig, Path stateDirectory, String... keysAndValues) {
        return backend(kubeconfig, stateDirectory, new ArrayList<>(), keysAndValues);
    }

    private static BackendContext context(Path stateDirectory, List<String> logged) {
        SecretResolver secrets = ref -> new Secret("value-of-" + ref.location());
        System.Logger logger = new System.Logger() {
            @Override
            public String getName() {
                return "aks-test";
            }

            @Override
            public boolean isLoggable(Level level) {
                return true;
            }

            @Override
            public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
                logged.add(message);
            }

            @Override
            public void log(Level level, ResourceBundle bundle, String format, Object... params) {
                logged.add(format);
            }
        };
        return new BackendContext() {
            @Override
            public System.Logger logger() {
                return logger;
            }

            @Override
            public Path stateDirectory() {
                return stateDirectory;
            }

            @Override
            public SecretResolver secrets() {
                return secrets;
            }
        };
    }

    static Plan plan(String name, int nodes) {
        Workload.Builder workload = Workload.builder(name).phase(Phase.INFERENCE).model(ModelClass.SMALL)
                .command("echo", "hello");
        if (nodes > 1) {
            workload.resources(Resources.builder().nodes(nodes).gpus(0));
        }
        return Plan.builder(workload.build(), SMALL).build();
    }

    static Plan planWithSecret(String name, int nodes) {
        Plan plan = plan(name, nodes);
        return plan.withWorkload(plan.workload().toBuilder().secret("HF_TOKEN", SecretRef.parse("env:HF_TOKEN"))
                .build());
    }

    Job job(String name) {
        return controller.batch().v1().jobs().withName(name).get();
    }

    /** The Job controller's part: a condition on the Job's status. */
    void condition(String name, String type) {
        Job job = job(name);
        job.setStatus(new JobStatusBuilder(job.getStatus()).withStartTime(Instant.now().toString())
                .addToConditions(new JobConditionBuilder().withType(type).withStatus("True")
                        .withLastTransitionTime(Instant.now().toString()).build()).build());
        controller.batch().v1().jobs().resource(job).update();
    }

    private static final java.util.concurrent.atomic.AtomicInteger POD_SUFFIXES =
            new java.util.concurrent.atomic.AtomicInteger();

    /** The Job controller's and kubelet's part: a rank's pod in the given phase (exit 0 when it ended). */
    Pod pod(String job, int rank, String phase) {
        // A sequence, as the Job controller's random suffix is unique: the leading digits of nanoTime, used before,
        // stay the same for about a minute, so two pods of one rank got one name (409 in a test-all run).
        String name = job + "-" + rank + "-" + String.format("%05x", POD_SUFFIXES.incrementAndGet());
        PodBuilder pod = new PodBuilder().withNewMetadata().withName(name).withNamespace(NAMESPACE)
                .addToLabels("app.kubernetes.io/managed-by", "gantry").addToLabels("gantry.dev/job", job)
                .addToAnnotations(PodEnvironment.COMPLETION_INDEX_ANNOTATION, Integer.toString(rank))
                .withCreationTimestamp(Instant.now().toString()).endMetadata()
                .withNewSpec().withNodeName("node-1").addNewContainer().withName("workload").withImage("busybox")
                .endContainer().endSpec().withNewStatus().withPhase(phase).addNewCondition().withType("PodScheduled")
                .withStatus("True").endCondition().endStatus();
        if (phase.equals("Succeeded")) {
            pod.editStatus().withContainerStatuses(new ContainerStatusBuilder().withName("workload").withNewState()
                    .withTerminated(new ContainerStateTerminatedBuilder().withExitCode(0).build()).endState()
                    .build()).endStatus();
        }
        if (phase.equals("Running")) {
            pod.editStatus().withContainerStatuses(new ContainerStatusBuilder().withName("workload").withReady(true)
                    .withNewState().withNewRunning().withStartedAt(Instant.now().toString()).endRunning().endState()
                    .build()).endStatus();
        }
        return controller.pods().resource(pod.build()).create();
    }

    /** The API server goes away: its port closed, every open connection (the watches' too) cut. */
    void shutdown() {
        try {
            front.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the mock API server's front did not close: " + e, e);
        }
    }

    @Override
    public void close() {
        controller.close();
        watchClosers.shutdownNow();
        try {
            front.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            System.err.println("the mock API server's front did not close in time: " + e.getMessage());
        }
        try {
            server.destroy();
        } catch (IllegalStateException e) {
            // Vert.x gives the mock server 10 s to close. After informers watched 200 objects it sometimes waits
            // longer for their closed watch connections (about half the runs; never without the informers), which
            // the JDK 17 HTTP client cannot close itself. Nothing the test asserts depends on it.
            System.err.println("the mock API server did not close in time: " + e.getMessage());
        }
    }
}
