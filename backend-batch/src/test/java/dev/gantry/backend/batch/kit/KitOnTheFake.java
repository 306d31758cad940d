package dev.gantry.backend.batch.kit;

import dev.gantry.tck.BackendConformanceTest;
import dev.gantry.tck.BackendFixture;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole conformance kit against a Batch fake of its own, one per test class, stopped once the class has run; its
 * nodes run tasks in the test network namespaces and container tasks under Podman.
 */
abstract class KitOnTheFake extends BackendConformanceTest {
    final BatchKitFixture fixture;

    /** Runs after the kit's own {@code @AfterAll}, which cancels what is left and closes the backend. */
    @RegisterExtension
    final AfterAllCallback stopFake = this::stop;

    KitOnTheFake(BatchKitFixture fixture) {
        this.fixture = fixture;
    }

    @Override
    protected BackendFixture fixture() {
        return fixture;
    }

    private void stop(ExtensionContext context) {
        if (context.getRequiredTestClass() == getClass()) {
            fixture.close(); // the nested groups inherit the extension; the fake outlives them all
        }
    }
}
