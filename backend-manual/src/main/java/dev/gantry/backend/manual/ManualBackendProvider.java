package dev.gantry.backend.manual;

import dev.gantry.api.GpuVendor;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.api.backend.ProvisionedHostDoctor;
import dev.gantry.backend.manual.internal.ManualBackend;
import dev.gantry.backend.manual.internal.doctor.ProvisionedVmDoctor;
import dev.gantry.backend.manual.internal.settings.ManualSettings;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code manual} backend: runs workloads on machines the user manages, the one Gantry runs on ({@code local}) or
 * hosts reached over SSH ({@code ssh}); jobs run as detached process groups that outlive the CLI, their argv
 * directly or in a Docker or Podman container.
 */
public final class ManualBackendProvider implements BackendProvider {
    /**
     * What the backend can do in some configuration: jobs of several nodes (one rank per SSH host), container
     * images (once a container runtime is configured), evictions reported as PREEMPTED, logs followed by polling
     * the job's files. A backend made from settings reports what those settings allow.
     */
    private static final Capabilities CAPABILITIES =
            new Capabilities(true, true, true, false, true, Set.of(GpuVendor.NVIDIA, GpuVendor.AMD));

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

    /** The manual backend runs jobs on provisioned VMs ({@code provisioned}), so it checks them for {@code vm up}. */
    @Override
    public Optional<ProvisionedHostDoctor> provisionedHostDoctor() {
        return Optional.of(new ProvisionedVmDoctor(this));
    }

    @Override
    public Backend create(BackendConfig config, BackendContext context) {
        ManualSettings settings = ManualSettings.bind(config, context);
        Capabilities capabilities = CAPABILITIES.toBuilder()
                .multiNode(settings.transport() == ManualSettings.Transport.SSH)
                .containers(settings.container().enabled())
                .build();
        return ManualBackend.create(settings, context, capabilities);
    }
}
