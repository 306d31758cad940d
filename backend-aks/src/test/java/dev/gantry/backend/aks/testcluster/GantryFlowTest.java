package dev.gantry.backend.aks.testcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyRuleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.LogWatch;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A submission shaped as the AKS backend makes it, done with the documented Role's user only: the Job created
 * suspended, its immutable Secret owned by it, the Job unsuspended; the pod's command a shim before the workload's
 * argv with every {@code $} doubled; its log followed; then a second job cancelled with Foreground deletion. No
 * request is forbidden.
 */
class GantryFlowTest {
    private static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    private static final String SHIM = "if [ -n \"$GANTRY_IGNORED_FAILURES\" ]; then export GANTRY_RESUME=1; fi;"
            + " exec \"$@\"";

    @TempDir
    Path work;

    @Test
    void submitFollowAndCancelUnderTheDocumentedRole() throws Exception {
        try (KubeTestCluster cluster = KubeTestCluster.builder().workDirectory(work).hostNetwork().start();
                KubernetesClient gantry = new KubernetesClientBuilder().withConfig(cluster.config()).build();
                var jobCache = gantry.batch().v1().jobs().withLabel(MANAGED_BY, "gantry").inform();
                var podCache = gantry.pods().withLabel(MANAGED_BY, "gantry").inform()) {
            submit(gantry, gantryJob("g-train", "printf", "%s\\n", "$$(MASTER_ADDR)", "a$$b", "$$SECRET_TOKEN"));
            Pod pod = awaitPod(gantry, "g-train");
            try (LogWatch follow = gantry.pods().withName(pod.getMetadata().getName()).watchLog()) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                follow.getOutput().transferTo(out);
                assertEquals("$(MASTER_ADDR)\na$b\n$SECRET_TOKEN\n", out.toString(StandardCharsets.UTF_8));
            }
            Job done = gantry.batch().v1().jobs().withName("g-train").waitUntilCondition(j -> j != null
                    && j.getStatus() != null && JobController.finished(j.getStatus()), 30, TimeUnit.SECONDS);
            assertTrue(JobFixture.types(done).contains("Complete"));
            gantry.secrets().withName("g-train-env").delete();

            submit(gantry, gantryJob("g-cancel", "sleep", "60"));
            awaitPod(gantry, "g-cancel");
            gantry.batch().v1().jobs().withName("g-cancel").withPropagationPolicy(DeletionPropagation.FOREGROUND)
                    .delete();
            JobFixture.awaitTrue(() -> gantry.batch().v1().jobs().withName("g-cancel").get() == null);
            assertTrue(gantry.pods().withLabel(JobController.JOB_NAME, "g-cancel").list().getItems().isEmpty());
            assertNull(gantry.secrets().withName("g-train-env").get());
            JobFixture.awaitTrue(() -> gantry.secrets().withName("g-cancel-env").get() == null);
            assertEquals(List.of(), cluster.forbiddenRequests());

            JobFixture.awaitTrue(() -> jobCache.getStore().list().stream().map(j -> j.getMetadata().getName()).toList()
                    .equals(List.of("g-train")) && podCache.getStore().list().size() == 1);
            cluster.resetRequestCount();
            Job cached = jobCache.getStore().getByKey(cluster.namespace() + "/g-train");
            assertTrue(JobFixture.types(cached).contains("Complete"), "the watch delivered the Job's end");
            assertEquals(0, cluster.requestCount(), "a warm cache answers without a request");
        }
    }

    /** Suspended Job, its Secret owned by it, then unsuspended: the backend's three requests for a job with secrets. */
    private static void submit(KubernetesClient gantry, Job job) {
        String name = job.getMetadata().getName();
        Job created = gantry.batch().v1().jobs().resource(job).create();
        gantry.secrets().resource(new SecretBuilder().withNewMetadata().withName(name + "-env")
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("batch/v1").withKind("Job")
                        .withName(name).withUid(created.getMetadata().getUid()).withController(true).build())
                .endMetadata().withImmutable(true).addToStringData("SECRET_TOKEN", "s3cr3t").build()).create();
        gantry.batch().v1().jobs().withName(name).edit(j -> {
            j.getSpec().setSuspend(false);
            return j;
        });
    }

    private static Pod awaitPod(KubernetesClient client, String job) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            List<Pod> running = client.pods().withLabel(JobController.JOB_NAME, job).list().getItems().stream()
                    .filter(p -> "Running".equals(p.getStatus().getPhase())
                            || "Succeeded".equals(p.getStatus().getPhase())).toList();
            if (!running.isEmpty()) {
                return running.get(0);
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no pod of " + job + " ran");
    }

    private static Job gantryJob(String name, String... argv) {
        List<String> command = new java.util.ArrayList<>(List.of("/bin/sh", "-c", SHIM, "gantry-rank"));
        command.addAll(List.of(argv));
        return JobFixture.job(name, 1, 1, "unused").editMetadata().addToLabels(MANAGED_BY, "gantry").endMetadata()
                .editSpec().withSuspend(true).withBackoffLimitPerIndex(0)
                .withMaxFailedIndexes(0).withPodReplacementPolicy("Failed").withTtlSecondsAfterFinished(86400)
                .withNewPodFailurePolicy()
                .addToRules(new PodFailurePolicyRuleBuilder().withAction("Ignore").addNewOnPodCondition()
                        .withType("DisruptionTarget").endOnPodCondition().build())
                .addToRules(new PodFailurePolicyRuleBuilder().withAction("FailJob").withNewOnExitCodes()
                        .withOperator("NotIn").withValues(0).endOnExitCodes().build())
                .endPodFailurePolicy().editTemplate().withNewMetadata().addToLabels(MANAGED_BY, "gantry").endMetadata()
                .editSpec().withAutomountServiceAccountToken(false)
                .editFirstContainer().withCommand(command)
                .addNewEnv().withName("SECRET_TOKEN").withNewValueFrom().withNewSecretKeyRef("SECRET_TOKEN",
                        name + "-env", false).endValueFrom().endEnv()
                .addNewEnv().withName("GANTRY_IGNORED_FAILURES").withNewValueFrom().withNewFieldRef().withFieldPath(
                        "metadata.annotations['batch.kubernetes.io/job-index-ignored-failure-count']").endFieldRef()
                        .endValueFrom().endEnv()
                .endContainer().endSpec().endTemplate().endSpec().build();
    }
}
