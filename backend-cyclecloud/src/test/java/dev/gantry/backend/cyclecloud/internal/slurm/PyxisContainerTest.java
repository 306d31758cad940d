package dev.gantry.backend.cyclecloud.internal.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PyxisContainerTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "nvcr.io/nvidia/pytorch:24.01-py3,    nvcr.io#nvidia/pytorch:24.01-py3",
        "docker.io/library/busybox:1.36,      library/busybox:1.36",
        "docker.io/bitnami/redis:7.2,         bitnami/redis:7.2",
        "ghcr.io/x/y:1,                       ghcr.io#x/y:1",
        "localhost:5000/a/b,                  localhost:5000#a/b",
        "localhost/a/b,                       localhost#a/b",
        "myregistry.azurecr.io:443/team/app:2, myregistry.azurecr.io:443#team/app:2",
        "registry:5000/team/app,              registry:5000#team/app",
        "busybox:1.36,                        busybox:1.36",
        "nvidia/cuda:12.2.0-base-ubuntu22.04, nvidia/cuda:12.2.0-base-ubuntu22.04",
        "nvcr.io/nvidia/pytorch@sha256:0123abcd, nvcr.io#nvidia/pytorch@sha256:0123abcd",
    })
    void theImageInEnrootsFormSeparatesItsRegistryWithAHash(String image, String enroot) {
        assertEquals(enroot, new PyxisContainer(image, List.of()).enrootImage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/data,/etc", "/data:/etc", "/data:ro", "data", ""})
    void aMountPyxisWouldSplitOrThatIsNotAbsoluteIsRefused(String mount) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PyxisContainer("busybox:1.36", List.of("/ok", mount)));
        assertEquals("a container mount is an absolute path without ',' or ':' (Pyxis separates mounts with them): "
                + mount, e.getMessage());
    }

    @Test
    void theJobDirectoryIsMountedOnceFirstAndTheImagesWorkdirStandsWhenTheWorkloadNamesNone() {
        PyxisContainer container = new PyxisContainer("nvcr.io/nvidia/pytorch:24.01-py3",
                List.of("/shared/ckpt", "/shared/jobs/job-a"));
        assertEquals(List.of("'--container-image=nvcr.io#nvidia/pytorch:24.01-py3'",
                        "'--container-mounts=/shared/jobs/job-a:/shared/jobs/job-a,/shared/ckpt:/shared/ckpt'"),
                container.srunOptions("/shared/jobs/job-a", Optional.empty()));
        assertEquals("'--container-workdir=/workspace'",
                container.srunOptions("/shared/jobs/job-a", Optional.of("/workspace")).get(2));
    }

    @Test
    void eachOptionIsOneShellWordWhateverItHolds() {
        List<String> words = new PyxisContainer("ghcr.io/x/y:1", List.of("/shared/my data"))
                .srunOptions("/shared/jobs/job-a", Optional.of("/it's here"));
        assertEquals("'--container-mounts=/shared/jobs/job-a:/shared/jobs/job-a,/shared/my data:/shared/my data'",
                words.get(1));
        assertEquals("'--container-workdir=/it'\\''s here'", words.get(2));
        assertEquals("'--container-image=ghcr.io#x/y:1'", words.get(0));
    }
}
