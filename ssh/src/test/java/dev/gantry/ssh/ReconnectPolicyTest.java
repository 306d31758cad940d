package dev.gantry.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReconnectPolicyTest {

    private final ReconnectPolicy policy = new ReconnectPolicy(6, Duration.ofMillis(100), Duration.ofSeconds(1), 0.2);

    @Test
    void backoffDoublesUpToTheCapWithinTheJitterBand() {
        Random random = new Random(7);
        long[] base = {100, 200, 400, 800, 1000, 1000};
        for (int attempt = 1; attempt <= base.length; attempt++) {
            for (int i = 0; i < 200; i++) {
                long millis = policy.backoffAfter(attempt, random).toMillis();
                long low = (long) (base[attempt - 1] * 0.8);
                long high = Math.min(1000, (long) Math.ceil(base[attempt - 1] * 1.2));
                assertTrue(millis >= low && millis <= high,
                        "attempt " + attempt + ": " + millis + " ms outside [" + low + ", " + high + "]");
            }
        }
    }

    @Test
    void jitterSpreadsClientsApart() {
        Random random = new Random(11);
        Set<Long> distinct = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            distinct.add(policy.backoffAfter(2, random).toNanos());
        }
        assertTrue(distinct.size() > 40, "pauses should differ, got " + distinct.size() + " distinct of 50");
        ReconnectPolicy noJitter = new ReconnectPolicy(3, Duration.ofMillis(100), Duration.ofSeconds(1), 0);
        assertEquals(Duration.ofMillis(400), noJitter.backoffAfter(3, random));
    }

    @Test
    void invalidSettingsNameEveryField() {
        GantryException e = assertThrows(GantryException.class,
                () -> new ReconnectPolicy(0, Duration.ofSeconds(2), Duration.ofSeconds(1), 1.5));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals(3, e.problems().size(), e.getMessage());
        assertTrue(e.getMessage().contains("maxAttempts: 0 is not allowed; give 1 or more"), e.getMessage());
        assertTrue(e.getMessage().contains("maxBackoff: PT1S is not allowed; give at least initialBackoff (PT2S)"),
                e.getMessage());
        assertTrue(e.getMessage().contains("jitter: 1.5 is not allowed"), e.getMessage());
    }
}
