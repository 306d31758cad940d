package dev.gantry.backend.manual;

import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobRef;
import dev.gantry.backend.manual.internal.ManualBackend;
import dev.gantry.backend.manual.internal.SshHosts;
import dev.gantry.tck.BackendConformanceTest;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;

/**
 * The whole conformance kit against the ssh transport and the real test hosts of scripts/test-hosts.sh (started
 * when they are not up; the test fails when they cannot be). Evictions use the backend's own eviction path, as
 * Scheduled Events will.
 */
class SshConformanceTest extends BackendConformanceTest {
    private final SshHosts hosts = new SshHosts();

    @Override
    protected BackendFixture fixture() {
        return new BackendFixture() {
            @Override
            public Backend create(TckContext context) {
                return hosts.backend(context, Map.of());
            }

            @Override
            public void evict(Backend backend, JobRef job) {
                ((ManualBackend) backend).preempt(job, "conformance kit eviction");
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

    @AfterAll
    void removeJobDirectories() throws Exception {
        hosts.close();
    }
}
