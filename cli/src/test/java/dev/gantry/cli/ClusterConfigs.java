package dev.gantry.cli;

import dev.gantry.backend.cyclecloud.slurm.TestCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * gantry.yaml for the CLI's runs on the real Slurm test cluster (and the shared directories they work in), or on this
 * machine as an Azure Spot VM.
 */
final class ClusterConfigs {
    private ClusterConfigs() {
    }

    /** A fresh directory under the cluster's shared one, writable by the login user whose jobs write there. */
    static Path sharedDirectory(TestCluster cluster, String prefix) throws IOException {
        Path shared = Path.of(cluster.sharedDirectory()).resolve(prefix + "-" + UUID.randomUUID());
        Files.createDirectories(shared);
        shared.toFile().setWritable(true, false);
        return shared;
    }

    /** The cyclecloud backend on the cluster's Slurm, jobs under {@code shared/jobs}, runs polled every second. */
    static String slurm(TestCluster cluster, Path shared, String... more) {
        return String.join("\n",
                "backend: cyclecloud",
                "backends:",
                "  cyclecloud:",
                "    address: " + cluster.value("LOGIN_ADDRESS"),
                "    port: " + cluster.value("LOGIN_PORT"),
                "    user: " + cluster.value("LOGIN_USER"),
                "    identityFile: " + cluster.value("LOGIN_IDENTITY"),
                "    hostKeyFingerprint: '" + cluster.value("LOGIN_FINGERPRINT") + "'",
                "    workDir: " + shared.resolve("jobs"),
                "    jobCompLog: " + cluster.value("SLURM_JOBCOMP"),
                "runs:",
                "  pollInterval: 1s",
                String.join("\n", more),
                "");
    }

    /**
     * The manual backend's local transport on this machine as an Azure Spot VM whose Scheduled Events are at
     * {@code eventsUrl} (a fake instance metadata service), runs polled every second.
     */
    static String localSpot(String eventsUrl, String... more) {
        return String.join("\n",
                "backend: manual",
                "backends:",
                "  manual:",
                "    spot: true",
                "    cancelGrace: 2s",
                "    scheduledEvents.endpoint: " + eventsUrl,
                "runs:",
                "  pollInterval: 1s",
                String.join("\n", more),
                "");
    }
}
