package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The volumes of a container that a container runtime of the test cluster provides: the size of a memory-backed
 * {@code emptyDir} at {@code /dev/shm} (its {@code sizeLimit}), and each PersistentVolumeClaim's mount path, which is
 * this machine's directory of that path (the test cluster has no storage of its own: a claim is the host directory,
 * exactly what a container run as a host process sees there, so every rank and attempt shares it). Other volumes are
 * not mounted.
 */
record ContainerMounts(OptionalLong shmBytes, List<String> claimPaths) {
    static final String SHM = "/dev/shm";
    static final ContainerMounts NONE = new ContainerMounts(OptionalLong.empty(), List.of());

    ContainerMounts {
        claimPaths = List.copyOf(claimPaths);
    }

    static ContainerMounts of(Pod pod, Container container) {
        OptionalLong shm = OptionalLong.empty();
        List<String> claims = new ArrayList<>();
        for (VolumeMount mount : container.getVolumeMounts()) {
            Optional<Volume> volume = pod.getSpec().getVolumes().stream()
                    .filter(v -> v.getName().equals(mount.getName())).findFirst();
            if (volume.isEmpty()) {
                continue;
            }
            var emptyDir = volume.get().getEmptyDir();
            if (SHM.equals(mount.getMountPath()) && emptyDir != null && "Memory".equals(emptyDir.getMedium())
                    && emptyDir.getSizeLimit() != null) {
                shm = OptionalLong.of(Quantity.getAmountInBytes(emptyDir.getSizeLimit()).longValueExact());
            } else if (volume.get().getPersistentVolumeClaim() != null) {
                claims.add(mount.getMountPath());
            }
        }
        return new ContainerMounts(shm, claims);
    }
}
