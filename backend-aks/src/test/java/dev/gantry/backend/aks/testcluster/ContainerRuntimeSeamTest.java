package dev.gantry.backend.aks.testcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Images a runtime claims go to it (the seam for Podman); every other image runs as a process. */
class ContainerRuntimeSeamTest {
    @Test
    void aRuntimeRunsTheImagesItClaims() {
        List<ContainerRuntime.Spec> seen = new CopyOnWriteArrayList<>();
        ContainerRuntime marked = new ContainerRuntime() {
            @Override
            public boolean runs(String image) {
                return image.startsWith("gantry.test/");
            }

            @Override
            public Running start(Spec spec) throws java.io.IOException {
                seen.add(spec);
                Files.writeString(spec.logFile(), "from the image\n");
                return new ProcessRunning(new ProcessBuilder("true").start());
            }
        };
        try (KubeTestCluster cluster = KubeTestCluster.builder().hostNetwork().containerRuntime(marked).start();
                KubernetesClient admin = new KubernetesClientBuilder().withConfig(cluster.adminConfig()).build()) {
            Job inImage = JobFixture.job("in-image", 1, 1, "echo $0").editSpec().editTemplate().editSpec()
                    .editFirstContainer().withImage("gantry.test/busybox").endContainer().endSpec().endTemplate()
                    .endSpec().build();
            admin.batch().v1().jobs().resource(inImage).create();
            admin.batch().v1().jobs().withName("in-image").waitUntilCondition(j -> j != null && j.getStatus() != null
                    && JobController.finished(j.getStatus()), 30, TimeUnit.SECONDS);
            assertEquals(1, seen.size());
            assertEquals(List.of("/bin/sh", "-c", "echo $0"), seen.get(0).argv());
            assertEquals("gantry.test/busybox", seen.get(0).image());
            String pod = admin.pods().withLabel(JobController.JOB_NAME, "in-image").list().getItems().get(0)
                    .getMetadata().getName();
            assertEquals("from the image\n", admin.pods().withName(pod).getLog());
        }
    }
}
