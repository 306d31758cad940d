package dev.gantry.backend.aks.testcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyRuleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Job controller against the outcomes the Kubernetes documentation shows, replayed with real processes: the
 * pod-failure-policy examples (FailJob on exit code 42, Ignore on DisruptionTarget during a drain) and the
 * backoff-limit-per-index examples, field by field. The examples are run as Indexed Jobs (the mode Gantry uses and
 * this controller implements), with a Spot toleration (the test nodes are Spot) and with their sleeps shortened.
 */
class JobControllerTest {
    @TempDir
    static Path work;
    static KubeTestCluster cluster;
    static KubernetesClient admin;

    @BeforeAll
    static void start() {
        cluster = KubeTestCluster.builder().namespace("default").workDirectory(work).hostNetwork()
                .replacementDelay(Duration.ofMillis(200)).start();
        admin = new KubernetesClientBuilder().withConfig(cluster.adminConfig()).build();
    }

    @AfterAll
    static void stop() {
        admin.close();
        cluster.close();
    }

    @Test
    void podFailurePolicyFailJobExample() {
        Job job = job("job-pod-failure-policy-failjob", 8, 2, "echo \"Hello world! I'm going to exit with 42 to"
                + " simulate a software bug.\" && sleep 1 && exit 42")
                .editSpec().withBackoffLimit(6).withNewPodFailurePolicy().addToRules(new PodFailurePolicyRuleBuilder()
                        .withAction("FailJob").withNewOnExitCodes().withContainerName("main").withOperator("In")
                        .withValues(42).endOnExitCodes().build()).endPodFailurePolicy().endSpec().build();
        Job done = runToEnd(job);
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
        List<Pod> running = awaitPods("job-pod-failure-policy-ignore", p -> "Running".equals(p.getStatus().getPhase()), 2);
        for (Pod pod : running) {
            assertTrue(admin.pods().withName(pod.getMetadata().getName()).evict());
        }
        Job done = awaitEnd("job-pod-failure-policy-ignore");
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
        Job done = runToEnd(job);
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
        Job done = runToEnd(job);
        assertEquals("0,1", done.getStatus().getFailedIndexes());
        assertEquals("2,3", done.getStatus().getCompletedIndexes());
        assertEquals(3, done.getStatus().getFailed());
        assertEquals(2, done.getStatus().getSucceeded());
        assertEquals("FailedIndexes", condition(done, "Failed").getReason());
        List<Pod> index0 = podsOf("job-backoff-limit-per-index-failindex").stream()
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
        Job done = runToEnd(job);
        assertEquals("0,1", done.getStatus().getCompletedIndexes());
        for (Pod pod : podsOf("named")) {
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
        assertTrue(podsOf("suspended").isEmpty());
        Job suspended = admin.batch().v1().jobs().withName("suspended").get();
        assertEquals("JobSuspended", condition(suspended, "Suspended").getReason());
        assertNull(suspended.getStatus().getStartTime());
        admin.batch().v1().jobs().withName("suspended").edit(j -> {
            j.getSpec().setSuspend(false);
            return j;
        });
        Job done = awaitEnd("suspended");
        assertEquals("False", done.getStatus().getConditions().get(0).getStatus());
        assertEquals("JobResumed", done.getStatus().getConditions().get(0).getReason());
        assertTrue(types(done).contains("Complete"));
    }

    @Test
    void activeDeadlineSecondsEndsAJobThatRunsLonger() {
        Job job = job("deadline", 1, 1, "sleep 60").editSpec().withActiveDeadlineSeconds(1L).endSpec().build();
        Job done = runToEnd(job);
        assertEquals("DeadlineExceeded", condition(done, "Failed").getReason());
        assertEquals("Job was active longer than specified deadline", condition(done, "Failed").getMessage());
    }

    @Test
    void ttlSecondsAfterFinishedDeletesTheJobAndItsPods() throws Exception {
        Job job = job("short-lived", 1, 1, "exit 0").editSpec().withTtlSecondsAfterFinished(1).endSpec().build();
        runToEnd(job);
        admin.batch().v1().jobs().withName("short-lived").waitUntilCondition(j -> j == null, 15, TimeUnit.SECONDS);
        awaitTrue(() -> podsOf("short-lived").isEmpty());
    }

    @Test
    void foregroundDeletionKeepsTheJobUntilItsPodsAreGone() throws Exception {
        Job job = job("foreground", 1, 1, "sleep 60").build();
        admin.batch().v1().jobs().resource(job).create();
        awaitPods("foreground", p -> "Running".equals(p.getStatus().getPhase()), 1);
        admin.batch().v1().jobs().withName("foreground")
                .withPropagationPolicy(io.fabric8.kubernetes.api.model.DeletionPropagation.FOREGROUND).delete();
        Job deleting = admin.batch().v1().jobs().withName("foreground").get();
        assertNotNull(deleting, "Foreground: the owner stays while its dependents go");
        assertNotNull(deleting.getMetadata().getDeletionTimestamp());
        assertTrue(deleting.getMetadata().getFinalizers().contains("foregroundDeletion"));
        admin.batch().v1().jobs().withName("foreground").waitUntilCondition(j -> j == null, 20, TimeUnit.SECONDS);
        assertTrue(podsOf("foreground").isEmpty());
    }

    @Test
    void backgroundDeletionRemovesTheJobAtOnceAndItsPodsAfter() throws Exception {
        admin.batch().v1().jobs().resource(job("background", 1, 1, "sleep 60").build()).create();
        awaitPods("background", p -> "Running".equals(p.getStatus().getPhase()), 1);
        admin.batch().v1().jobs().withName("background").delete();
        assertNull(admin.batch().v1().jobs().withName("background").get());
        awaitTrue(() -> podsOf("background").isEmpty());
    }

    static JobBuilder job(String name, int completions, int parallelism, String script) {
        return new JobBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec()
                .withCompletions(completions).withParallelism(parallelism).withCompletionMode("Indexed")
                .withNewTemplate().withNewSpec().withRestartPolicy("Never").addNewContainer().withName("main")
                .withImage("docker.io/library/bash:5").withCommand("/bin/sh", "-c", script).endContainer()
                .addNewToleration().withKey(NodeTemplate.SCALE_SET_PRIORITY).withOperator("Exists").endToleration()
                .endSpec().endTemplate().endSpec();
    }

    static Job runToEnd(Job job) {
        admin.batch().v1().jobs().resource(job).create();
        return awaitEnd(job.getMetadata().getName());
    }

    static Job awaitEnd(String name) {
        return admin.batch().v1().jobs().withName(name).waitUntilCondition(j -> j != null && j.getStatus() != null
                && JobController.finished(j.getStatus()), 60, TimeUnit.SECONDS);
    }

    static List<Pod> podsOf(String job) {
        return admin.pods().withLabel(JobController.JOB_NAME, job).list().getItems();
    }

    static List<Pod> awaitPods(String job, Predicate<Pod> which, int count) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            List<Pod> pods = podsOf(job).stream().filter(which).toList();
            if (pods.size() >= count) {
                return pods;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("pods of " + job + " never reached the state: " + podsOf(job));
    }

    static void awaitTrue(java.util.function.BooleanSupplier check) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            if (check.getAsBoolean()) {
                return;
            }
            Thread.sleep(100);
        }
        assertFalse(true, "condition not met within 30 s");
    }

    static JobCondition condition(Job job, String type) {
        return job.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + type + " condition in " + job.getStatus()));
    }

    static List<String> types(Job job) {
        return job.getStatus().getConditions().stream().filter(c -> "True".equals(c.getStatus()))
                .map(JobCondition::getType).toList();
    }
}
