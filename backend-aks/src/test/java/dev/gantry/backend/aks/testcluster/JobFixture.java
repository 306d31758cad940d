package dev.gantry.backend.aks.testcluster;

import static org.junit.jupiter.api.Assertions.assertFalse;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * A test cluster on the host network (no node namespaces needed) with an admin client, and the waits the
 * controller tests share: Jobs of a shell script run to their end, pods of a Job, conditions.
 */
final class JobFixture implements AutoCloseable {
    final KubeTestCluster cluster;
    final KubernetesClient admin;

    private JobFixture(KubeTestCluster cluster) {
        this.cluster = cluster;
        this.admin = new KubernetesClientBuilder().withConfig(cluster.adminConfig()).build();
    }

    static JobFixture start() {
        return new JobFixture(KubeTestCluster.builder().namespace("default").hostNetwork()
                .replacementDelay(Duration.ofMillis(200)).start());
    }

    @Override
    public void close() {
        admin.close();
        cluster.close();
    }

    /** An Indexed Job running {@code script} under /bin/sh on the Spot test nodes. */
    static JobBuilder job(String name, int completions, int parallelism, String script) {
        return new JobBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec()
                .withCompletions(completions).withParallelism(parallelism).withCompletionMode("Indexed")
                .withNewTemplate().withNewSpec().withRestartPolicy("Never").addNewContainer().withName("main")
                .withImage("docker.io/library/bash:5").withCommand("/bin/sh", "-c", script).endContainer()
                .addNewToleration().withKey(NodeTemplate.SCALE_SET_PRIORITY).withOperator("Exists").endToleration()
                .endSpec().endTemplate().endSpec();
    }

    Job runToEnd(Job job) {
        admin.batch().v1().jobs().resource(job).create();
        return awaitEnd(job.getMetadata().getName());
    }

    Job awaitEnd(String name) {
        return admin.batch().v1().jobs().withName(name).waitUntilCondition(j -> j != null && j.getStatus() != null
                && JobController.finished(j.getStatus()), 60, TimeUnit.SECONDS);
    }

    List<Pod> podsOf(String job) {
        return admin.pods().withLabel(JobController.JOB_NAME, job).list().getItems();
    }

    List<Pod> awaitPods(String job, Predicate<Pod> which, int count) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            List<Pod> pods = podsOf(job).stream().filter(which).toList();
            if (pods.size() >= count) {
                return pods;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("pods of " + job + " never reached the state: " + podsOf(job));
    }

    static void awaitTrue(BooleanSupplier check) throws InterruptedException {
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
