package dev.gantry.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.backend.IdleResource;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Idle resources ({@code gantry gc}): what a backend reports idle it can release, and once released it is no longer
 * reported; a backend whose fixture leaves none reports none.
 */
abstract class IdleResourceCases extends KitCases {
    IdleResourceCases(Kit kit) {
        super(kit);
    }

    @Test
    void anIdleResourceLeavesTheListOnceReleased() throws Exception {
        if (!fixture.leaveIdleResource(backend, context)) {
            assertEquals(List.of(), backend.idleResources(),
                    "the fixture leaves nothing idle, so the backend must report nothing idle");
            return;
        }
        List<IdleResource> idle = awaitIdle();
        IdleResource resource = idle.get(0);
        assertTrue(backend.release(resource), "release of " + resource.describe() + ", idle and unused, must release "
                + "it");
        List<IdleResource> after = backend.idleResources();
        assertFalse(after.stream().anyMatch(resource::sameResourceAs),
                resource.describe() + " was released but is still reported idle: " + after);
        assertTrue(backend.release(resource), "releasing " + resource.describe() + " again, already gone, must do "
                + "nothing and say so");
    }

    /** Polls until the backend reports something idle, failing at the fixture's deadline. */
    private List<IdleResource> awaitIdle() throws InterruptedException {
        long deadline = System.nanoTime() + fixture.timeout().toNanos();
        List<IdleResource> idle = backend.idleResources();
        while (idle.isEmpty()) {
            if (System.nanoTime() > deadline) {
                fail("the fixture left a resource idle, but the backend reported none within " + fixture.timeout());
            }
            Thread.sleep(Kit.POLL.toMillis());
            idle = backend.idleResources();
        }
        return idle;
    }
}
