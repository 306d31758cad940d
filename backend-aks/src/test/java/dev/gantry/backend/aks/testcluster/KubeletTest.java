package dev.gantry.backend.aks.testcluster;

import static dev.gantry.backend.aks.testcluster.JobFixture.condition;
import static dev.gantry.backend.aks.testcluster.JobFixture.job;
import static dev.gantry.backend.aks.testcluster.JobFixture.types;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyRuleBuilder;
import io.fabric8.kubernetes.client.dsl.LogWatch;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kubelet: containers as real processes, with the environment, argv and outcomes a kubelet gives them. */
class KubeletTest {
    static JobFixture fixture;

    @BeforeAll
    static void startCluster() {
        fixture = JobFixture.start();
    }

    @AfterAll
    static void stopCluster() {
        fixture.close();
    }

    @Test
    void environmentAndArgvAreExpandedExactlyAsTheKubeletDoes() {
        fixture.admin.secrets().resource(new SecretBuilder().withNewMetadata().withName("creds")
                .endMetadata().addToStringData("token", "hunter2").build()).create();
        Job job = job("env", 1, 1, "printf '%s|' \"$@\"; echo; env | grep -E '^(A|B|C|D|SECRET|RANK)=' | sort")
                .editSpec().editTemplate().editSpec().editFirstContainer()
                .withArgs("gantry-rank", "$(A)", "$$(A)", "a$b", "$(", "$$$$")
                .withEnv(value("A", "plain"), value("B", "$(A)-x"), value("C", "$$(A)"), value("D", "$(UNDEFINED)"),
                        new EnvVarBuilder().withName("SECRET").withNewValueFrom().withNewSecretKeyRef("token", "creds",
                                false).endValueFrom().build(),
                        new EnvVarBuilder().withName("RANK").withNewValueFrom().withNewFieldRef().withFieldPath(
                                "metadata.annotations['batch.kubernetes.io/job-completion-index']").endFieldRef()
                                .endValueFrom().build())
                .endContainer().endSpec().endTemplate().endSpec().build();
        fixture.runToEnd(job);
        assertEquals("""
                plain|$(A)|a$b|$(|$$|
                A=plain
                B=plain-x
                C=$(A)
                D=$(UNDEFINED)
                RANK=0
                SECRET=hunter2
                """, log("env"));
    }

    @Test
    void theWorkingDirectoryIsMadeAndTheExitCodeReported(@TempDir Path work) {
        Path dir = work.resolve("made/by/runtime");
        Job job = job("exits", 1, 1, "pwd; exit 3").editSpec().withBackoffLimit(0).editTemplate().editSpec()
                .editFirstContainer().withWorkingDir(dir.toString()).endContainer().endSpec().endTemplate().endSpec()
                .build();
        fixture.runToEnd(job);
        Pod pod = fixture.podsOf("exits").get(0);
        assertEquals("Failed", pod.getStatus().getPhase());
        var terminated = pod.getStatus().getContainerStatuses().get(0).getState().getTerminated();
        assertEquals(3, terminated.getExitCode());
        assertEquals("Error", terminated.getReason());
        assertEquals(dir + "\n", log("exits"));
    }

    @Test
    void aMissingProgramIsAStartErrorWithTheRuntimesMessage() {
        Job job = job("missing", 1, 1, "unused").editSpec().withBackoffLimit(0).editTemplate().editSpec()
                .editFirstContainer().withCommand("no-such-program", "--flag").endContainer().endSpec().endTemplate()
                .endSpec().build();
        fixture.runToEnd(job);
        var terminated = fixture.podsOf("missing").get(0).getStatus().getContainerStatuses().get(0).getState().getTerminated();
        assertEquals("StartError", terminated.getReason());
        assertEquals(128, terminated.getExitCode());
        assertTrue(terminated.getMessage().endsWith("exec: \"no-such-program\": executable file not found in $PATH:"
                + " unknown"), terminated.getMessage());
    }

    @Test
    void aMissingSecretKeepsThePodWaitingWithCreateContainerConfigError() throws Exception {
        Job job = job("nosecret", 1, 1, "exit 0").editSpec().editTemplate().editSpec().editFirstContainer()
                .withEnv(new EnvVarBuilder().withName("S").withNewValueFrom().withNewSecretKeyRef("k", "absent", false)
                        .endValueFrom().build()).endContainer().endSpec().endTemplate().endSpec().build();
        fixture.admin.batch().v1().jobs().resource(job).create();
        Pod pod = fixture.awaitPods("nosecret", p -> !p.getStatus().getContainerStatuses().isEmpty(), 1).get(0);
        assertEquals("Pending", pod.getStatus().getPhase());
        var waiting = pod.getStatus().getContainerStatuses().get(0).getState().getWaiting();
        assertEquals("CreateContainerConfigError", waiting.getReason());
        assertEquals("secret \"absent\" not found", waiting.getMessage());
        fixture.admin.secrets().resource(new SecretBuilder().withNewMetadata().withName("absent")
                .endMetadata().addToStringData("k", "v").build()).create();
        assertTrue(types(fixture.awaitEnd("nosecret")).contains("Complete"), "the kubelet retries once the Secret exists");
    }

    @Test
    void followingALogStreamsTheProcessOutputUntilItEnds() throws Exception {
        Job job = job("follow", 1, 1, "for i in 1 2 3; do echo line $i; sleep 0.3; done").build();
        fixture.admin.batch().v1().jobs().resource(job).create();
        Pod pod = fixture.awaitPods("follow", p -> "Running".equals(p.getStatus().getPhase()), 1).get(0);
        try (LogWatch watch = fixture.admin.pods().withName(pod.getMetadata().getName()).watchLog()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            watch.getOutput().transferTo(out);
            assertEquals("line 1\nline 2\nline 3\n", out.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void aDeletedNodesPodIsCollectedAsDisruptedAndItsIndexRequeuedWithTheIgnoredCount() throws Exception {
        Job job = job("requeued", 1, 1, "if [ -n \"$IGNORED\" ]; then echo resumed; exit 0; fi; sleep 60")
                .editSpec().withBackoffLimitPerIndex(0).withMaxFailedIndexes(0).withPodReplacementPolicy("Failed")
                .withNewPodFailurePolicy()
                .addToRules(new PodFailurePolicyRuleBuilder().withAction("Ignore").addNewOnPodCondition()
                        .withType("DisruptionTarget").endOnPodCondition().build())
                .addToRules(new PodFailurePolicyRuleBuilder().withAction("FailJob").withNewOnExitCodes()
                        .withOperator("NotIn").withValues(0).endOnExitCodes().build())
                .endPodFailurePolicy().editTemplate().editSpec().editFirstContainer()
                .withEnv(new EnvVarBuilder().withName("IGNORED").withNewValueFrom().withNewFieldRef().withFieldPath(
                        "metadata.annotations['batch.kubernetes.io/job-index-ignored-failure-count']").endFieldRef()
                        .endValueFrom().build())
                .endContainer().endSpec().endTemplate().endSpec().build();
        fixture.admin.batch().v1().jobs().resource(job).create();
        Pod first = fixture.awaitPods("requeued", p -> "Running".equals(p.getStatus().getPhase()), 1).get(0);
        String replacementNode = fixture.cluster.evictNode(first.getSpec().getNodeName())
                .get(10, TimeUnit.SECONDS);
        Job done = fixture.awaitEnd("requeued");
        assertEquals(List.of("SuccessCriteriaMet", "Complete"), types(done));
        assertEquals(0, done.getStatus().getFailed() == null ? 0 : done.getStatus().getFailed());
        List<Pod> pods = fixture.podsOf("requeued").stream()
                .sorted(Comparator.comparing(p -> p.getMetadata().getCreationTimestamp())).toList();
        assertEquals(1, pods.size(), "the collected pod is gone once counted: " + pods);
        Pod replacement = pods.get(0);
        assertEquals("1", replacement.getMetadata().getAnnotations().get(JobController.IGNORED_FAILURE_COUNT));
        assertEquals("0", replacement.getMetadata().getAnnotations().get(JobController.FAILURE_COUNT));
        assertEquals("resumed\n", fixture.admin.pods().withName(replacement.getMetadata().getName()).getLog());
        assertNull(fixture.admin.pods().withName(first.getMetadata().getName()).get());
        assertTrue(fixture.cluster.nodeNames().contains(replacementNode));
        assertEquals("CompletionsReached", condition(done, "Complete").getReason());
    }

    @Test
    void aNodeThatStopsAnsweringHasItsPodsEvictedByTheTaintManagerAfterTheirToleration() throws Exception {
        Job job = job("lost", 1, 1, "sleep 60").editSpec().editTemplate().editSpec()
                .addNewToleration().withKey("node.kubernetes.io/unreachable").withOperator("Exists")
                .withEffect("NoExecute").withTolerationSeconds(1L).endToleration().endSpec().endTemplate().endSpec()
                .build();
        fixture.admin.batch().v1().jobs().resource(job).create();
        Pod running = fixture.awaitPods("lost", p -> "Running".equals(p.getStatus().getPhase()), 1).get(0);
        fixture.cluster.stopNode(running.getSpec().getNodeName());
        var node = fixture.admin.nodes().withName(running.getSpec().getNodeName()).get();
        assertEquals("Unknown", node.getStatus().getConditions().get(0).getStatus());
        assertEquals(List.of("node.kubernetes.io/unreachable"), node.getSpec().getTaints().stream()
                .filter(t -> "NoExecute".equals(t.getEffect())).map(t -> t.getKey()).toList());
        Pod evicted = fixture.awaitPods("lost", p -> p.getMetadata().getDeletionTimestamp() != null, 1).get(0);
        var condition = PodConditions.find(evicted, "DisruptionTarget").orElseThrow();
        assertEquals("DeletionByTaintManager", condition.getReason());
        assertEquals("Taint manager: deleting due to NoExecute taint", condition.getMessage());
        assertEquals("Running", evicted.getStatus().getPhase(), "no kubelet reports its end: it stays Terminating");
        fixture.cluster.deleteNode(running.getSpec().getNodeName());
        JobFixture.awaitTrue(() -> fixture.admin.pods().withName(running.getMetadata().getName()).get() == null);
    }

    private static String log(String job) {
        Pod pod = fixture.podsOf(job).get(0);
        return fixture.admin.pods().withName(pod.getMetadata().getName()).getLog();
    }

    private static EnvVar value(String name, String value) {
        return new EnvVarBuilder().withName(name).withValue(value).build();
    }
}
