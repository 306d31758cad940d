package dev.gantry.tck;

import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobRef;

/**
 * The whole kit against {@link LocalProcessBackend}, once per {@link LocalProcessBackend.Flaw}. Not a test of its own
 * (the name says so to the build): {@link KitCatchesBackendsThatLoseJobsTest} runs each and checks which cases fail.
 */
abstract class LocalProcessKit extends BackendConformanceTest {
    private final LocalProcessBackend.Flaw flaw;

    LocalProcessKit(LocalProcessBackend.Flaw flaw) {
        this.flaw = flaw;
    }

    @Override
    protected BackendFixture fixture() {
        return new BackendFixture() {
            @Override
            public Backend create(TckContext context) {
                return new LocalProcessBackend(context, flaw);
            }

            @Override
            public void evict(Backend backend, JobRef job) {
                ((LocalProcessBackend) backend).preempt(job);
            }

            @Override
            public boolean leaveIdleResource(Backend backend, TckContext context) {
                ((LocalProcessBackend) backend).leaveIdleScratch();
                return true;
            }
        };
    }

    static final class Sound extends LocalProcessKit {
        Sound() {
            super(LocalProcessBackend.Flaw.NONE);
        }
    }

    static final class ForgetsJobsOnRestart extends LocalProcessKit {
        ForgetsJobsOnRestart() {
            super(LocalProcessBackend.Flaw.FORGETS_JOBS_ON_RESTART);
        }
    }

    static final class StopsJobsOnClose extends LocalProcessKit {
        StopsJobsOnClose() {
            super(LocalProcessBackend.Flaw.STOPS_JOBS_ON_CLOSE);
        }
    }

    static final class KeepsReleasedResources extends LocalProcessKit {
        KeepsReleasedResources() {
            super(LocalProcessBackend.Flaw.KEEPS_RELEASED_RESOURCES);
        }
    }
}
