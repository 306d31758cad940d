package dev.gantry.backend.manual;

import dev.gantry.api.GpuVendor;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.backend.manual.internal.LocalHost;
import dev.gantry.backend.manual.internal.ManualBackend;
import dev.gantry.backend.manual.internal.ManualSettings;
import dev.gantry.backend.manual.internal.SshBackend;
import dev.gantry.backend.manual.internal.events.SpotSettings;
import java.util.List;
import java.util.Set;

/**
 * The {@code manual} backend: runs workloads on machines the user manages. This version has the {@code local}
 * transport, the machine Gantry runs on; jobs run as detached process groups that outlive the CLI.
 */
public final class ManualBackendProvider implements BackendProvider {
    /**
     * Local jobs: one node, containers only once a container runtime is configured (a backend made with one says
     * so in its own capabilities); evictions are reported as PREEMPTED when signalled; logs
     * follow by polling the job's files.
     */
    private static final Capabilities CAPABILITIES =
            new Capabilities(false, false, true, false, true, Set.of(GpuVendor.NVIDIA, GpuVendor.AMD));

    /** SSH hosts: jobs of several nodes, one rank per host; the rest as local. */
    private static final Capabilities SSH_CAPABILITIES =
            new Capabilities(true, false, true, false, true, Set.of(GpuVendor.NVIDIA, GpuVendor.AMD));

    public ManualBackendProvider() {
        // ServiceLoader needs a public no-argument constructor; listing backends must stay cheap.
    }

    @Override
    public String name() {
        return ManualBackend.NAME;
    }

    @Override
    public String description() {
        return "machines you manage: runs jobs as detached processes on this machine or on SSH hosts";
    }

    @Override
    public Capabilities capabilities() {
        return CAPABILITIES;
    }

    @Override
    public List<ConfigKey> configKeys() {
        return ManualSettings.KEYS;
    }

    @Override
    public Backend create(BackendConfig config, BackendContext context) {
        ManualSettings settings = ManualSettings.bind(config, context);
        if (settings.transport().equals("ssh")) {
            return SshBackend.create(config, settings, context, SSH_CAPABILITIES);
        }
        Capabilities capabilities = new Capabilities(CAPABILITIES.multiNode(), settings.container().enabled(),
                CAPABILITIES.spot(), CAPABILITIES.nativeDependencies(), CAPABILITIES.followLogs(),
                CAPABILITIES.gpuVendors());
        return new ManualBackend(LocalHost.detect(), settings, context, capabilities, SpotSettings.bind(config));
    }
}
