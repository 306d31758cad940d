package dev.gantry.hosts.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProcStatTest {
    @Test
    void readsStateAndGroupPastACommandNameWithSpacesAndParentheses() {
        ProcStat stat = ProcStat.parse("4242 (my (odd) job) S 1 4200 4200 0 -1 4194560 130 0 0 0").orElseThrow();
        assertEquals('S', stat.state());
        assertEquals(4200, stat.processGroup());
        assertFalse(stat.zombie());
    }

    @Test
    void zombiesAreNotRunning() {
        assertTrue(ProcStat.parse("77 (sleep) Z 1 70 70 0 -1").orElseThrow().zombie());
    }

    @Test
    void malformedLinesAreAbsent() {
        assertEquals(Optional.empty(), ProcStat.parse("garbage"));
        assertEquals(Optional.empty(), ProcStat.parse("1 (x) S 1 notanumber"));
    }
}
