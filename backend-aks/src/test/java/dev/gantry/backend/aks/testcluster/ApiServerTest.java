package dev.gantry.backend.aks.testcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.LogWatch;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApiServerTest {
    @TempDir
    static Path work;
    static KubeTestCluster cluster;
    static KubernetesClient gantry;
    static KubernetesClient admin;

    @BeforeAll
    static void start() {
        cluster = KubeTestCluster.builder().namespace("ml").workDirectory(work).hostNetwork().start();
        gantry = new KubernetesClientBuilder().withConfig(patient(cluster.config())).build();
        admin = new KubernetesClientBuilder().withConfig(patient(cluster.adminConfig())).build();
    }

    @AfterAll
    static void stop() {
        gantry.close();
        admin.close();
        cluster.close();
    }

    /**
     * Each request sent once and waited for up to a minute: what these cases check is the server's answer, and a
     * create the client timed out and sent again would meet its own first try (a 409), as a loaded test-all run saw.
     */
    private static io.fabric8.kubernetes.client.Config patient(io.fabric8.kubernetes.client.Config config) {
        config.setRequestTimeout(60_000);
        config.setRequestRetryBackoffLimit(0);
        return config;
    }

    @Test
    void theKubeconfigVerifiesTheServerAgainstItsOwnCertificate() {
        assertFalse(cluster.config().isTrustCerts());
        assertTrue(cluster.kubeconfig().contains("certificate-authority-data: "));
        assertTrue(cluster.serverUrl().startsWith("https://127.0.0.1:"));
        assertEquals("32", gantry.getKubernetesVersion().getMinor());
        assertEquals("ml", cluster.config().getNamespace());
    }

    @Test
    void theRoleUserCreatesAndReadsJobsAndSeesTheirEvents() throws Exception {
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        try (var watch = gantry.batch().v1().jobs().watch(new Watcher<Job>() {
            @Override
            public void eventReceived(Action action, Job job) {
                events.add(action + " " + job.getMetadata().getName());
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        })) {
            gantry.batch().v1().jobs().resource(job("watched")).create();
            assertEquals("ADDED watched", events.poll(10, TimeUnit.SECONDS));
        }
        Job read = gantry.batch().v1().jobs().withName("watched").get();
        assertNotNull(read.getMetadata().getUid());
        assertTrue(gantry.batch().v1().jobs().list().getItems().stream()
                .anyMatch(j -> j.getMetadata().getName().equals("watched")));
    }

    @Test
    void aWatchFromAResourceVersionGetsTheDeletionsSinceThen() throws Exception {
        gantry.batch().v1().jobs().resource(job("before")).create();
        gantry.batch().v1().jobs().withName("before").delete();
        gantry.batch().v1().jobs().resource(job("gone")).create();
        gantry.batch().v1().jobs().resource(job("kept")).create();
        String listed = gantry.batch().v1().jobs().list().getMetadata().getResourceVersion();
        gantry.batch().v1().jobs().withName("gone").delete();
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        try (var watch = gantry.batch().v1().jobs().withResourceVersion(listed).watch(
                recording(events, new CompletableFuture<>()))) {
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (String event = events.poll(5, TimeUnit.SECONDS); event != null;
                    event = events.poll(500, TimeUnit.MILLISECONDS)) {
                seen.add(event);
            }
            assertTrue(seen.contains("DELETED gone"), seen.toString());
            assertFalse(seen.contains("DELETED before"), "deleted before the list: " + seen);
            assertFalse(seen.contains("DELETED kept"), seen.toString());
        }
    }

    @Test
    void aWatchFromAResourceVersionBeforeTheCompactionIsToldGoneAndAFreshListsIsNot() throws Exception {
        gantry.batch().v1().jobs().resource(job("compacted")).create();
        String old = gantry.batch().v1().jobs().list().getMetadata().getResourceVersion();
        cluster.compactHistory();
        CompletableFuture<WatcherException> closed = new CompletableFuture<>();
        try (var watch = gantry.batch().v1().jobs().withResourceVersion(old).watch(recording(new LinkedBlockingQueue<>(), closed))) {
            WatcherException cause = closed.get(10, TimeUnit.SECONDS);
            assertTrue(cause.isHttpGone(), String.valueOf(cause));
            assertTrue(cause.getMessage().contains("too old resource version: " + old), cause.getMessage());
        }
        String fresh = gantry.batch().v1().jobs().list().getMetadata().getResourceVersion();
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        CompletableFuture<WatcherException> notClosed = new CompletableFuture<>();
        try (var watch = gantry.batch().v1().jobs().withResourceVersion(fresh).watch(recording(events, notClosed))) {
            gantry.batch().v1().jobs().resource(job("after-compaction")).create();
            for (String event = events.poll(10, TimeUnit.SECONDS); !"ADDED after-compaction".equals(event);
                    event = events.poll(10, TimeUnit.SECONDS)) {
                assertNotNull(event, "the watch from a fresh list sees what is created");
            }
            assertFalse(notClosed.isDone(), String.valueOf(notClosed.getNow(null)));
        }
    }

    /** A watcher that queues {@code ACTION name} per event and completes {@code closed} when the watch ends. */
    private static Watcher<Job> recording(BlockingQueue<String> events, CompletableFuture<WatcherException> closed) {
        return new Watcher<>() {
            @Override
            public void eventReceived(Action action, Job job) {
                events.add(action + " " + job.getMetadata().getName());
            }

            @Override
            public void onClose(WatcherException cause) {
                closed.complete(cause);
            }
        };
    }

    @Test
    void creatingWhatExistsIsAlreadyExistsAndTheUidIsRandom() {
        Job first = gantry.batch().v1().jobs().resource(job("twice")).create();
        KubernetesClientException again = assertThrows(KubernetesClientException.class,
                () -> gantry.batch().v1().jobs().resource(job("twice")).create());
        assertEquals(409, again.getCode());
        assertEquals("AlreadyExists", again.getStatus().getReason());
        assertEquals("jobs.batch \"twice\" already exists", again.getStatus().getMessage());
        assertTrue(first.getMetadata().getUid().matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}"),
                first.getMetadata().getUid());
        assertEquals(java.util.Map.of("batch.kubernetes.io/controller-uid", first.getMetadata().getUid()),
                first.getSpec().getSelector().getMatchLabels(), "defaulted before it was stored");
    }

    @Test
    void listsComeInPagesOfTheLimitWithAContinueToken() {
        for (int i = 0; i < 5; i++) {
            admin.pods().resource(pod("paged-" + i)).create();
        }
        var options = new io.fabric8.kubernetes.api.model.ListOptionsBuilder().withLimit(2L)
                .withLabelSelector(null).build();
        java.util.Set<String> names = new java.util.TreeSet<>();
        int pages = 0;
        String next = null;
        do {
            options.setContinue(next);
            var page = gantry.pods().list(options);
            assertTrue(page.getItems().size() <= 2);
            page.getItems().forEach(p -> names.add(p.getMetadata().getName()));
            next = page.getMetadata().getContinue();
            pages++;
        } while (next != null);
        assertTrue(names.containsAll(List.of("paged-0", "paged-1", "paged-2", "paged-3", "paged-4")), names.toString());
        assertTrue(pages >= 3, "pages: " + pages);
    }

    @Test
    void jobsArePatchedByStrategicMergeJsonMergeAndJsonPatch() {
        gantry.batch().v1().jobs().resource(new JobBuilder(job("patched")).editSpec().withSuspend(true).endSpec()
                .build()).create();
        var jobs = gantry.batch().v1().jobs().withName("patched");
        jobs.patch("{\"metadata\":{\"annotations\":{\"gantry.dev/cancelled-at\":\"now\"}}}");
        jobs.patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE), "{\"spec\":{\"suspend\":false}}");
        Job patched = jobs.get();
        assertEquals("now", patched.getMetadata().getAnnotations().get("gantry.dev/cancelled-at"));
        assertFalse(patched.getSpec().getSuspend());
        // edit is a read, then a JSON Patch that names the version read: the unsuspended Job's controller may write
        // its status in between, and the server then answers 409 Conflict, as an API server does. A client applies
        // its change to the latest version and tries again, as the message says.
        for (int attempt = 1; ; attempt++) {
            try {
                jobs.edit(j -> {
                    j.getMetadata().getAnnotations().put("second", "yes");
                    return j;
                });
                break;
            } catch (KubernetesClientException conflict) {
                if (conflict.getCode() != 409 || attempt == 5) {
                    throw conflict;
                }
            }
        }
        assertEquals("yes", jobs.get().getMetadata().getAnnotations().get("second"));
    }

    @Test
    void whatTheDocumentedRoleLacksIsForbiddenInTheApiServersWords() {
        KubernetesClientException listSecrets = assertThrows(KubernetesClientException.class,
                () -> gantry.secrets().list());
        assertEquals(403, listSecrets.getCode());
        assertEquals("secrets is forbidden: User \"gantry\" cannot list resource \"secrets\" in API group \"\" in the"
                + " namespace \"ml\"", listSecrets.getStatus().getMessage());
        KubernetesClientException createPod = assertThrows(KubernetesClientException.class,
                () -> gantry.pods().resource(pod("mine")).create());
        assertEquals("pods is forbidden: User \"gantry\" cannot create resource \"pods\" in API group \"\" in the"
                + " namespace \"ml\"", createPod.getStatus().getMessage());
        KubernetesClientException otherNamespace = assertThrows(KubernetesClientException.class,
                () -> gantry.batch().v1().jobs().inNamespace("default").withName("x").get());
        assertEquals("jobs.batch \"x\" is forbidden: User \"gantry\" cannot get resource \"jobs\" in API group"
                + " \"batch\" in the namespace \"default\"", otherNamespace.getStatus().getMessage());
        KubernetesClientException evict = assertThrows(KubernetesClientException.class,
                () -> gantry.pods().withName("any").evict());
        assertEquals(403, evict.getCode());
        assertTrue(evict.getMessage().contains("cannot create resource \\\"pods/eviction\\\"")
                || evict.getMessage().contains("cannot create resource \"pods/eviction\""), evict.getMessage());
    }

    @Test
    void clusterWideTheRoleListsNodesAndReadsItsNamespace() {
        gantry.nodes().list();
        assertEquals("ml", gantry.namespaces().withName("ml").get().getMetadata().getName());
        KubernetesClientException nodeGet = assertThrows(KubernetesClientException.class,
                () -> gantry.nodes().withName("n").get());
        assertEquals("nodes \"n\" is forbidden: User \"gantry\" cannot get resource \"nodes\" in API group \"\" at"
                + " the cluster scope", nodeGet.getStatus().getMessage());
    }

    @Test
    void everyRequestOfTheRoleUserIsCountedAndNotTheAdmins() {
        cluster.resetRequestCount();
        gantry.batch().v1().jobs().list();
        gantry.batch().v1().jobs().withName("nothing").get();
        assertThrows(KubernetesClientException.class, () -> gantry.secrets().list());
        admin.configMaps().list();
        // Only the kinds this case asks for: a pod read of an earlier case's log wait (Fabric8 lists the pod before a
        // log read, asynchronously) may still arrive after the reset, and it is the role user's, rightly counted.
        Map<String, Long> counted = new java.util.TreeMap<>(cluster.requestBreakdown());
        counted.keySet().removeIf(kind -> kind.endsWith(" pods"));
        assertEquals(Map.of("get jobs", 1L, "list jobs", 1L, "list secrets", 1L), counted,
                "the role user's requests, each once, and none of the admin's (list configmaps)");
        assertEquals(List.of("GET /api/v1/namespaces/ml/secrets"), cluster.forbiddenRequests());
    }

    @Test
    void theEvictionSubresourceMarksThePodAndDeletesIt() {
        admin.pods().resource(pod("evicted")).create();
        assertTrue(admin.pods().withName("evicted").evict());
        assertEquals(null, admin.pods().withName("evicted").get());
        KubernetesClientException missing = assertThrows(KubernetesClientException.class,
                () -> admin.pods().withName("never-there").evict());
        assertEquals(404, missing.getCode());
    }

    @Test
    void aRunningPodEvictedKeepsItsConditionUntilItsKubeletStopsIt() throws Exception {
        Pod stubborn = new PodBuilder().withNewMetadata().withName("stubborn").endMetadata().withNewSpec()
                .addNewContainer().withName("main").withImage("busybox")
                .withCommand("/bin/sh", "-c", "trap '' TERM; echo trapped; while :; do sleep 1; done").endContainer()
                .addNewToleration().withKey("kubernetes.azure.com/scalesetpriority").withOperator("Exists")
                .endToleration().endSpec().build();
        admin.pods().resource(stubborn).create();
        admin.pods().withName("stubborn").waitUntilCondition(
                p -> p != null && "Running".equals(p.getStatus().getPhase()), 10, TimeUnit.SECONDS);
        // Running means the process has started, not that its shell has set the trap yet: on a loaded machine a
        // SIGTERM sent at once ended it before the trap, and the pod was gone. The shell says when it is set.
        JobFixture.awaitTrue(() -> admin.pods().withName("stubborn").getLog().contains("trapped"));
        assertTrue(admin.pods().withName("stubborn").evict());
        Pod marked = admin.pods().withName("stubborn").get();
        assertNotNull(marked.getMetadata().getDeletionTimestamp(), "SIGTERM is ignored: the pod waits its grace");
        var condition = PodConditions.find(marked, "DisruptionTarget").orElseThrow();
        assertEquals("EvictionByEvictionAPI", condition.getReason());
        assertEquals("Eviction API: evicting", condition.getMessage());
        admin.pods().withName("stubborn").withGracePeriod(0).delete();
        JobFixture.awaitTrue(() -> admin.pods().withName("stubborn").get() == null);
    }

    @Test
    void logsAreTailedAndFollowedUntilTheContainerEnds() throws Exception {
        Pod created = admin.pods().resource(pod("talker")).create();
        Path file = cluster.logs().open("ml", "talker", created.getMetadata().getUid(), "main");
        Files.writeString(file, "one\ntwo\nthree\n");
        assertEquals("two\nthree\n", gantry.pods().withName("talker").tailingLines(2).getLog());
        assertEquals("one\ntwo\nthree\n", gantry.pods().withName("talker").getLog());

        try (LogWatch watch = gantry.pods().withName("talker").tailingLines(1).watchLog()) {
            CompletableFuture<String> all = CompletableFuture.supplyAsync(() -> readAll(watch.getOutput()));
            Thread.sleep(300);
            Files.writeString(file, "four\n", StandardOpenOption.APPEND);
            Thread.sleep(300);
            assertFalse(all.isDone(), "follow must wait while the container runs");
            cluster.logs().markEnded(file);
            assertEquals("three\nfour\n", all.get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void aContainerThatHasNotStartedHasNoLogYet() {
        admin.pods().resource(pod("waiting")).create();
        KubernetesClientException e = assertThrows(KubernetesClientException.class,
                () -> gantry.pods().withName("waiting").getLog());
        assertEquals(400, e.getCode());
        assertTrue(e.getMessage().contains("container \"main\" in pod \"waiting\" is waiting to start: ContainerCreating"),
                e.getMessage());
    }

    private static String readAll(InputStream in) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toString(StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static Job job(String name) {
        return new JobBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec().withNewTemplate()
                .withNewSpec().addNewContainer().withName("main").withImage("busybox").endContainer()
                .withRestartPolicy("Never").endSpec().endTemplate().endSpec().build();
    }

    /** A pod no node takes (its selector matches none), so no kubelet touches it. */
    static Pod pod(String name) {
        return new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec().addNewContainer()
                .withName("main").withImage("busybox").endContainer().addToNodeSelector("test", "nowhere").endSpec()
                .build();
    }
}
