package dev.gantry.hosts.probe;

import dev.gantry.api.GpuVendor;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parsers for {@code nvidia-smi}: the GPU list from
 * {@code --query-gpu=name,memory.total,driver_version --format=csv,noheader,nounits} (one line per GPU:
 * {@code NAME, MEMORY_MIB, DRIVER}) and the CUDA version from the header of plain {@code nvidia-smi}.
 */
public final class NvidiaSmi {
    private static final Pattern CUDA = Pattern.compile("CUDA Version:\\s*([0-9]+(?:\\.[0-9]+)*)");
    private static final Pattern DRIVER = Pattern.compile("Driver Version:\\s*([0-9]+(?:\\.[0-9]+)*)");
    private static final Pattern MIB = Pattern.compile("[0-9]+(?:\\.[0-9]+)?");

    private NvidiaSmi() {
    }

    /**
     * One GPU per non-blank line. A malformed line (wrong number of fields, memory not a number, e.g. {@code [N/A]})
     * is reported as a problem naming the line; the GPU is still counted when its name is readable, because a GPU
     * whose memory cannot be read is still a GPU.
     */
    public static Parsed<List<Gpu>> gpus(String text) {
        List<Gpu> gpus = new ArrayList<>();
        List<ProbeProblem> problems = new ArrayList<>();
        int lineNumber = 0;
        for (String raw : text.split("\n")) {
            lineNumber++;
            String line = raw.strip();
            if (line.isEmpty()) {
                continue;
            }
            // The name could in principle hold a comma, so memory and driver are the last two fields.
            int last = line.lastIndexOf(',');
            int middle = last > 0 ? line.lastIndexOf(',', last - 1) : -1;
            if (middle <= 0) {
                problems.add(new ProbeProblem("nvidia-smi", "line " + lineNumber
                        + ": expected 'NAME, MEMORY_MIB, DRIVER', got '" + ProbeOutput.abbreviate(line) + "'"));
                continue;
            }
            String name = line.substring(0, middle).strip();
            String memory = line.substring(middle + 1, last).strip();
            String driver = line.substring(last + 1).strip();
            OptionalDouble memoryGib = OptionalDouble.empty();
            if (MIB.matcher(memory).matches()) {
                memoryGib = OptionalDouble.of(Double.parseDouble(memory) / 1024.0);
            } else {
                problems.add(new ProbeProblem("nvidia-smi", "line " + lineNumber + ": memory.total of '" + name
                        + "' is '" + memory + "', expected MiB as a number"));
            }
            gpus.add(new Gpu(GpuVendor.NVIDIA, name, memoryGib,
                    driver.isEmpty() || driver.startsWith("[") ? Optional.empty() : Optional.of(driver)));
        }
        return new Parsed<>(gpus, problems);
    }

    /** The CUDA version the driver supports, from the {@code CUDA Version: 12.4} in the header table. */
    public static Optional<String> cudaVersion(String header) {
        Matcher m = CUDA.matcher(header);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** The driver version from the header table, {@code Driver Version: 550.54.15}. */
    public static Optional<String> driverVersion(String header) {
        Matcher m = DRIVER.matcher(header);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }
}
