package dev.gantry.backend.aks.testcluster;

import static dev.gantry.backend.aks.testcluster.JobFixture.awaitTrue;
import static dev.gantry.backend.aks.testcluster.JobFixture.condition;
import static dev.gantry.backend.aks.testcluster.JobFixture.job;
import static dev.gantry.backend.aks.testcluster.JobFixture.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyRuleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Job controller against the outcomes the Kubernetes documentation shows, replayed with real processes: the
 * pod-failure-policy examples (FailJob on exit code 42, Ignore on DisruptionTarget during a drain) and the
 * backoff-limit-per-index examples, field by field. The examples are run as Indexed Jobs (the mode Gantry uses and
 * this controller implements), with a Spot toleration (the test nodes are Spot) and with their sleeps shortened.
 */
class JobControllerTest {
    static JobFixture fixture;
    static KubernetesClient admin;

    @BeforeAll
    static void start() {
        fixture = JobFixture.start();
        admin = fixture.admin;
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    void podFailurePolicyFailJobExample() {
        Job job = job("job-pod-failure-policy-failjob", 8, 2, "echo \"Hello world! I'm going to exit with 42 to"
                + " simulate a software bug.\" && sleep 1 && exit 42")
                .editSpec().withBackoffLimit(6).withNewPodFailurePolicy().addToRules(new PodFailurePolicyRuleBuilder()
                        .withAction("FailJob").withNewOnExitCodes().withContainerName("main").withOperator("In")
                        .withValues(42).endOnExitCodes().build()).endPodFailurePolicy().endSpec().build();
        Job done = fixture.runToEnd(job);
        JobCondition failed = condition(done, "Failed");
        assertEquals("PodFailurePolicy", failed.getReason());
        assertTrue(failed.getMessage().matches("Container main for pod default/job-pod-failure-policy-failjob-[0-9]-"
                + "[a-z0-9]{5} failed with exit code 42 matching FailJob rule at index 0"), failed.getMessage());
        assertEquals(failed.getMessage(), condition(done, "FailureTarget").getMessage());
        assertEquals(List.of("FailureTarget", "Failed"), types(done));
        assertEquals(0, done.getStatus().getActive());
        assertNull(done.getStatus().getCompletionTime());
    }

    @Test
    void podFailurePolicyIgnoreExampleSurvivesADrain() throws Exception {
        Job job = job("job-pod-failure-policy-ignore", 4, 2, "sleep 3")
                .editSpec().withBackoffLimit(0).withNewPodFailurePolicy().addToRules(new PodFailurePolicyRuleBuilder()
                        .withAction("Ignore").addNewOnPodCondition().withType("DisruptionTarget").endOnPodCondition()
                        .build()).endPodFailurePolicy().endSpec().build();
        admin.batch().v1().jobs().resource(job).create();
        List<Pod> running = fixture.awaitPods("job-pod-failure-policy-ignore", p -> "Running".equals(p.getStatus().getPhase()), 2);
        for (Pod pod : running) {
            assertTrue(admin.pods().withName(pod.getMetadata().getName()).evict());
        }
        Job done = fixture.awaitEnd("job-pod-failure-policy-ignore");
        assertEquals(List.of("SuccessCriteriaMet", "Complete"), types(done));
        assertEquals(0, done.getStatus().getFailed() == null ? 0 : done.getStatus().getFailed());
        assertEquals(4, done.getStatus().getSucceeded());
        assertEquals("0-3", done.getStatus().getCompletedIndexes());
        assertEquals("CompletionsReached", condition(done, "Complete").getReason());
        assertEquals("Reached expected number of succeeded pods", condition(done, "Complete").getMessage());
        assertNotNull(done.getStatus().getCompletionTime());
    }

    @Test
    void backoffLimitPerIndexExample() {
        Job job = job("job-backoff-limit-per-index-example", 10, 3,
                "echo \"Hello world\"; if [ $((JOB_COMPLETION_INDEX % 2)) -eq 0 ]; then exit 1; fi")
                .editSpec().withBackoffLimitPerIndex(1).withMaxFailedIndexes(5).endSpec().build();
        Job done = fixture.runToEnd(job);
        assertEquals("1,3,5,7,9", done.getStatus().getCompletedIndexes());
        assertEquals("0,2,4,6,8", done.getStatus().getFailedIndexes());
        assertEquals(5, done.getStatus().getSucceeded());
        assertEquals(10, done.getStatus().getFailed());
        assertEquals(List.of("FailureTarget", "Failed"), types(done));
        assertEquals("FailedIndexes", condition(done, "Failed").getReason());
        assertEquals("Job has failed indexes", condition(done, "Failed").getMessage());
    }

    @Test
    void backoffLimitPerIndexFailIndexExampleAndTheFailureCountOnTheRetry() {
        Job job = job("job-backoff-limit-per-index-failindex", 4, 2,
                "if [ $JOB_COMPLETION_INDEX -eq 0 ]; then exit 1; elif [ $JOB_COMPLETION_INDEX -eq 1 ]; then exit 42;"
                        + " else exit 0; fi")
                .editSpec().withBackoffLimitPerIndex(1).withBackoffLimit(6).withNewPodFailurePolicy()
                .addToRules(new PodFailurePolicyRuleBuilder().withAction("FailIndex").withNewOnExitCodes()
                        .withContainerName("main").withOperator("In").withValues(42).endOnExitCodes().build())
                .endPodFailurePolicy().endSpec().build();
        Job done = fixture.runToEnd(job);
        assertEquals("0,1", done.getStatus().getFailedIndexes());
        assertEquals("2,3", done.getStatus().getCompletedIndexes());
        assertEquals(3, done.getStatus().getFailed());
        assertEquals(2, done.getStatus().getSucceeded());
        assertEquals("FailedIndexes", condition(done, "Failed").getReason());
        List<Pod> index0 = fixture.podsOf("job-backoff-limit-per-index-failindex").stream()
                .filter(p -> "0".equals(p.getMetadata().getAnnotations().get(JobController.COMPLETION_INDEX)))
                .sorted(Comparator.comparing(p -> p.getMetadata().getAnnotations().get(JobController.FAILURE_COUNT)))
                .toList();
        assertEquals(List.of("0", "1"), index0.stream()
                .map(p -> p.getMetadata().getAnnotations().get(JobController.FAILURE_COUNT)).toList());
    }

    @Test
    void indexedPodsAreNamedAndAddressedAsTheJobControllerMakesThem() {
        Job job = job("named", 2, 2, "echo index=$JOB_COMPLETION_INDEX host=$HOSTNAME")
                .editSpec().editTemplate().editSpec().withSubdomain("named").endSpec().endTemplate().endSpec().build();
        Job done = fixture.runToEnd(job);
        assertEquals("0,1", done.getStatus().getCompletedIndexes());
        for (Pod pod : fixture.podsOf("named")) {
            String index = pod.getMetadata().getAnnotations().get(JobController.COMPLETION_INDEX);
            assertTrue(pod.getMetadata().getName().matches("named-" + index + "-[a-z0-9]{5}"), pod.getMetadata().getName());
            assertEquals("named-" + index, pod.getSpec().getHostname());
            assertEquals("named", pod.getSpec().getSubdomain());
            assertEquals(index, pod.getMetadata().getLabels().get(JobController.COMPLETION_INDEX));
            assertEquals(done.getMetadata().getUid(), pod.getMetadata().getLabels().get(JobController.CONTROLLER_UID));
            assertTrue(pod.getMetadata().getFinalizers().isEmpty(), "the tracking finalizer goes once counted");
            assertEquals("index=" + index + " host=named-" + index + "\n",
                    admin.pods().withName(pod.getMetadata().getName()).getLog());
        }
    }

    @Test
    void aSuspendedJobRunsNothingUntilResumed() throws Exception {
        Job job = job("suspended", 1, 1, "exit 0").editSpec().withSuspend(true).endSpec().build();
        admin.batch().v1().jobs().resource(job).create();
        Thread.sleep(600);
        assertTrue(fixture.podsOf("suspended").isEmpty());
        Job suspended = admin.batch().v1().jobs().withName("suspended").get();
        assertEquals("JobSuspended", condition(suspended, "Suspended").getReason());
        assertNull(suspended.getStatus().getStartTime());
        admin.batch().v1().jobs().withName("suspended").edit(j -> {
            j.getSpec().setSuspend(false);
            return j;
        });
        Job done = fixture.awaitEnd("suspended");
        assertEquals("False", done.getStatus().getConditions().get(0).getStatus());
        assertEquals("JobResumed", done.getStatus().getConditions().get(0).getReason());
        assertTrue(types(done).contains("Complete"));
    }

    @Test
    void activeDeadlineSecondsEndsAJobThatRunsLonger() {
        Job job = job("deadline", 1, 1, "sleep 60").editSpec().withActiveDeadlineSeconds(1L).endSpec().build();
        Job done = fixture.runToEnd(job);
        assertEquals("DeadlineExceeded", condition(done, "Failed").getReason());
        assertEquals("Job was active longer than specified deadline", condition(done, "Failed").getMessage());
    }

    @Test
    void ttlSecondsAfterFinishedDeletesTheJobAndItsPods() throws Exception {
        Job job = job("short-lived", 1, 1, "exit 0").editSpec().withTtlSecondsAfterFinished(1).endSpec().build();
        fixture.runToEnd(job);
        awaitTrue(() -> admin.batch().v1().jobs().withName("short-lived").get() == null);
        awaitTrue(() -> fixture.podsOf("short-lived").isEmpty());
    }

    @Test
    void foregroundDeletionKeepsTheJobUntilItsPodsAreGone() throws Exception {
        // The rank takes two seconds to stop after its TERM, as a trainer writing its last checkpoint would: a
        // process that ends at once could take the pod, and with it the Job, before the first read.
        Job job = job("foreground", 1, 1, "trap 'sleep 2; exit 0' TERM; sleep 60 & wait").build();
        admin.batch().v1().jobs().resource(job).create();
        fixture.awaitPods("foreground", p -> "Running".equals(p.getStatus().getPhase()), 1);
        admin.batch().v1().jobs().withName("foreground")
                .withPropagationPolicy(io.fabric8.kubernetes.api.model.DeletionPropagation.FOREGROUND).delete();
        Job deleting = admin.batch().v1().jobs().withName("foreground").get();
        assertNotNull(deleting, "Foreground: the owner stays while its dependents go");
        assertNotNull(deleting.getMetadata().getDeletionTimestamp());
        assertTrue(deleting.getMetadata().getFinalizers().contains("foregroundDeletion"));
        awaitTrue(() -> admin.batch().v1().jobs().withName("foreground").get() == null);
        assertTrue(fixture.podsOf("foreground").isEmpty());
    }

    @Test
    void theJobsSecretAndServiceGoWithItThroughTheirOwnerReference() throws Exception {
        Job job = admin.batch().v1().jobs().resource(job("owner", 1, 1, "exit 0").build()).create();
        var owner = new io.fabric8.kubernetes.api.model.OwnerReferenceBuilder().withApiVersion("batch/v1")
                .withKind("Job").withName("owner").withUid(job.getMetadata().getUid()).build();
        admin.secrets().resource(new io.fabric8.kubernetes.api.model.SecretBuilder().withNewMetadata()
                .withName("owner-env").withOwnerReferences(owner).endMetadata().addToStringData("k", "v").build())
                .create();
        admin.services().resource(new io.fabric8.kubernetes.api.model.ServiceBuilder().withNewMetadata()
                .withName("owner").withOwnerReferences(owner).endMetadata().withNewSpec().withClusterIP("None")
                .endSpec().build()).create();
        fixture.awaitEnd("owner");
        admin.batch().v1().jobs().withName("owner").delete();
        awaitTrue(() -> admin.secrets().withName("owner-env").get() == null
                && admin.services().withName("owner").get() == null && fixture.podsOf("owner").isEmpty());
    }

    @Test
    void backgroundDeletionRemovesTheJobAtOnceAndItsPodsAfter() throws Exception {
        admin.batch().v1().jobs().resource(job("background", 1, 1, "sleep 60").build()).create();
        fixture.awaitPods("background", p -> "Running".equals(p.getStatus().getPhase()), 1);
        admin.batch().v1().jobs().withName("background").delete();
        assertNull(admin.batch().v1().jobs().withName("background").get());
        awaitTrue(() -> fixture.podsOf("background").isEmpty());
    }
}
