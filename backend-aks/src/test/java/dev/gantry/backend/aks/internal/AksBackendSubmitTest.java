package dev.gantry.backend.aks.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.aks.internal.render.JobIdentity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AksBackendSubmitTest {
    @TempDir
    Path home;
    @TempDir
    Path state;
    private MockCluster cluster;

    @BeforeEach
    void start() throws IOException {
        cluster = new MockCluster(home);
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void aSubmitWithoutSecretsIsOneRequestAndItsRetryReturnsTheSameJob() {
        try (Backend backend = cluster.backend(state)) {
            Plan plan = MockCluster.plan("hello", 1);
            JobRef first = backend.submit(plan, SubmitOptions.withKey("hello-1"));
            assertEquals(1, backend.remoteCalls().getAsLong(), "one create");
            JobRef again = backend.submit(plan, SubmitOptions.withKey("hello-1"));
            assertEquals(first, again);
            assertEquals("aks", first.backend());
            assertEquals(1, cluster.controller.batch().v1().jobs().list().getItems().size(), "one Job");
            Job job = cluster.job(first.id());
            assertEquals("hello-1", job.getMetadata().getAnnotations().get(JobIdentity.IDEMPOTENCY_KEY));
            assertNull(job.getSpec().getSuspend(), "never suspended without a Secret to wait for");
        }
    }

    @Test
    void aSecretIsCreatedAfterTheSuspendedJobOwnedByItThenTheJobStarts() throws IOException {
        try (Backend backend = cluster.backend(state)) {
            JobRef ref = backend.submit(MockCluster.planWithSecret("tokens", 1), SubmitOptions.withKey("tokens-1"));
            assertEquals(3, backend.remoteCalls().getAsLong(), "create Job, create Secret, unsuspend");
            Job job = cluster.job(ref.id());
            assertEquals(Boolean.FALSE, job.getSpec().getSuspend(), "started once its Secret is in place");
            Secret secret = cluster.controller.secrets().withName(ref.id() + "-env").get();
            assertEquals(job.getMetadata().getUid(), secret.getMetadata().getOwnerReferences().get(0).getUid());
            assertEquals(Boolean.TRUE, secret.getImmutable());
            String jobText = Serialization.asJson(job);
            assertFalse(jobText.contains("value-of-HF_TOKEN"), jobText);
            assertTrue(jobText.contains("secretKeyRef"), "the pod reads it from the Secret");
            assertNoSecretIn(state);
        }
    }

    @Test
    void aSubmitKilledBetweenTheJobAndTheSecretConvergesToOneJobOnRetry() {
        Plan plan = MockCluster.planWithSecret("killed", 1);
        SubmitOptions options = SubmitOptions.withKey("killed-1");
        try (Backend backend = cluster.backend(state)) {
            // The first submit got as far as the suspended Job: what a kill after the first request leaves.
            String name = dev.gantry.api.backend.JobNames.dnsLabel("killed-1", JobIdentity.NAME_LENGTH);
            JobRef ref = backend.submit(plan, options);
            cluster.controller.secrets().withName(name + "-env").delete();
            Job job = cluster.job(name);
            cluster.controller.batch().v1().jobs().resource(new JobBuilder(job).editSpec().withSuspend(true)
                    .endSpec().build()).update();

            assertEquals(ref, backend.submit(plan, options));
            assertEquals(1, cluster.controller.batch().v1().jobs().list().getItems().size(), "exactly one Job");
            assertNotNull(cluster.controller.secrets().withName(name + "-env").get(), "the Secret made");
            assertEquals(Boolean.FALSE, cluster.job(name).getSpec().getSuspend(), "and the Job started");
        }
    }

    @Test
    void aKueueJobIsNeverUnsuspended() {
        try (Backend backend = cluster.backend(state, "kueueQueue", "team-a")) {
            JobRef ref = backend.submit(MockCluster.planWithSecret("queued", 1), SubmitOptions.withKey("queued-1"));
            assertEquals(Boolean.TRUE, cluster.job(ref.id()).getSpec().getSuspend(), "Kueue admits it");
            assertEquals(2, backend.remoteCalls().getAsLong(), "create Job, create Secret");
        }
    }

    @Test
    void aMultiNodeJobGetsItsHeadlessServiceOwnedByTheJob() {
        try (Backend backend = cluster.backend(state)) {
            JobRef ref = backend.submit(MockCluster.planWithSecret("ranks", 2), SubmitOptions.withKey("ranks-1"));
            assertEquals(4, backend.remoteCalls().getAsLong(), "Job, Service, Secret, unsuspend");
            var service = cluster.controller.services().withName(ref.id()).get();
            assertEquals("None", service.getSpec().getClusterIP());
            assertEquals(cluster.job(ref.id()).getMetadata().getUid(),
                    service.getMetadata().getOwnerReferences().get(0).getUid());
        }
    }

    @Test
    void anotherKeysObjectOfTheSameNameIsAnErrorNamingBothKeys() {
        String name = dev.gantry.api.backend.JobNames.dnsLabel("mine-1", JobIdentity.NAME_LENGTH);
        cluster.controller.batch().v1().jobs().resource(new JobBuilder().withNewMetadata().withName(name)
                .withNamespace(MockCluster.NAMESPACE).addToAnnotations(JobIdentity.IDEMPOTENCY_KEY, "theirs-7")
                .endMetadata().withNewSpec().withNewTemplate().endTemplate().endSpec().build()).create();
        try (Backend backend = cluster.backend(state)) {
            GantryException e = assertThrows(GantryException.class, () -> backend.submit(MockCluster.plan("mine",
                    1), SubmitOptions.withKey("mine-1")));
            assertEquals(ErrorCode.PLAN_REJECTED, e.code());
            assertTrue(e.getMessage().contains("'theirs-7'") && e.getMessage().contains("'mine-1'"),
                    e.getMessage());
            assertEquals("theirs-7", cluster.job(name).getMetadata().getAnnotations()
                    .get(JobIdentity.IDEMPOTENCY_KEY), "nothing changed");
        }
    }

    @Test
    void submitAllReturnsTheJobsInOrder() {
        List<Submission> submissions = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            submissions.add(new Submission(MockCluster.plan("many", 1), SubmitOptions.withKey("many-" + i)));
        }
        try (Backend backend = cluster.backend(state)) {
            List<JobRef> refs = backend.submitAll(submissions);
            for (int i = 0; i < 20; i++) {
                assertEquals(dev.gantry.api.backend.JobNames.dnsLabel("many-" + i, JobIdentity.NAME_LENGTH),
                        refs.get(i).id());
            }
            assertEquals(20, cluster.controller.batch().v1().jobs().list().getItems().size());
            assertEquals(20, backend.remoteCalls().getAsLong(), "one request per job");
        }
    }

    static void assertNoSecretIn(Path directory) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                assertFalse(Files.readString(file).contains("value-of-"), file + " holds a secret value");
            }
        }
    }
}
