package dev.gantry.core.catalog;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuVendor;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The project's GPU table ({@code gpus.csv}): vendor, memory, tensor TFLOPS and release year per GPU model. */
public final class GpuModels {
    private static final List<String> COLUMNS =
            List.of("name", "vendor", "memoryGib", "tensorTflops", "releaseYear", "source");
    private static volatile Map<String, GpuModel> standard;

    private GpuModels() {
    }

    /** The GPU models the project knows, by accelerator name ({@code H100}, {@code H100-NVL}, {@code A100-80GB}). */
    public static Map<String, GpuModel> standard() {
        Map<String, GpuModel> models = standard;
        if (models == null) {
            models = load();
            standard = models;
        }
        return models;
    }

    /**
     * The GPU table row for an accelerator on a size: the H100 of the NC and NCC series is the H100 NVL (94 GiB,
     * 835 TFLOPS), the ND series' the SXM part; every other accelerator name is its own row.
     */
    public static String modelName(String accelerator, SizeName size) {
        if (accelerator.equals("H100") && (size.family().equals("NC") || size.family().equals("NCC"))) {
            return "H100-NVL";
        }
        return accelerator;
    }

    private static Map<String, GpuModel> load() {
        TreeMap<String, GpuModel> models = new TreeMap<>();
        for (TableText.Row row : TableText.resource("gpus.csv", COLUMNS).rows()) {
            String vendorText = row.required("vendor");
            GpuVendor vendor;
            try {
                vendor = GpuVendor.valueOf(vendorText);
            } catch (IllegalArgumentException e) {
                throw row.invalid("vendor", "is '" + vendorText + "'; expected NVIDIA or AMD");
            }
            if (vendor == GpuVendor.ANY) {
                throw row.invalid("vendor", "is ANY; expected NVIDIA or AMD " + Arrays.toString(GpuVendor.values()));
            }
            GpuModel model = new GpuModel(row.required("name"), vendor,
                    row.optionalDouble("memoryGib").orElseThrow(() -> row.invalid("memoryGib", "is empty")),
                    row.optionalDouble("tensorTflops").orElseThrow(() -> row.invalid("tensorTflops", "is empty")),
                    row.optionalInt("releaseYear").orElseThrow(() -> row.invalid("releaseYear", "is empty")));
            if (models.put(model.name(), model) != null) {
                throw new GantryException(ErrorCode.CATALOG_INVALID,
                        "gpus.csv:" + row.line() + ": GPU model " + model.name() + " is listed twice");
            }
        }
        return Collections.unmodifiableMap(models);
    }
}
