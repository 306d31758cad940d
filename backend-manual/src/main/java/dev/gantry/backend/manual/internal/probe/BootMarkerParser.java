package dev.gantry.backend.manual.internal.probe;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Parser for the readiness marker the images module's boot script writes: a JSON object with {@code status}
 * ({@code booting}, {@code ready} or {@code failed}), {@code time} and {@code failed} (names of failed checks).
 */
public final class BootMarkerParser {
    private BootMarkerParser() {
    }

    public static Parsed<BootMarker> parse(ProbeSection section) {
        if (section.notInstalled()) {
            return Parsed.of(BootMarker.of(BootMarker.State.ABSENT));
        }
        if (!section.succeeded()) {
            return new Parsed<>(BootMarker.of(BootMarker.State.UNREADABLE), List.of(new ProbeProblem("ready-marker",
                    "could not read " + ProbeScript.BOOT_MARKER_PATH + ": " + section.failure())));
        }
        Object root;
        try {
            root = JsonReader.parse(section.body());
        } catch (JsonReader.MalformedJson malformed) {
            return new Parsed<>(BootMarker.of(BootMarker.State.UNREADABLE),
                    List.of(new ProbeProblem("ready-marker", malformed.getMessage())));
        }
        if (!(root instanceof Map<?, ?> marker)) {
            return new Parsed<>(BootMarker.of(BootMarker.State.UNREADABLE),
                    List.of(new ProbeProblem("ready-marker", "expected a JSON object")));
        }
        Object status = marker.get("status");
        BootMarker.State state;
        if ("ready".equals(status)) {
            state = BootMarker.State.READY;
        } else if ("booting".equals(status)) {
            state = BootMarker.State.BOOTING;
        } else if ("failed".equals(status)) {
            state = BootMarker.State.FAILED;
        } else {
            return new Parsed<>(BootMarker.of(BootMarker.State.UNREADABLE), List.of(new ProbeProblem("ready-marker",
                    "status is " + (status == null ? "missing" : "'" + status + "'")
                            + ", expected booting, ready or failed")));
        }
        List<String> failed = new ArrayList<>();
        if (marker.get("failed") instanceof List<?> names) {
            for (Object name : names) {
                failed.add(String.valueOf(name));
            }
        }
        Optional<String> time = marker.get("time") instanceof String t ? Optional.of(t) : Optional.empty();
        return Parsed.of(new BootMarker(state, time, failed));
    }
}
