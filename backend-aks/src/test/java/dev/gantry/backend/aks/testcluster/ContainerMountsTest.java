package dev.gantry.backend.aks.testcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Which of a pod's volumes the Podman runtime provides, and how. */
class ContainerMountsTest {
    @Test
    void aMemoryEmptyDirAtDevShmSizesItAndAClaimIsItsMountPath() {
        Pod pod = new PodBuilder().withNewSpec().addNewContainer().withName("main")
                .addNewVolumeMount().withName("shm").withMountPath("/dev/shm").endVolumeMount()
                .addNewVolumeMount().withName("ckpt").withMountPath("/ckpt/run-1").withSubPath("ckpt/run-1")
                .endVolumeMount()
                .addNewVolumeMount().withName("scratch").withMountPath("/scratch").endVolumeMount().endContainer()
                .addNewVolume().withName("shm").withNewEmptyDir().withMedium("Memory")
                .withSizeLimit(new Quantity("2Gi")).endEmptyDir().endVolume()
                .addNewVolume().withName("ckpt").withNewPersistentVolumeClaim().withClaimName("checkpoints")
                .endPersistentVolumeClaim().endVolume()
                .addNewVolume().withName("scratch").withNewEmptyDir().endEmptyDir().endVolume().endSpec().build();
        ContainerMounts mounts = ContainerMounts.of(pod, pod.getSpec().getContainers().get(0));
        assertEquals(OptionalLong.of(2L << 30), mounts.shmBytes());
        assertEquals(List.of("/ckpt/run-1"), mounts.claimPaths());
    }

    @Test
    void withoutASizeLimitOrOnDiskDevShmKeepsTheRuntimesDefault() {
        Pod pod = new PodBuilder().withNewSpec().addNewContainer().withName("main")
                .addNewVolumeMount().withName("shm").withMountPath("/dev/shm").endVolumeMount().endContainer()
                .addNewVolume().withName("shm").withNewEmptyDir().endEmptyDir().endVolume().endSpec().build();
        assertEquals(ContainerMounts.NONE, ContainerMounts.of(pod, pod.getSpec().getContainers().get(0)));
    }
}
