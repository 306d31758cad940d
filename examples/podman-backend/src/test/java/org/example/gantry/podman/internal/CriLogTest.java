package org.example.gantry.podman.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogLine.Stream;
import java.util.List;
import org.junit.jupiter.api.Test;

class CriLogTest {
    /** As podman 4.3 wrote it for {@code echo out1; echo err1 >&2; printf partial; echo}. */
    @Test
    void recordsBecomeLinesPerStreamWithPartsJoined() {
        String text = """
                2026-12-05T17:52:27.815224651+00:00 stdout F out1
                2026-12-05T17:52:27.815224651+00:00 stdout P part
                2026-12-05T17:52:27.815274225+00:00 stderr F err1
                2026-12-05T17:52:27.815274226+00:00 stdout F ial
                2026-12-05T17:52:27.815274227+00:00 stdout F\s
                2026-12-05T17:52:27.815274228+00:00 stdout F  two  spaces\s
                """;
        assertEquals(List.of(new LogLine(Stream.STDOUT, 0, "out1"), new LogLine(Stream.STDERR, 0, "err1"),
                new LogLine(Stream.STDOUT, 0, "partial"), new LogLine(Stream.STDOUT, 0, ""),
                new LogLine(Stream.STDOUT, 0, " two  spaces ")), CriLog.parse(text));
    }

    @Test
    void aTornOrForeignRecordCarriesNoOutput() {
        assertEquals(List.of(), CriLog.parse("2026-12-05T17:52:27Z\nx stdin F y\n\n"));
    }
}
