package dev.gantry.images;

import static dev.gantry.images.Fixtures.D4PS_V5;
import static dev.gantry.images.Fixtures.D4S_V5;
import static dev.gantry.images.Fixtures.HB120RS_V3;
import static dev.gantry.images.Fixtures.NC24ADS_A100_V4;
import static dev.gantry.images.Fixtures.ND96ISR_H100_V5;
import static dev.gantry.images.Fixtures.ND96ISR_MI300X_V5;
import static dev.gantry.images.Fixtures.NV6;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Architecture;
import dev.gantry.api.ImageRef;
import dev.gantry.api.Problem;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ImageCompatibilityTest {

    private static void assertMentions(String text, String... parts) {
        for (String part : parts) {
            assertTrue(text.contains(part), "expected '" + part + "' in: " + text);
        }
    }

    @Test
    void gen2ImageOnGen1OnlySizeNamesImageSizeAndFix() {
        List<Problem> problems = ImageCompatibility.problems(ImageCatalog.DSVM_GEN2, NV6);

        assertEquals(1, problems.size());
        assertEquals("image", problems.get(0).path());
        assertMentions(problems.get(0).message(), ImageCatalog.DSVM_GEN2.id(), "Standard_NV6",
                "Hyper-V generation V2", "supports only V1", ImageCatalog.DSVM_GEN1.id());
    }

    @Test
    void gen1ImageOnGen2OnlySizeSuggestsTheGen2Image() {
        List<Problem> problems = ImageCompatibility.problems(ImageCatalog.DSVM_GEN1, NC24ADS_A100_V4);

        assertEquals(1, problems.size());
        assertMentions(problems.get(0).message(), "Standard_NC24ads_A100_v4", ImageCatalog.DSVM_GEN2.id());
    }

    @Test
    void cudaImageOnAmdGpusIsAProblem() {
        List<Problem> problems = ImageCompatibility.problems(ImageCatalog.HPC, ND96ISR_MI300X_V5);

        assertEquals(1, problems.size());
        assertMentions(problems.get(0).message(), ImageCatalog.HPC.id(), "Standard_ND96isr_MI300X_v5",
                "NVIDIA/CUDA", "8 AMD GPUs", ImageCatalog.HPC_ROCM.id());
    }

    @Test
    void rocmImageOnNvidiaGpusIsAProblem() {
        List<Problem> problems = ImageCompatibility.problems(ImageCatalog.HPC_ROCM, ND96ISR_H100_V5);

        assertEquals(1, problems.size());
        assertMentions(problems.get(0).message(), ImageCatalog.HPC_ROCM.id(), "Standard_ND96isr_H100_v5",
                "AMD ROCm", "NVIDIA GPUs", "NVIDIA driver");
    }

    @Test
    void x64ImageOnArm64SizeIsAProblemThatPointsAtTheArm64Image() {
        List<Problem> problems = ImageCompatibility.problems(ImageCatalog.DSVM_GEN2, D4PS_V5);

        assertEquals(1, problems.size());
        assertMentions(problems.get(0).message(), ImageCatalog.DSVM_GEN2.id(), "Standard_D4ps_v5", "built for x64",
                "arm64 CPUs", ImageCatalog.UBUNTU_ARM64.id(), "no Data Science VM image exists for Arm64");
    }

    @Test
    void everyBlockingProblemIsReportedNotOnlyTheFirst() {
        VmImage gen1Rocm = new VmImage("old rocm", "myorg:rocm:gen1:1", ImageRef.Kind.MARKETPLACE,
                EnumSet.of(ImageComponent.ROCM), true, Set.of("V1"), Architecture.ARM64, false, "");

        List<Problem> problems = ImageCompatibility.problems(gen1Rocm, NC24ADS_A100_V4);

        assertEquals(3, problems.size(), problems.toString());
    }

    @Test
    void rdmaSizeWithoutInfiniBandDriversIsAWarningNotAProblem() {
        assertEquals(List.of(), ImageCompatibility.problems(ImageCatalog.DSVM_GEN2, ND96ISR_H100_V5));

        List<String> warnings = ImageCompatibility.warnings(ImageCatalog.DSVM_GEN2, ND96ISR_H100_V5,
                Fixtures.workload());

        assertEquals(1, warnings.size(), warnings.toString());
        assertMentions(warnings.get(0), ImageCatalog.DSVM_GEN2.id(), "Standard_ND96isr_H100_v5", "InfiniBand",
                "RDMA size", ImageCatalog.HPC.id());
    }

    @Test
    void cpuRdmaSizeWithHpcImageHasNoWarnings() {
        assertEquals(List.of(), ImageCompatibility.problems(ImageCatalog.HPC, HB120RS_V3));
        assertEquals(List.of(), ImageCompatibility.warnings(ImageCatalog.HPC, HB120RS_V3, Fixtures.workload()));
    }

    @Test
    void gpuSizeWithDriverlessImageIsWarned() {
        List<String> warnings = ImageCompatibility.warnings(ImageCatalog.UBUNTU_ARM64, NC24ADS_A100_V4,
                Fixtures.workload());

        assertTrue(warnings.stream().anyMatch(w -> w.contains("ships no GPU driver")), warnings.toString());
    }

    @Test
    void compatiblePairsHaveNothingToSay() {
        assertEquals(List.of(), ImageCompatibility.problems(ImageCatalog.DSVM_GEN2, D4S_V5));
        assertEquals(List.of(), ImageCompatibility.warnings(ImageCatalog.DSVM_GEN2, NC24ADS_A100_V4,
                Fixtures.workload()));
    }
}
