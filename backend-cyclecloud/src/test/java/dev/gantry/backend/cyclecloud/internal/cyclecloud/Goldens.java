package dev.gantry.backend.cyclecloud.internal.cyclecloud;

import dev.gantry.testing.GoldenFiles;

/** The golden CycleCloud status answers and the layouts expected from them, under {@code golden/cyclecloud}. */
final class Goldens {
    static final GoldenFiles FILES = GoldenFiles.in("golden/cyclecloud");
    /** A Slurm cluster with CycleCloud's default arrays hpc, htc, gpu and dynamic, and a login array. */
    static final String SLURM = "slurm-hpc-htc-gpu-dynamic";
    /** On-demand and Spot arrays of the same size, a Spot-only size, an invalid bucket; asked with nodes=true. */
    static final String SPOT = "spot-and-on-demand";
    /** Arrays with two VM sizes each (the published example's), one quota-limited; no state yet. */
    static final String MULTIPLE = "multiple-buckets";

    private Goldens() {
    }

    static String read(String file) {
        return FILES.read(file);
    }

    static String status(String name) {
        return read(name + ".json");
    }

    static ClusterLayout layout(String cluster, String name) {
        return ClusterStatusParser.parse(cluster, status(name));
    }
}
