package dev.gantry.backend.manual;

import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobRef;
import dev.gantry.backend.manual.internal.ManualBackend;
import dev.gantry.backend.manual.internal.SshHosts;
import dev.gantry.tck.BackendConformanceTest;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;

/**
 * The whole conformance kit over SSH with every job in a Podman container of the busybox test image, on the real
 * test hosts (as root, whose Podman runs rootful).
 */
class SshPodmanConformanceTest extends BackendConformanceTest {
    private final SshHosts hosts = SshHosts.asRoot();

    @AfterAll
    void removeJobDirectories() throws IOException {
        hosts.close();
    }

    @Override
    protected BackendFixture fixture() {
        return new PodmanKitFixture() {
            @Override
            public Backend create(TckContext context) {
                // The hosts' network, which multi-node ranks need to meet (a single-node job does not mind).
                return hosts.backend(context, PodmanSandbox.config(Map.of("containerRunOptions[0]",
                        "--network=host")));
            }

            @Override
            public void evict(Backend backend, JobRef job) {
                ((ManualBackend) backend).preempt(job, "conformance kit eviction");
            }

            /** One status command per test host. */
            @Override
            public int statusCallsAllowed() {
                return 2;
            }
        };
    }
}
