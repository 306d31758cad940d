package dev.gantry.backend.manual;

import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.JobRef;
import dev.gantry.backend.manual.internal.ManualBackend;
import dev.gantry.tck.BackendConformanceTest;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import java.time.Duration;
import java.util.Map;

/** The whole conformance kit again, every job in a Podman container of the busybox test image. */
class PodmanConformanceTest extends BackendConformanceTest {
    @Override
    protected BackendFixture fixture() {
        PodmanSandbox.prepare();
        return new BackendFixture() {
            @Override
            public Backend create(TckContext context) {
                return new ManualBackendProvider().create(
                        new BackendConfig("manual", PodmanSandbox.config(Map.of("cancelGrace", "2s"))), context);
            }

            @Override
            public void evict(Backend backend, JobRef job) {
                ((ManualBackend) backend).preempt(job, "conformance kit eviction");
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
