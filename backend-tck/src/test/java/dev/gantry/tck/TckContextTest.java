package dev.gantry.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.SecretRef;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class TckContextTest {
    @Test
    void resolvesRegisteredSecretsAndNamesMissingOnes() {
        try (TckContext context = TckContext.create()) {
            SecretRef token = SecretRef.parse("env:TOKEN");
            context.putSecret(token, "s3cr3t");
            assertEquals("s3cr3t", context.secrets().resolve(token).reveal());
            GantryException e = assertThrows(GantryException.class,
                    () -> context.secrets().resolve(SecretRef.parse("file:/run/other")));
            assertEquals(ErrorCode.SECRET_UNRESOLVED, e.code());
            assertTrue(e.getMessage().contains("file:/run/other"), e.getMessage());
        }
    }

    @Test
    void directoriesExistUntilClosed() throws Exception {
        TckContext context = TckContext.create();
        assertTrue(Files.isDirectory(context.stateDirectory()));
        assertTrue(Files.isDirectory(context.scratchDirectory()));
        assertFalse(context.stateDirectory().startsWith(context.scratchDirectory()));
        Files.writeString(context.stateDirectory().resolve("jobs.txt"), "x");
        context.close();
        assertFalse(Files.exists(context.stateDirectory()));
        assertFalse(Files.exists(context.scratchDirectory()));
    }

    @Test
    void defaultPlanIsOneSmallCpuNode() {
        BackendFixture fixture = new BackendFixture() {
            @Override
            public dev.gantry.api.backend.Backend create(TckContext context) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void evict(dev.gantry.api.backend.Backend backend, dev.gantry.api.backend.JobRef job) {
                throw new UnsupportedOperationException();
            }
        };
        var plan = fixture.plan(BackendConformanceTest.workload("plan").command("true").build());
        assertEquals(1, plan.nodes());
        assertEquals(0, plan.gpusPerNode());
        assertEquals(1, plan.vmSize().vcpus());
        assertEquals("tck-plan", plan.workload().name());
    }
}
