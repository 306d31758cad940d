package dev.gantry.backend.manual;

import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.JobRef;
import dev.gantry.backend.manual.internal.ManualBackend;
import dev.gantry.tck.BackendConformanceTest;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import java.util.Map;

/** The whole conformance kit again, every job in a Podman container of the busybox test image. */
class PodmanConformanceTest extends BackendConformanceTest {
    @Override
    protected BackendFixture fixture() {
        return new PodmanKitFixture() {
            @Override
            public Backend create(TckContext context) {
                return new ManualBackendProvider().create(
                        new BackendConfig("manual", PodmanSandbox.config(Map.of("cancelGrace", "2s"))), context);
            }

            @Override
            public void evict(Backend backend, JobRef job) {
                ((ManualBackend) backend).preempt(job, "conformance kit eviction");
            }
        };
    }
}
