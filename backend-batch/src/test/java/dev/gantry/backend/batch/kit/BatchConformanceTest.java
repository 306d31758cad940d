package dev.gantry.backend.batch.kit;

import dev.gantry.tck.BackendConformanceTest;
import dev.gantry.tck.BackendFixture;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole conformance kit against the Batch fake (shared key, Batch-managed account), one fake per test class;
 * its nodes run tasks in the test network namespaces and container tasks under Podman.
 */
class BatchConformanceTest extends BackendConformanceTest {
    private final BatchKitFixture fixture = new BatchKitFixture();

    /** Runs after the kit's own {@code @AfterAll}, which cancels what is left and closes the backend. */
    @RegisterExtension
    final AfterAllCallback stopFake = this::stop;

    @Override
    protected BackendFixture fixture() {
        return fixture;
    }

    private void stop(ExtensionContext context) {
        if (context.getRequiredTestClass() == BatchConformanceTest.class) {
            fixture.close();
        }
    }
}
