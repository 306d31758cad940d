package dev.gantry.backend.cyclecloud.internal.cyclecloud;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** The golden CycleCloud status answers and the layouts expected from them, under {@code golden/cyclecloud}. */
final class Goldens {
    /** A Slurm cluster with CycleCloud's default arrays hpc, htc, gpu and dynamic, and a login array. */
    static final String SLURM = "slurm-hpc-htc-gpu-dynamic";
    /** On-demand and Spot arrays of the same size, a Spot-only size, an invalid bucket; asked with nodes=true. */
    static final String SPOT = "spot-and-on-demand";
    /** Arrays with two VM sizes each (the published example's), one quota-limited; no state yet. */
    static final String MULTIPLE = "multiple-buckets";

    private Goldens() {
    }

    static String read(String file) {
        try (InputStream in = Goldens.class.getResourceAsStream("/golden/cyclecloud/" + file)) {
            if (in == null) {
                throw new AssertionError("golden file golden/cyclecloud/" + file + " is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static String status(String name) {
        return read(name + ".json");
    }

    static ClusterLayout layout(String cluster, String name) {
        return ClusterStatusParser.parse(cluster, status(name));
    }
}
