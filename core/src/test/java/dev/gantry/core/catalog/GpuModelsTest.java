package dev.gantry.core.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.GpuVendor;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GpuModelsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "H200, NVIDIA, 141, 989",
            "H100, NVIDIA, 80, 989",
            "H100-NVL, NVIDIA, 94, 835",
            "MI300X, AMD, 192, 1307",
            "A100, NVIDIA, 40, 312",
            "A100-80GB, NVIDIA, 80, 312",
            "A10, NVIDIA, 24, 125",
            "V100, NVIDIA, 16, 125",
            "V100-32GB, NVIDIA, 32, 125",
            "T4, NVIDIA, 16, 65",
            "P100, NVIDIA, 16, 18.7",
            "P40, NVIDIA, 24, 11.8",
            "M60, NVIDIA, 8, 4.8",
            "K80, NVIDIA, 12, 4.4",
            "'Radeon MI25', AMD, 16, 24.6",
    })
    void tableHoldsTheIssuesFigures(String name, GpuVendor vendor, double memoryGib, double tflops) {
        GpuModel model = GpuModels.standard().get(name);
        assertEquals(name, model.name());
        assertEquals(vendor, model.vendor());
        assertEquals(memoryGib, model.memoryGib());
        assertEquals(tflops, model.tensorTflops());
    }

    @org.junit.jupiter.api.Test
    void newerModelsHaveLaterReleaseYears() {
        Map<String, GpuModel> models = GpuModels.standard();
        assertTrue(models.get("H200").releaseYear() > models.get("H100").releaseYear());
        assertTrue(models.get("H100").releaseYear() > models.get("A100").releaseYear());
        assertTrue(models.get("A100").releaseYear() > models.get("V100").releaseYear());
        assertTrue(models.get("V100").releaseYear() > models.get("K80").releaseYear());
    }
}
