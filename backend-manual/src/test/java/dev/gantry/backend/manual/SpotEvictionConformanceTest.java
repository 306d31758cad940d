package dev.gantry.backend.manual;

import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.JobRef;
import dev.gantry.hosts.events.FakeMetadataService;
import dev.gantry.tck.BackendConformanceTest;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;

/**
 * The whole conformance kit against a host configured as an Azure Spot VM, with a fake instance metadata service:
 * every status poll with running jobs reads Scheduled Events, and an eviction is a Preempt event that the backend
 * finds by itself while the job's status is polled.
 */
class SpotEvictionConformanceTest extends BackendConformanceTest {
    private static final String VM = "tck-spot-vm";
    private final FakeMetadataService imds;

    SpotEvictionConformanceTest() {
        try {
            imds = new FakeMetadataService(VM);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    void stopMetadataService() {
        imds.close();
    }

    @Override
    protected BackendFixture fixture() {
        return new BackendFixture() {
            @Override
            public Backend create(TckContext context) {
                // No vmName: the backend learns it from the fake, as on a VM.
                return new ManualBackendProvider().create(new BackendConfig("manual", Map.of("cancelGrace", "2s",
                        "spot", "true", "scheduledEvents.endpoint", imds.eventsUrl())), context);
            }

            @Override
            public void evict(Backend backend, JobRef job) throws Exception {
                imds.preemptAndAwait(backend, job, VM, timeout());
            }
        };
    }
}
