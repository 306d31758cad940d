package dev.gantry.backend.manual;

import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobRef;
import dev.gantry.backend.manual.internal.SshHosts;
import dev.gantry.hosts.events.FakeMetadataService;
import dev.gantry.tck.BackendConformanceTest;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;

/**
 * The whole conformance kit over SSH against hosts configured as Azure Spot VMs: each host asks a fake instance
 * metadata service for its Scheduled Events in the same command as its status scan, and an eviction is a Preempt
 * event the backend finds by itself while the job's status is polled. The fake listens on the test network's
 * bridge, the address the namespace hosts reach this machine at.
 */
class SshSpotEvictionConformanceTest extends BackendConformanceTest {
    private static final String VM = "tck-ssh-spot-vm";
    private final SshHosts hosts = new SshHosts();
    private final FakeMetadataService imds;

    SshSpotEvictionConformanceTest() {
        try {
            imds = new FakeMetadataService(VM, InetAddress.getByName("10.200.0.1"));
        } catch (IOException e) {
            throw new UncheckedIOException("the fake metadata service cannot listen on the test bridge 10.200.0.1; "
                    + "are the test hosts up (scripts/test-hosts.sh up)?", e);
        }
    }

    @AfterAll
    void stopMetadataServiceAndRemoveJobDirectories() throws IOException {
        imds.close();
        hosts.close();
    }

    @Override
    protected BackendFixture fixture() {
        return new BackendFixture() {
            @Override
            public Backend create(TckContext context) {
                // No VM name: each host learns its own from the fake, as on a VM.
                return hosts.backend(context, Map.of("defaults.spot", "true", "scheduledEvents.endpoint",
                        imds.eventsUrl()));
            }

            @Override
            public void evict(Backend backend, JobRef job) throws Exception {
                imds.preemptAndAwait(backend, job, VM, timeout());
            }

            @Override
            public String workingDirectory(TckContext context) {
                return "/tmp"; // exists on every host; the context's scratch directory is private to this user
            }

            /** One status command per test host. */
            @Override
            public int statusCallsAllowed() {
                return 2;
            }
        };
    }
}
