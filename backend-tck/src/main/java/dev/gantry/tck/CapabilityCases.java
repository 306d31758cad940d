package dev.gantry.tck;

import static dev.gantry.tck.Kit.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.gantry.api.GpuVendor;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.Capabilities;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Capabilities and validation: the backend says what it can do, and says it the way the fixture declares for this
 * environment; the fixture's plan validates.
 */
abstract class CapabilityCases extends KitCases {
    CapabilityCases(Kit kit) {
        super(kit);
    }

    @Test
    void capabilitiesAreDeclared() {
        Capabilities caps = backend.capabilities();
        assertNotNull(caps, "capabilities()");
        assertNotNull(backend.name(), "name()");
        assertFalse(backend.name().isBlank(), "name() must not be blank");
        assertFalse(caps.gpuVendors().contains(GpuVendor.ANY),
                "gpuVendors lists the vendors that can be scheduled; ANY is a request, not a vendor: " + caps);
        assertEquals(kit.declaredCapabilities(), caps, "the backend's capabilities here differ from those the "
                + "fixture declares for this environment (BackendFixture.capabilities): a probe that failed, or a "
                + "declaration to update");
    }

    @Test
    void validateAcceptsTheFixturePlan() {
        List<Problem> problems = backend.validate(fixture.plan(workload("validate").command("true").build()));
        assertEquals(List.of(), problems, "the fixture's plan for a trivial workload must be runnable");
    }
}
