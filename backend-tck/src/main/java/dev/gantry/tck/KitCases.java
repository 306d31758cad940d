package dev.gantry.tck;

import dev.gantry.api.backend.Backend;

/**
 * What every group of the kit's cases shares: the kit's hands on the backend under test, its fixture and context.
 * Each group is one concern (logs, cancel, restarts, ...), in a class of its own, and {@link BackendConformanceTest}
 * runs every group against one backend instance as its nested classes.
 */
abstract class KitCases {
    final Kit kit;
    final Backend backend;
    final BackendFixture fixture;
    final TckContext context;

    KitCases(Kit kit) {
        this.kit = kit;
        this.backend = kit.backend();
        this.fixture = kit.fixture();
        this.context = kit.context();
    }
}
