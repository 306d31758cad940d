package dev.gantry.backend.cyclecloud;

import dev.gantry.api.GpuVendor;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.api.backend.EvictionHandling;
import dev.gantry.backend.cyclecloud.internal.CycleCloudSettings;
import dev.gantry.backend.cyclecloud.internal.gridengine.GridEngineBackend;
import dev.gantry.backend.cyclecloud.internal.login.LoginNode;
import dev.gantry.backend.cyclecloud.internal.slurm.SlurmBackend;
import dev.gantry.hosts.SshHost;
import dev.gantry.ssh.SshLoginSettings;
import dev.gantry.ssh.SshPool;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The {@code cyclecloud} backend: Azure CycleCloud clusters (and any Slurm or Grid Engine cluster) driven from their
 * login node over SSH. Jobs are the scheduler's own batch jobs, one directory each on the cluster's shared file system;
 * status is one scheduler query per poll; Spot jobs are requeued by the scheduler after an eviction.
 */
public final class CycleCloudBackendProvider implements BackendProvider {
    /**
     * What the backend can do on some cluster: jobs of several nodes, containers where the cluster has Pyxis,
     * Spot with the scheduler's requeue, dependencies the scheduler orders itself, logs followed on the shared file
     * system. Each scheduler's backend narrows it to what it does there.
     */
    private static final Capabilities CAPABILITIES = Capabilities.builder().multiNode(true).containers(true)
            .spot(true).nativeDependencies(true).followLogs(true).gpuVendors(Set.of(GpuVendor.NVIDIA, GpuVendor.AMD))
            .evictions(EvictionHandling.REQUEUES).build();
    /** The limit of each file command on the login node. */
    private static final Duration FILE_COMMAND_TIMEOUT = Duration.ofSeconds(30);

    public CycleCloudBackendProvider() {
        // ServiceLoader needs a public no-argument constructor; listing backends must stay cheap.
    }

    @Override
    public String name() {
        return "cyclecloud";
    }

    @Override
    public String description() {
        return "Azure CycleCloud and other Slurm or Grid Engine clusters, driven from the login node over SSH";
    }

    @Override
    public Capabilities capabilities() {
        return CAPABILITIES;
    }

    @Override
    public List<ConfigKey> configKeys() {
        return CycleCloudSettings.KEYS;
    }

    @Override
    public Backend create(BackendConfig config, BackendContext context) {
        CycleCloudSettings settings = CycleCloudSettings.bind(config);
        if (settings.insecureLogin()) {
            context.logger().log(System.Logger.Level.WARNING, "backends.cyclecloud: " + SshLoginSettings.INSECURE
                    + " is set: the login node's identity is NOT verified and a man in the middle would go unnoticed;"
                    + " pin its key with hostKeyFingerprint or knownHosts");
        }
        SshPool pool = new SshPool();
        SshHost login = new SshHost(settings.login().host(), settings.login(), config.describe(
                SshLoginSettings.ADDRESS), settings.workDir(), OptionalInt.empty(), pool, FILE_COMMAND_TIMEOUT);
        LoginNode node = new LoginNode(login, settings.binDir().map(d -> d + "/").orElse(""));
        return switch (settings.scheduler()) {
            case SLURM -> new SlurmBackend(node, settings, context, CAPABILITIES, pool::close);
            case GRIDENGINE -> new GridEngineBackend(node, settings, context, CAPABILITIES, pool::close);
            case PBS -> throw new IllegalStateException("PBS settings are refused when bound");
        };
    }
}
