package dev.gantry.backend.aks.testcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.testing.TestPodman;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The busybox test image under Podman in the default test cluster (the one the kit uses), in the node namespaces of
 * {@code scripts/test-kube.sh up}: pods see the image, get their argv and environment exactly, report exit codes and
 * start errors as on a node, meet each other by their pod DNS names, and stop when deleted.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PodmanRuntimeTest {
    private static final String IMAGE = TestPodman.IMAGE;

    private KubeTestCluster cluster;
    private KubernetesClient admin;

    @BeforeAll
    void start() {
        cluster = KubeTestCluster.builder().start();
        admin = new KubernetesClientBuilder().withConfig(cluster.adminConfig()).build();
    }

    @AfterAll
    void stop() {
        admin.close();
        cluster.close();
    }

    @Test
    void aPodSeesItsImageItsArgvAndEnvironmentExactlyAndItsExitCode() {
        admin.secrets().resource(new SecretBuilder().withNewMetadata().withName("creds").endMetadata()
                .addToStringData("token", "hunter2 $(A)").build()).create();
        String script = "test -e " + TestPodman.FILE_ONLY_IN_IMAGE + " && echo in-image; printf '<%s>' \"$@\"; echo;"
                + " printf '%s|' \"$A\" \"$B\" \"$SECRET\" \"$RANK\" \"$TERM\"; echo; hostname; pwd;"
                + " stat -f -c '%b*%S' /dev/shm; exit 7";
        Job job = JobFixture.job("image", 1, 1, script).editSpec().withBackoffLimit(0).editTemplate().editSpec()
                .editFirstContainer().withImage(IMAGE).withWorkingDir("/work/made/by/runtime")
                .withArgs("gantry-rank", "$$(A)", "two words", "new\nline", "$(A)", "*")
                .withEnv(new EnvVarBuilder().withName("A").withValue("plain").build(),
                        new EnvVarBuilder().withName("B").withValue("$(A)-$$x 'q' \"d\"\nnext line").build(),
                        new EnvVarBuilder().withName("SECRET").withNewValueFrom()
                                .withNewSecretKeyRef("token", "creds", false).endValueFrom().build(),
                        new EnvVarBuilder().withName("RANK").withNewValueFrom().withNewFieldRef().withFieldPath(
                                "metadata.annotations['batch.kubernetes.io/job-completion-index']").endFieldRef()
                                .endValueFrom().build())
                .addNewVolumeMount().withName("shm").withMountPath("/dev/shm").endVolumeMount().endContainer()
                .addNewVolume().withName("shm").withNewEmptyDir().withMedium("Memory")
                .withSizeLimit(new Quantity("32Mi")).endEmptyDir().endVolume()
                .endSpec().endTemplate().endSpec().build();
        run(job);
        Pod pod = pods("image").get(0);
        var terminated = pod.getStatus().getContainerStatuses().get(0).getState().getTerminated();
        assertEquals(7, terminated.getExitCode());
        assertEquals("Error", terminated.getReason());
        assertEquals("in-image\n<$(A)><two words><new\nline><plain><*>\n"
                + "plain|plain-$x 'q' \"d\"\nnext line|hunter2 $(A)|0||\nimage-0\n/work/made/by/runtime\n8192*4096\n",
                log(pod), "the image's file, argv, env (TERM unset), hostname, working directory, /dev/shm of 32Mi");
    }

    @Test
    void aProgramMissingFromTheImageIsAStartErrorInContainerdsWords() {
        Job job = JobFixture.job("missing", 1, 1, "unused").editSpec().withBackoffLimit(0).editTemplate().editSpec()
                .editFirstContainer().withImage(IMAGE).withCommand("/usr/bin/python3", "-c", "print(1)").endContainer()
                .endSpec().endTemplate().endSpec().build();
        run(job);
        Pod pod = pods("missing").get(0);
        var terminated = pod.getStatus().getContainerStatuses().get(0).getState().getTerminated();
        assertEquals("StartError", terminated.getReason());
        assertEquals(128, terminated.getExitCode());
        assertEquals(RuncMessages.execFailed("/usr/bin/python3", "stat /usr/bin/python3: no such file or directory"),
                terminated.getMessage(), "the host runs python3, the image has none");
        assertEquals("", log(pod), "Podman's own words are not the container's output");
    }

    @Test
    void rankOneReachesRankZeroByItsPodDnsName() {
        admin.services().resource(new ServiceBuilder().withNewMetadata().withName("meet").endMetadata()
                .withNewSpec().withClusterIP("None").withPublishNotReadyAddresses(true)
                .addToSelector("gantry.dev/job", "meet").endSpec().build()).create();
        String script = """
                if [ "$JOB_COMPLETION_INDEX" = 0 ]; then echo "rank 0 on $(hostname) heard: $(nc -l -p 29500)"; exit; fi
                for i in $(seq 150); do
                  nc "$MASTER_ADDR" 29500 2>/dev/null <<EOF && exit 0
                hello from $(hostname)
                EOF
                  sleep 0.2
                done
                exit 1
                """;
        Job job = JobFixture.job("meet", 2, 2, script).editSpec().withBackoffLimitPerIndex(0)
                .withMaxFailedIndexes(0).editTemplate().editOrNewMetadata().addToLabels("gantry.dev/job", "meet")
                .endMetadata().editSpec().withSubdomain("meet").withNewAffinity().withNewPodAntiAffinity()
                .addNewRequiredDuringSchedulingIgnoredDuringExecution().withNewLabelSelector()
                .addToMatchLabels("gantry.dev/job", "meet").endLabelSelector().withTopologyKey(NodeTemplate.HOSTNAME)
                .endRequiredDuringSchedulingIgnoredDuringExecution().endPodAntiAffinity().endAffinity()
                .editFirstContainer().withImage(IMAGE).addNewEnv().withName("MASTER_ADDR").withValue("meet-0.meet")
                .endEnv().endContainer().endSpec().endTemplate().endSpec().build();
        Job done = run(job);
        List<Pod> ranks = pods("meet").stream().sorted(Comparator.comparing(p -> p.getMetadata().getAnnotations()
                .get(JobController.COMPLETION_INDEX))).toList();
        assertEquals("0,1", done.getStatus().getCompletedIndexes(), log(ranks.get(0)) + log(ranks.get(1)));
        assertEquals("rank 0 on meet-0 heard: hello from meet-1\n", log(ranks.get(0)));
        assertEquals(Set.of("10.200.0.151", "10.200.0.152"), Set.of(ranks.get(0).getStatus().getPodIP(),
                ranks.get(1).getStatus().getPodIP()), "one rank on each node");
    }

    @Test
    void aDeletedPodsContainerIsStoppedAfterItsGracePeriodAndRemoved() throws Exception {
        Job job = JobFixture.job("deleted", 1, 1, "echo started; sleep 600").editSpec().withBackoffLimit(0)
                .editTemplate().editSpec()
                .editFirstContainer().withImage(IMAGE).endContainer().endSpec().endTemplate().endSpec().build();
        admin.batch().v1().jobs().resource(job).create();
        Pod running = awaitRunning("deleted");
        JobFixture.awaitTrue(() -> "started\n".equals(log(running)));
        List<String> containers = containersOf("deleted-0");
        assertEquals(1, containers.size(), "the pod's container runs under Podman: " + containers);
        long start = System.nanoTime();
        admin.pods().withName(running.getMetadata().getName()).withGracePeriod(1).delete();
        JobFixture.awaitTrue(() -> admin.pods().withName(running.getMetadata().getName()).get() == null);
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertTrue(seconds >= 1, "sleep as PID 1 ignores SIGTERM, as on a node: SIGKILL after the grace period");
        assertTrue(seconds < 15, "stopped within " + seconds + " s");
        // The Job controller may start a replacement (same hostname) before the Job fails: only this one must go.
        JobFixture.awaitTrue(() -> !containersOf("deleted-0").contains(containers.get(0)));
        admin.batch().v1().jobs().withName("deleted").delete();
    }

    @Test
    void closingTheClusterRemovesItsContainers() throws Exception {
        List<String> running;
        try (KubeTestCluster closed = KubeTestCluster.builder().start();
                KubernetesClient client = new KubernetesClientBuilder().withConfig(closed.adminConfig()).build()) {
            client.batch().v1().jobs().resource(JobFixture.job("closed", 1, 1, "sleep 600").editSpec().editTemplate()
                    .editSpec().editFirstContainer().withImage(IMAGE).endContainer().endSpec().endTemplate().endSpec()
                    .build())
                    .create();
            JobFixture.awaitTrue(() -> client.pods().withLabel(JobController.JOB_NAME, "closed").list().getItems()
                    .stream().anyMatch(p -> "Running".equals(p.getStatus().getPhase())));
            running = containersOf("closed-0");
            assertEquals(1, running.size(), "the pod's container runs under Podman: " + running);
        }
        assertTrue(containersOf("closed-0").stream().noneMatch(running::contains), "the container is gone at close");
    }

    @Test
    void whenPodmanIsNotWorkingTheContainerFailsToStartSayingSoNeverAsAHostProcess() {
        PodmanRuntime broken = new PodmanRuntime(Set.of("gantry.test/broken"), Path.of("/etc/netns"), () -> {
            throw new IllegalStateException("podman and runc are needed but are not installed; run"
                    + " scripts/setup-podman.sh as root");
        });
        try (KubeTestCluster hostCluster = KubeTestCluster.builder().hostNetwork().containerRuntime(broken).start();
                KubernetesClient client = new KubernetesClientBuilder().withConfig(hostCluster.adminConfig()).build()) {
            Job job = JobFixture.job("broken", 1, 1, "echo ran on the host").editSpec().withBackoffLimit(0)
                    .editTemplate().editSpec().editFirstContainer().withImage("gantry.test/broken").endContainer()
                    .endSpec().endTemplate().endSpec().build();
            client.batch().v1().jobs().resource(job).create();
            client.batch().v1().jobs().withName("broken").waitUntilCondition(j -> j != null && j.getStatus() != null
                    && JobController.finished(j.getStatus()), 60, TimeUnit.SECONDS);
            Pod pod = client.pods().withLabel(JobController.JOB_NAME, "broken").list().getItems().get(0);
            var terminated = pod.getStatus().getContainerStatuses().get(0).getState().getTerminated();
            assertEquals("StartError", terminated.getReason());
            assertEquals("the test cluster runs image gantry.test/broken under Podman, which is not working: podman"
                    + " and runc are needed but are not installed; run scripts/setup-podman.sh as root",
                    terminated.getMessage());
            assertEquals("", client.pods().withName(pod.getMetadata().getName()).getLog());
        }
    }

    @Test
    void podmansStartErrorsReadAsContainerdsAndOtherFailuresKeepTheirWords() {
        assertEquals(RuncMessages.execFailed("nosuch", "executable file not found in $PATH"),
                PodmanRuntime.startErrorMessage("Error: runc: runc create failed: unable to start container process:"
                        + " exec: \"nosuch\": executable file not found in $PATH: OCI runtime attempted to invoke a"
                        + " command that was not found\n"));
        assertEquals(RuncMessages.execFailed("/etc", "permission denied"), PodmanRuntime.startErrorMessage(
                "Error: runc: runc create failed: unable to start container process: exec: \"/etc\": permission"
                        + " denied: OCI permission denied"));
        assertEquals(RuncMessages.createFailed("no command or entrypoint provided"),
                PodmanRuntime.startErrorMessage("Error: no command or entrypoint provided"));
    }

    private Job run(Job job) {
        admin.batch().v1().jobs().resource(job).create();
        return admin.batch().v1().jobs().withName(job.getMetadata().getName()).waitUntilCondition(j -> j != null
                && j.getStatus() != null && JobController.finished(j.getStatus()), 60, TimeUnit.SECONDS);
    }

    private Pod awaitRunning(String job) throws InterruptedException {
        JobFixture.awaitTrue(() -> pods(job).stream().anyMatch(p -> "Running".equals(p.getStatus().getPhase())));
        return pods(job).get(0);
    }

    private List<Pod> pods(String job) {
        return admin.pods().withLabel(JobController.JOB_NAME, job).list().getItems();
    }

    private String log(Pod pod) {
        return admin.pods().withName(pod.getMetadata().getName()).getLog();
    }

    /** The IDs of this machine's test-cluster Podman containers whose hostname is {@code hostname}. */
    private static List<String> containersOf(String hostname) {
        TestPodman.Result ps = TestPodman.podman("ps", "--all", "--filter", "ancestor=" + IMAGE, "--filter",
                "label=dev.gantry.test-cluster", "--format", "{{.ID}}");
        assertEquals(0, ps.code(), ps.output());
        return ps.output().lines().filter(id -> !id.isBlank()).filter(id -> hostname.equals(
                TestPodman.podman("inspect", "--format", "{{.Config.Hostname}}", id).output())).toList();
    }
}
