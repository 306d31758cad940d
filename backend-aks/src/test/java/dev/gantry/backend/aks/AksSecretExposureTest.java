package dev.gantry.backend.aks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.SecretRef;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.aks.testcluster.KubeTestCluster;
import dev.gantry.tck.TckContext;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A secret's value lives in the job's Secret and nowhere else: not in any other object the API server stores (Jobs,
 * pods, Services, events, config maps, in every namespace), not in the pods' logs or what the backend reads of them,
 * not in the backend's state directory; and the Secret goes once the job has ended.
 */
class AksSecretExposureTest {
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(30);

    @TempDir
    Path home;
    @TempDir
    Path clusterFiles;

    @Test
    void theSecretValueIsOnlyInTheJobsSecretWhichGoesWhenTheJobEnds() throws Exception {
        String value = "tck-secret-" + UUID.randomUUID();
        SecretRef ref = SecretRef.parse("env:TCK_TOKEN");
        try (KubeTestCluster cluster = KubeTestCluster.builder().workDirectory(clusterFiles).start();
             TckContext context = TckContext.create().putSecret(ref, value)) {
            AksKitFixture fixture = new AksKitFixture(cluster, home.resolve("kube/config"));
            Path release = context.scratchDirectory().resolve("release");
            Workload workload = Workload.builder("secret-scan").phase(Phase.INFERENCE).model(ModelClass.SMALL)
                    .command("sh", "-c", "echo \"token of ${#TCK_TOKEN} characters\"; "
                            + "while [ ! -e \"$1\" ]; do sleep 0.1; done", "sh", release.toString())
                    .secret("TCK_TOKEN", ref).build();
            try (Backend backend = fixture.create(context)) {
                JobRef job = backend.submit(fixture.plan(workload), SubmitOptions.withKey("secret-" + UUID.randomUUID()));
                String secretName = job.id() + "-env";
                awaitOutput(backend, job, "token of " + value.length() + " characters");

                List<String> holders = objectsHolding(fixture, value);
                assertEquals(List.of("Secret " + cluster.namespace() + "/" + secretName), holders,
                        "while the job runs, only its Secret holds the value");
                assertNoFileHolds(value, clusterFiles, context.stateDirectory());

                Files.createFile(release);
                JobStatus status = awaitEnd(backend, job);
                assertEquals(JobState.SUCCEEDED, status.state(), status.toString());
                awaitSecretGone(backend, fixture, job, secretName);
                assertEquals(List.of(), objectsHolding(fixture, value), "after the job ended, nothing holds it");
                assertNoFileHolds(value, clusterFiles, context.stateDirectory());
                List<LogLine> lines = new ArrayList<>();
                backend.logs(job, LogOptions.all(), lines::add);
                assertFalse(lines.isEmpty(), "the job's log is there to scan");
                assertTrue(lines.stream().noneMatch(line -> holds(line.text(), value)), lines.toString());
            }
        }
    }

    /** Every object of the kinds the backend makes or causes, in any namespace, that holds the value in any form. */
    private static List<String> objectsHolding(AksKitFixture fixture, String value) {
        List<HasMetadata> objects = new ArrayList<>();
        try (KubernetesClient admin = fixture.admin()) {
            objects.addAll(admin.batch().v1().jobs().inAnyNamespace().list().getItems());
            objects.addAll(admin.pods().inAnyNamespace().list().getItems());
            objects.addAll(admin.services().inAnyNamespace().list().getItems());
            objects.addAll(admin.v1().events().inAnyNamespace().list().getItems());
            objects.addAll(admin.configMaps().inAnyNamespace().list().getItems());
            objects.addAll(admin.secrets().inAnyNamespace().list().getItems());
        }
        assertTrue(objects.stream().anyMatch(o -> o.getKind().equals("Job")), "the scan sees the Job: " + objects);
        return objects.stream().filter(object -> holds(Serialization.asJson(object), value))
                .map(o -> o.getKind() + " " + o.getMetadata().getNamespace() + "/" + o.getMetadata().getName())
                .toList();
    }

    private static void assertNoFileHolds(String value, Path... roots) throws IOException {
        for (Path root : roots) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                    assertFalse(holds(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1), value),
                            "the secret's value is in " + root.relativize(file));
                }
            }
        }
    }

    /** The value as it is, or base64-encoded as a Secret's data carries it. */
    private static boolean holds(String text, String value) {
        return text.contains(value)
                || text.contains(Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)));
    }

    private static void awaitOutput(Backend backend, JobRef job, String line) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (true) {
            List<String> lines = new ArrayList<>();
            backend.logs(job, LogOptions.all(), l -> lines.add(l.text()));
            if (lines.contains(line)) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "no '" + line + "' from " + job + ": " + lines);
            Thread.sleep(100);
        }
    }

    private static JobStatus awaitEnd(Backend backend, JobRef job) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        JobStatus status = backend.status(job);
        while (!status.state().isTerminal()) {
            assertTrue(System.nanoTime() < deadline, job + " did not end: " + status);
            Thread.sleep(100);
            status = backend.status(job);
        }
        return status;
    }

    /** The backend deletes the Secret when it sees the job end (its status polled), not only with the Job's TTL. */
    private static void awaitSecretGone(Backend backend, AksKitFixture fixture, JobRef job, String name)
            throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        try (KubernetesClient admin = fixture.admin()) {
            while (admin.secrets().inNamespace(admin.getNamespace()).withName(name).get() != null) {
                assertTrue(System.nanoTime() < deadline, "Secret " + name + " outlived its ended job");
                backend.status(job);
                Thread.sleep(100);
            }
        }
    }
}
