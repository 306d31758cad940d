package dev.gantry.backend.manual;

import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobRef;
import dev.gantry.backend.manual.internal.SshBackend;
import dev.gantry.backend.manual.internal.SshHosts;
import dev.gantry.tck.BackendConformanceTest;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import java.io.IOException;
import java.time.Duration;
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
        PodmanSandbox.prepare();
        return new BackendFixture() {
            @Override
            public Backend create(TckContext context) {
                return hosts.backend(context, PodmanSandbox.config(Map.of()));
            }

            @Override
            public void evict(Backend backend, JobRef job) {
                ((SshBackend) backend).preempt(job, "conformance kit eviction");
            }

            @Override
            public Plan plan(Workload workload) {
                Workload contained = workload.container().isPresent() ? workload
                        : workload.toBuilder().container(PodmanSandbox.IMAGE).build();
                return Plan.builder(contained, BackendFixture.smallCpuSize()).build();
            }

            /** A directory of the image: in a container the working directory is the container's. */
            @Override
            public String workingDirectory(TckContext context) {
                return "/work";
            }

            @Override
            public Duration timeout() {
                return Duration.ofSeconds(20);
            }
        };
    }
}
