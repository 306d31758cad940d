package dev.gantry.images;

import static dev.gantry.images.Fixtures.D2_V2;
import static dev.gantry.images.Fixtures.D4PS_V5;
import static dev.gantry.images.Fixtures.D4S_V5;
import static dev.gantry.images.Fixtures.HB120RS_V3;
import static dev.gantry.images.Fixtures.NC24ADS_A100_V4;
import static dev.gantry.images.Fixtures.ND96ISR_H100_V5;
import static dev.gantry.images.Fixtures.ND96ISR_MI300X_V5;
import static dev.gantry.images.Fixtures.NV6;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Architecture;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.ImageRef;
import dev.gantry.api.Interconnect;
import dev.gantry.api.Problem;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ImageCatalogTest {
    private final ImageCatalog catalog = ImageCatalog.builtIn();

    static Stream<Arguments> rules() {
        Workload single = Fixtures.workload();
        return Stream.of(
                Arguments.of(D4PS_V5, single, "I2", ImageCatalog.UBUNTU_ARM64),
                Arguments.of(ND96ISR_MI300X_V5, single, "I3", ImageCatalog.HPC_ROCM),
                Arguments.of(ND96ISR_H100_V5, single, "I4", ImageCatalog.HPC),
                Arguments.of(HB120RS_V3, single, "I4", ImageCatalog.HPC),
                Arguments.of(NC24ADS_A100_V4, Fixtures.multiNode(2, Interconnect.INFINIBAND), "I4", ImageCatalog.HPC),
                Arguments.of(NV6, single, "I5", ImageCatalog.DSVM_GEN1),
                Arguments.of(D2_V2, single, "I5", ImageCatalog.DSVM_GEN1),
                Arguments.of(NC24ADS_A100_V4, single, "I6", ImageCatalog.DSVM_GEN2),
                Arguments.of(NC24ADS_A100_V4, Fixtures.multiNode(4, Interconnect.ETHERNET), "I6",
                        ImageCatalog.DSVM_GEN2),
                Arguments.of(D4S_V5, single, "I6", ImageCatalog.DSVM_GEN2));
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("rules")
    void choosesByRuleAndSaysWhich(VmSize size, Workload workload, String rule, VmImage expected) {
        ImageChoice choice = catalog.choose(size, workload);

        assertEquals(expected.ref(), choice.image());
        assertEquals(1, choice.reasons().size());
        assertEquals(rule, choice.reasons().get(0).rule());
        assertTrue(choice.reasons().get(0).text().contains(expected.id()), choice.reasons().get(0).text());
        assertEquals(choice, catalog.choose(size, workload), "the same input must give the same choice");
    }

    @Test
    void arm64SizeSaysThereIsNoDataScienceVmImage() {
        ImageChoice choice = catalog.choose(D4PS_V5, Fixtures.workload());

        assertTrue(choice.warnings().stream().anyMatch(w -> w.contains("no Data Science VM image exists for Arm64")),
                choice.warnings().toString());
        assertEquals(Architecture.ARM64, catalog.find(choice.image().id()).orElseThrow().architecture());
    }

    @Test
    void rocmChoiceWarnsThatSecureBootMustBeOff() {
        ImageChoice choice = catalog.choose(ND96ISR_MI300X_V5, Fixtures.workload());

        assertTrue(choice.warnings().stream().anyMatch(w -> w.contains("security type Standard")),
                choice.warnings().toString());
    }

    @Test
    void infiniBandWorkloadOnNonRdmaSizeGetsHpcImageAndAWarning() {
        ImageChoice choice = catalog.choose(NC24ADS_A100_V4, Fixtures.multiNode(2, Interconnect.INFINIBAND));

        assertEquals(ImageCatalog.HPC.ref(), choice.image());
        assertTrue(choice.warnings().stream().anyMatch(w -> w.contains("has no RDMA networking")),
                choice.warnings().toString());
    }

    @Test
    void builtInChoicesAreCompatibleWithTheirSizes() {
        for (VmSize size : List.of(D2_V2, D4PS_V5, D4S_V5, HB120RS_V3, NC24ADS_A100_V4, ND96ISR_H100_V5,
                ND96ISR_MI300X_V5, NV6)) {
            VmImage image = catalog.find(catalog.choose(size, Fixtures.workload()).image().id()).orElseThrow();
            assertEquals(List.of(), ImageCompatibility.problems(image, size), size.name());
        }
    }

    @Test
    void gen1OnlyRdmaSizeGetsGen1DsvmAndAnInfiniBandWarning() {
        VmSize nc24r = Fixtures.gpuSize("Standard_NC24r", "NC", 24, 224,
                new dev.gantry.api.GpuSpec("K80", 4, 12, dev.gantry.api.GpuVendor.NVIDIA), true, java.util.Set.of("V1"));

        ImageChoice choice = catalog.choose(nc24r, Fixtures.workload());

        assertEquals(ImageCatalog.DSVM_GEN1.ref(), choice.image());
        assertEquals("I5", choice.reasons().get(0).rule());
        assertTrue(choice.warnings().stream().anyMatch(w -> w.contains("no InfiniBand drivers")),
                choice.warnings().toString());
    }

    @Test
    void userImageWinsWithRuleI1AndUnknownContentsAreWarnedAbout() {
        ImageRef ref = ImageRef.marketplace("my image", "myorg:my-offer:my-sku:1.2.3");
        ImageCatalog withUser = ImageCatalog.withUserImage(ref);

        ImageChoice choice = withUser.choose(ND96ISR_H100_V5, Fixtures.workload());

        assertEquals(ref, choice.image());
        assertEquals("I1", choice.reasons().get(0).rule());
        assertTrue(choice.warnings().stream().anyMatch(w -> w.contains("contents Gantry does not know")),
                choice.warnings().toString());
        assertEquals(Optional.of(ref.id()), withUser.find(ref.id()).map(VmImage::id));
    }

    @Test
    void galleryImageIdIsAcceptedAsGalleryKind() {
        String id = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-ml/providers/"
                + "Microsoft.Compute/galleries/mlgallery/images/cuda-base/versions/1.0.0";

        ImageRef ref = ImageCatalog.parseImageRef(id);

        assertEquals(ImageRef.Kind.GALLERY, ref.kind());
        assertEquals(ref, ImageCatalog.withUserImage(ref).choose(D4S_V5, Fixtures.workload()).image());
    }

    @Test
    void malformedUserImageIdIsRejectedWithTheValueAndTheForms() {
        GantryException e = assertThrows(GantryException.class,
                () -> ImageCatalog.parseImageRef("ubuntu latest"));

        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals("image", e.problems().get(0).path());
        assertTrue(e.getMessage().contains("'ubuntu latest'"), e.getMessage());
        assertTrue(e.getMessage().contains("publisher:offer:sku:version"), e.getMessage());
    }

    @Test
    void incompatibleUserImageFailsWithEveryProblem() {
        ImageCatalog withUser = ImageCatalog.fromConfig(Map.of(
                "image", "myorg:old:gen1:latest",
                "image.generations", "V1",
                "image.architecture", "x64",
                "image.contents", "rocm"));

        GantryException e = assertThrows(GantryException.class,
                () -> withUser.choose(NC24ADS_A100_V4, Fixtures.workload()));

        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals(2, e.problems().size(), e.getMessage());
        assertTrue(e.getMessage().contains("Hyper-V generation V1"), e.getMessage());
        assertTrue(e.getMessage().contains("NVIDIA"), e.getMessage());
    }

    @Test
    void configDrivenUserImageCarriesDeclaredFacts() {
        ImageCatalog withUser = ImageCatalog.fromConfig(Map.of(
                "image", "myorg:hpc:custom:2.0.0",
                "image.name", "Team HPC",
                "image.generations", "V1,V2",
                "image.contents", "nvidia_driver, cuda, infiniband, docker",
                "image.secureBootOff", "true"));

        VmImage image = withUser.userImage().orElseThrow();

        assertEquals("Team HPC", image.name());
        assertTrue(image.contentsKnown());
        assertTrue(image.has(ImageComponent.INFINIBAND));
        assertFalse(image.has(ImageComponent.NCCL));
        assertEquals(java.util.Set.of("V1", "V2"), image.hyperVGenerations());
        assertTrue(image.secureBootOff());
        ImageChoice choice = withUser.choose(ND96ISR_H100_V5, Fixtures.workload());
        assertFalse(choice.warnings().stream().anyMatch(w -> w.contains("InfiniBand")), choice.warnings().toString());
    }

    @Test
    void configWithoutImageIsTheBuiltInCatalog() {
        assertEquals(Optional.empty(), ImageCatalog.fromConfig(Map.of("backend", "manual")).userImage());
    }

    @Test
    void badConfigReportsEveryProblemWithItsKey() {
        GantryException e = assertThrows(GantryException.class, () -> ImageCatalog.fromConfig(Map.of(
                "image", "not a urn",
                "image.generations", "V3",
                "image.architecture", "sparc",
                "image.contents", "cuda,quantum",
                "image.secureBootOff", "maybe",
                "image.colour", "blue")));

        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals(List.of("image", "image.architecture", "image.colour", "image.contents", "image.generations",
                        "image.secureBootOff"),
                e.problems().stream().map(Problem::path).sorted().toList(), e.getMessage());
        assertTrue(e.getMessage().contains("'sparc'"), e.getMessage());
        assertTrue(e.getMessage().contains("'quantum'"), e.getMessage());
    }

    @Test
    void imageSettingsWithoutAnImageAreAnError() {
        GantryException e = assertThrows(GantryException.class,
                () -> ImageCatalog.fromConfig(Map.of("image.generations", "V2")));

        assertEquals("image", e.problems().get(0).path());
        assertTrue(e.getMessage().contains("is required when image.generations is set"), e.getMessage());
    }

    @Test
    void hostImageCannotBeAUserImage() {
        GantryException e = assertThrows(GantryException.class, () -> ImageCatalog.withUserImage(ImageRef.host()));

        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
    }

    @Test
    void catalogListsTheBuiltInImagesWithTheirContents() {
        List<VmImage> entries = catalog.entries();

        assertEquals(List.of(ImageCatalog.DSVM_GEN2, ImageCatalog.DSVM_GEN1, ImageCatalog.HPC, ImageCatalog.HPC_ROCM,
                ImageCatalog.UBUNTU_ARM64), entries);
        assertTrue(ImageCatalog.HPC.has(ImageComponent.INFINIBAND) && ImageCatalog.HPC.has(ImageComponent.NCCL)
                && ImageCatalog.HPC.has(ImageComponent.MPI) && ImageCatalog.HPC.has(ImageComponent.NVIDIA_DRIVER));
        assertTrue(ImageCatalog.HPC_ROCM.has(ImageComponent.ROCM) && !ImageCatalog.HPC_ROCM.has(ImageComponent.CUDA));
        assertEquals(Optional.of(ImageCatalog.DSVM_GEN1), catalog.find("MICROSOFT-DSVM:ubuntu-2204:2204:latest"));
    }
}
