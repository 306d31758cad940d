package dev.gantry.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class ContainerImageResolverTest {
    private static final Map<String, String> MIRRORS = Map.of(
            "mirror.docker.io", "myacr.azurecr.io/dockerhub",
            "mirror.nvcr.io", "myacr.azurecr.io/nvcr");

    /** A rewriter that appends a marker to the repository, to observe order. */
    private record Suffix(String name, int priority) implements ImageNameRewriter {
        @Override
        public Optional<ContainerImageName> rewrite(ContainerImageName image) {
            return Optional.of(new ContainerImageName(image.registry(), image.repository() + "-" + name, image.tag(),
                    image.digest()));
        }
    }

    @Test
    void mirrorRedirectsDockerHubAndNvcrAndLeavesOthersAlone() {
        ContainerImageResolver resolver = new ContainerImageResolver(
                List.of(RegistryMirrorRewriter.fromConfig(MIRRORS)));

        assertEquals("myacr.azurecr.io/dockerhub/library/ubuntu:22.04",
                resolver.resolve("ubuntu:22.04").resolved().canonical());
        assertEquals("myacr.azurecr.io/nvcr/nvidia/pytorch:24.05-py3",
                resolver.resolve("nvcr.io/nvidia/pytorch:24.05-py3").resolved().canonical());
        ContainerImageResolver.Resolution untouched = resolver.resolve("ghcr.io/org/tool:1");
        assertFalse(untouched.rewritten());
        assertEquals(List.of(), untouched.steps());
    }

    @Test
    void recordsEachStepNamingTheRewriter() {
        ContainerImageResolver resolver = new ContainerImageResolver(
                List.of(RegistryMirrorRewriter.fromConfig(MIRRORS)));

        ContainerImageResolver.Resolution resolution = resolver.resolve("ubuntu");

        assertTrue(resolution.rewritten());
        assertEquals("docker.io/library/ubuntu:latest", resolution.original().canonical());
        assertEquals(List.of(
                "normalized: ubuntu -> docker.io/library/ubuntu:latest",
                "registry-mirror: docker.io/library/ubuntu:latest -> "
                        + "myacr.azurecr.io/dockerhub/library/ubuntu:latest"), resolution.steps());
    }

    @Test
    void appliesRewritersByPriorityThenName() {
        ContainerImageResolver resolver = new ContainerImageResolver(List.of(
                new Suffix("b", 0), new Suffix("low", -5), new Suffix("a", 0), new Suffix("high", 10)));

        assertEquals(List.of("high", "a", "b", "low"),
                resolver.rewriters().stream().map(ImageNameRewriter::name).toList());
        assertEquals("docker.io/library/x-high-a-b-low:latest", resolver.resolve("x").resolved().canonical());
    }

    @Test
    void priorityComesFromConfig() {
        assertEquals(7, RegistryMirrorRewriter.fromConfig(Map.of("mirror.nvcr.io", "m.example.com",
                "priority", "7")).priority());
    }

    @Test
    void badMirrorConfigNamesEveryBadKey() {
        GantryException e = assertThrows(GantryException.class, () -> RegistryMirrorRewriter.fromConfig(Map.of(
                "mirror.docker.io", "not a registry",
                "mirror.bad host", "myacr.azurecr.io",
                "priority", "high",
                "mirrors", "x")));

        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals(List.of("mirror.bad host", "mirror.docker.io", "mirrors", "priority"),
                e.problems().stream().map(Problem::path).sorted().toList(), e.getMessage());
        assertTrue(e.getMessage().contains("'not a registry'"), e.getMessage());
    }

    @Test
    void emptyMirrorConfigIsAnError() {
        GantryException e = assertThrows(GantryException.class, () -> RegistryMirrorRewriter.fromConfig(Map.of()));

        assertTrue(e.getMessage().contains("mirror.docker.io=myacr.azurecr.io/dockerhub"), e.getMessage());
    }

    @Test
    void malformedImageIsASpecError() {
        GantryException e = assertThrows(GantryException.class, () -> ContainerImageResolver.none().resolve("A B"));

        assertEquals(ErrorCode.SPEC_INVALID, e.code());
    }

    @Test
    void providerIsFoundWithServiceLoader() {
        ImageNameRewriterProvider provider = ServiceLoader.load(ImageNameRewriterProvider.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals(RegistryMirrorRewriter.NAME))
                .findFirst().orElseThrow();

        ImageNameRewriter rewriter = provider.create(MIRRORS);

        assertEquals("myacr.azurecr.io/nvcr/nvidia/cuda:12.4.1-base-ubuntu22.04",
                rewriter.rewrite(ContainerImageName.parse("nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04"))
                        .orElseThrow().canonical());
    }
}
