package org.example.gantry.podman;

import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.ConfigKey;
import java.util.List;
import org.example.gantry.podman.internal.PodmanBackend;
import org.example.gantry.podman.internal.PodmanSettings;

/**
 * A backend plugin that runs every job as a container of the local podman: the image the workload names, or, for a
 * workload without one, the host's own root file system copy-on-write (the job sees the host's programs, its working
 * directory and checkpoint are mounted from the host). Found by {@link java.util.ServiceLoader}; in Gantry's plugins
 * directory it sees Gantry's API and nothing else.
 */
public final class PodmanBackendProvider implements BackendProvider {
    /** The name in {@code gantry.yaml} ({@code backend: podman}). */
    public static final String NAME = "podman";

    /** Cheap: nothing is looked up until {@link #create}. */
    public PodmanBackendProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "jobs as containers of the local podman (an example plugin)";
    }

    @Override
    public Capabilities capabilities() {
        return PodmanBackend.CAPABILITIES;
    }

    @Override
    public List<ConfigKey> configKeys() {
        return PodmanSettings.keys();
    }

    @Override
    public Backend create(BackendConfig config, BackendContext context) {
        return new PodmanBackend(config, PodmanSettings.bind(config), context);
    }
}
