package org.example.gantry.podman;

import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.JobRef;
import dev.gantry.tck.BackendConformanceTest;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import dev.gantry.testing.TestPodman;
import java.time.Duration;
import java.util.Optional;
import org.example.gantry.podman.internal.PodmanBackend;
import org.junit.jupiter.api.AfterAll;

/**
 * The whole conformance kit against the plugin on this machine's podman: jobs without an image run over the host's
 * root, the container case in the busybox test image (scripts/setup-podman.sh), the restart cases included.
 */
class PodmanConformanceTest extends BackendConformanceTest {
    @Override
    protected BackendFixture fixture() {
        TestPodman.prepare();
        return new BackendFixture() {
            @Override
            public Backend create(TckContext context) {
                return new PodmanBackendProvider().create(new BackendConfig("podman", PodmanTestSettings.config()),
                        context);
            }

            @Override
            public void evict(Backend backend, JobRef job) {
                ((PodmanBackend) backend).evict(job, "conformance kit eviction");
            }

            @Override
            public String containerImage() {
                return TestPodman.IMAGE;
            }

            @Override
            public Optional<String> fileOnlyInContainerImage() {
                return Optional.of(TestPodman.FILE_ONLY_IN_IMAGE);
            }

            /** Starting a container costs a few hundred milliseconds more than a process. */
            @Override
            public Duration timeout() {
                return Duration.ofSeconds(20);
            }
        };
    }

    /** The kit's containers go once it is done (its keys start with tck-); the kit then cancels nothing. */
    @AfterAll
    void removeTheKitsContainers() {
        PodmanTestSettings.removeContainers("^gantry-podman-tck-");
    }
}
