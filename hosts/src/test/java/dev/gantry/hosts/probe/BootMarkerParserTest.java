package dev.gantry.hosts.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BootMarkerParserTest {

    @Test
    void readsTheImagesModuleMarkerFormat() {
        // The example marker documented with the images module's boot script.
        BootMarker marker = BootMarkerParser.parse(new ProbeSection("ready-marker", 0, """
                {
                  "schema": 1,
                  "status": "failed",
                  "time": "2026-01-01T12:00:00Z",
                  "workload": "train",
                  "vmSize": "Standard_NC24ads_A100_v4",
                  "image": "microsoft-dsvm:ubuntu-2204:2204-gen2:latest",
                  "checks": [{"name": "nvidia-gpus", "ok": false, "detail": "nvidia-smi sees 0 GPU(s), expected 1"}],
                  "passed": [],
                  "failed": ["nvidia-gpus"],
                  "versions": {"kernel": "6.5.0-1025-azure"}
                }
                """)).value();
        assertEquals(new BootMarker(BootMarker.State.FAILED, Optional.of("2026-01-01T12:00:00Z"),
                List.of("nvidia-gpus")), marker);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "0   | {\"status\": \"ready\"}   | READY      | 0",
        "0   | {\"status\": \"booting\"} | BOOTING    | 0",
        "127 | no marker                 | ABSENT     | 0",
        "1   | cat: Permission denied    | UNREADABLE | 1",
        "0   | {\"status\": \"odd\"}     | UNREADABLE | 1",
        "0   | {\"status\": \"ready\"    | UNREADABLE | 1",
        "0   | [1, 2]                    | UNREADABLE | 1",
    })
    void states(int exit, String body, BootMarker.State state, int problems) {
        Parsed<BootMarker> parsed = BootMarkerParser.parse(new ProbeSection("ready-marker", exit, body));
        assertEquals(state, parsed.value().state());
        assertEquals(problems, parsed.problems().size(), parsed.problems().toString());
    }
}
