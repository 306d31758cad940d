package dev.gantry.api.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.HourlyPrice;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class IdleResourceTest {
    private static final IdleResource POOL = IdleResource.of("pool", "gantry-d4-1a2b", "no task for 1h");

    @Test
    void aResourceIsNamedByKindIdAndLocationWhateverIsSaidAboutIt() {
        IdleResource described = POOL.withLocation("acct-eastus").withIdleSince(Instant.parse("2026-12-05T08:00:00Z"))
                .withCostPerHour(HourlyPrice.usd(0.192, 2));

        assertEquals("pool gantry-d4-1a2b (acct-eastus)", described.describe());
        assertEquals("pool gantry-d4-1a2b", POOL.describe());
        assertTrue(described.sameResourceAs(POOL.withLocation("acct-eastus")));
        assertFalse(described.sameResourceAs(POOL), "another location is another pool");
        assertEquals(Optional.of(0.384), described.costPerHour().map(HourlyPrice::total));
    }

    @Test
    void blankNamesAreRefusedNamingTheField() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> IdleResource.of("pool", " ", "idle"));
        assertEquals("IdleResource.id must not be blank", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> POOL.withLocation(""));
        assertThrows(NullPointerException.class, () -> IdleResource.of(null, "x", "idle"));
    }

    @Test
    void aBackendThatDoesNotOverrideTheHookReportsNoneAndReleasesNothing() {
        Backend backend = new MinimalBackend();

        assertEquals(List.of(), backend.idleResources());
        GantryException e = assertThrows(GantryException.class, () -> backend.release(POOL));
        assertEquals(ErrorCode.USAGE, e.code());
        assertTrue(e.getMessage().contains("backend 'minimal' reports no idle resources, so it cannot release pool "
                + "gantry-d4-1a2b"), e.getMessage());
    }

    /** A v1 backend: only the methods SPI v1 required. */
    private static final class MinimalBackend implements Backend {
        @Override
        public String name() {
            return "minimal";
        }

        @Override
        public Capabilities capabilities() {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<Problem> validate(Plan plan) {
            return List.of();
        }

        @Override
        public JobRef submit(Plan plan, SubmitOptions options) {
            throw new UnsupportedOperationException();
        }

        @Override
        public JobStatus status(JobRef job) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void logs(JobRef job, LogOptions options, LogSink sink) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void cancel(JobRef job) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
        }
    }
}
