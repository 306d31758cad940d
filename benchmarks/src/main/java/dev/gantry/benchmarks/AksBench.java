package dev.gantry.benchmarks;

import dev.gantry.api.Architecture;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.SecretRef;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.Secret;
import dev.gantry.backend.aks.AksBackendProvider;
import dev.gantry.backend.aks.testcluster.KubeTestCluster;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What the AKS benchmarks share: the Kubernetes test cluster (backend-aks's {@link KubeTestCluster}, two Spot
 * {@code tck-small} nodes in the node namespaces of scripts/test-kube.sh) started in this process, the backend
 * created over it through {@link AksBackendProvider} with the Role-bound user's kubeconfig, as a user's gantry.yaml
 * names it, the benchmark's plans, and the cluster admin's view to check and clean up the work.
 */
final class AksBench implements AutoCloseable {
    /** The label every object Gantry makes carries (and every Job the plain loop makes, so one clean-up takes all). */
    static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    /** An image the test cluster runs as a plain process of its node. */
    private static final String IMAGE = "mcr.microsoft.com/azurelinux/base/core:3.0";
    private static final SecretRef SECRET = SecretRef.parse("env:BENCH_TOKEN");

    private final KubeTestCluster cluster;
    private final Path root;
    private final Path kubeconfig;
    private final KubernetesClient admin;

    private AksBench(KubeTestCluster cluster, Path root) {
        this.cluster = cluster;
        this.root = root;
        this.kubeconfig = cluster.writeKubeconfig(root.resolve("kubeconfig"));
        this.admin = new KubernetesClientBuilder().withConfig(cluster.adminConfig()).build();
    }

    static AksBench start() throws IOException {
        Path root = Files.createTempDirectory("gantry-aks-bench");
        return new AksBench(KubeTestCluster.builder().start(), root);
    }

    KubeTestCluster cluster() {
        return cluster;
    }

    /** A new backend over the test cluster, with its own state directory; close it. */
    Backend backend(String name) throws IOException {
        Path state = Files.createDirectories(root.resolve(name));
        Map<String, String> settings = Map.of("kubeconfig", kubeconfig.toString(), "namespace", cluster.namespace(),
                "defaultImage", IMAGE);
        return new AksBackendProvider().create(new BackendConfig("aks", settings),
                new BenchContext(state, ref -> new Secret("bench-secret-value")));
    }

    /** A Spot plan of {@code nodes} {@code tck-small} nodes running {@code true}, with one secret or none. */
    static Plan plan(int nodes, boolean secret) {
        Workload.Builder workload = Workload.builder("bench-aks").phase(Phase.TRAINING).model(ModelClass.SMALL)
                .command("true");
        if (secret) {
            workload.secret("BENCH_TOKEN", SECRET);
        }
        VmSize size = new VmSize("tck-small", "tck", 1, 0.5, Optional.empty(), false, Architecture.X64,
                Set.of("V2"));
        return Plan.builder(workload.build(), size).nodes(nodes).spot(true).build();
    }

    /** A client of the Role-bound user, from the same kubeconfig the backend reads; close it. */
    KubernetesClient userClient() {
        return new KubernetesClientBuilder().withConfig(cluster.config()).build();
    }

    /** The names of the Jobs now in the namespace, as the cluster's admin lists them (not counted as the user's). */
    Set<String> jobNames() {
        return admin.batch().v1().jobs().inNamespace(cluster.namespace()).list().getItems().stream()
                .map(job -> job.getMetadata().getName()).collect(Collectors.toSet());
    }

    /** Checks that every job of {@code refs} exists as a Job in the cluster. */
    void jobsExist(WorkCheck check, String what, Collection<JobRef> refs) {
        Set<String> names = jobNames();
        check.count(what + ": its Jobs in the cluster", refs.size(),
                refs.stream().filter(ref -> names.contains(ref.id())).count());
    }

    /** Deletes the benchmark's Jobs (their pods, Services and Secrets go with them) and waits until none is left. */
    void deleteJobs() throws InterruptedException {
        admin.batch().v1().jobs().inNamespace(cluster.namespace()).withLabel(MANAGED_BY)
                .withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
        for (int i = 0; i < 600; i++) {
            if (admin.batch().v1().jobs().inNamespace(cluster.namespace()).list().getItems().isEmpty()
                    && admin.pods().inNamespace(cluster.namespace()).list().getItems().isEmpty()) {
                return;
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("the benchmark's Jobs and pods were not all gone after 5 minutes");
    }

    /** The user's requests since the last reset, by kind, the largest first, on one line. */
    String breakdown() {
        return cluster.requestBreakdown().entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .map(e -> String.format(Locale.ROOT, "%s %d", e.getKey(), e.getValue()))
                .collect(Collectors.joining(", "));
    }

    /** The user's watch connections since the last reset. */
    long watches() {
        return cluster.requestBreakdown().entrySet().stream().filter(e -> e.getKey().startsWith("watch "))
                .mapToLong(Map.Entry::getValue).sum();
    }

    static String verdict(boolean met) {
        return met ? "met" : "NOT met";
    }

    @Override
    public void close() throws IOException {
        try {
            deleteJobs();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            admin.close();
            cluster.close();
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    /** Median of a sorted copy. */
    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
