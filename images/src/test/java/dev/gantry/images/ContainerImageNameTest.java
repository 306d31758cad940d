package dev.gantry.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ContainerImageNameTest {
    private static final String DIGEST = "sha256:" + "0123456789abcdef".repeat(4);

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "ubuntu, docker.io/library/ubuntu:latest",
            "ubuntu:22.04, docker.io/library/ubuntu:22.04",
            "pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime, docker.io/pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime",
            "docker.io/ubuntu, docker.io/library/ubuntu:latest",
            "index.docker.io/library/ubuntu:20.04, docker.io/library/ubuntu:20.04",
            "nvcr.io/nvidia/pytorch:24.05-py3, nvcr.io/nvidia/pytorch:24.05-py3",
            "myacr.azurecr.io/team/trainer, myacr.azurecr.io/team/trainer:latest",
            "localhost:5000/trainer:dev, localhost:5000/trainer:dev",
            "localhost/trainer, localhost/trainer:latest",
            "MyACR.azurecr.io/a/b_c__d-e.f:v1, myacr.azurecr.io/a/b_c__d-e.f:v1",
    })
    void normalizesLikeDocker(String given, String canonical) {
        assertEquals(canonical, ContainerImageName.parse(given).canonical());
    }

    @Test
    void splitsRegistryRepositoryTagAndDigest() {
        ContainerImageName name = ContainerImageName.parse("nvcr.io/nvidia/pytorch:24.05-py3@" + DIGEST);

        assertEquals("nvcr.io", name.registry());
        assertEquals("nvidia/pytorch", name.repository());
        assertEquals(Optional.of("24.05-py3"), name.tag());
        assertEquals(Optional.of(DIGEST), name.digest());
    }

    @Test
    void digestWithoutTagGetsNoLatestTag() {
        ContainerImageName name = ContainerImageName.parse("ubuntu@" + DIGEST);

        assertEquals(Optional.empty(), name.tag());
        assertEquals("docker.io/library/ubuntu@" + DIGEST, name.canonical());
    }

    @Test
    void upperCaseRepositoryIsRejectedWithTheLowerCaseFix() {
        GantryException e = assertThrows(GantryException.class,
                () -> ContainerImageName.parse("nvcr.io/NVIDIA/pytorch:24.05"));

        assertEquals(ErrorCode.SPEC_INVALID, e.code());
        assertEquals("container.image", e.problems().get(0).path());
        assertTrue(e.getMessage().contains("'NVIDIA'"), e.getMessage());
        assertTrue(e.getMessage().contains("write 'nvidia'"), e.getMessage());
    }

    @Test
    void everyProblemIsReported() {
        GantryException e = assertThrows(GantryException.class,
                () -> ContainerImageName.parse("bad_host!.io/Repo:-tag@sha256:123"));

        assertEquals(4, e.problems().size(), e.getMessage());
        assertTrue(e.getMessage().contains("write 'repo'"), e.getMessage());
        assertTrue(e.getMessage().contains("digest 'sha256:123'"), e.getMessage());
        assertTrue(e.getMessage().contains("tag '-tag'"), e.getMessage());
        assertTrue(e.getMessage().contains("registry 'bad_host!.io'"), e.getMessage());
    }

    @Test
    void shortSha256DigestIsRejectedWithItsLength() {
        GantryException e = assertThrows(GantryException.class,
                () -> ContainerImageName.parse("ubuntu@sha256:" + "ab".repeat(20)));

        assertTrue(e.getMessage().contains("exactly 64"), e.getMessage());
        assertTrue(e.getMessage().contains("got 40"), e.getMessage());
    }

    @Test
    void emptyAndMissingRepositoryAreRejected() {
        assertThrows(GantryException.class, () -> ContainerImageName.parse(""));
        GantryException e = assertThrows(GantryException.class, () -> ContainerImageName.parse("myacr.azurecr.io/"));
        assertTrue(e.getMessage().contains("names no repository"), e.getMessage());
        assertThrows(GantryException.class, () -> ContainerImageName.parse("ubuntu:22.04; rm -rf /"));
        assertThrows(GantryException.class, () -> ContainerImageName.parse("ubuntu:$(id)"));
    }

    @Test
    void relocateKeepsTagAndDigest() {
        ContainerImageName name = ContainerImageName.parse("ubuntu:22.04@" + DIGEST);

        assertEquals("mirror.example.com/hub/library/ubuntu:22.04@" + DIGEST,
                name.relocate("mirror.example.com", "hub").canonical());
        assertEquals("mirror.example.com/library/ubuntu:22.04@" + DIGEST,
                name.relocate("mirror.example.com", "").canonical());
    }
}
