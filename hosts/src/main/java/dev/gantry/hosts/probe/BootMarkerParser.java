package dev.gantry.hosts.probe;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.hosts.json.internal.Json;
import java.util.ArrayList;
import java.util.List;
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
        JsonNode marker;
        try {
            marker = Json.parse(section.body());
        } catch (Json.MalformedJson malformed) {
            return new Parsed<>(BootMarker.of(BootMarker.State.UNREADABLE),
                    List.of(new ProbeProblem("ready-marker", malformed.getMessage())));
        }
        if (!marker.isObject()) {
            return new Parsed<>(BootMarker.of(BootMarker.State.UNREADABLE),
                    List.of(new ProbeProblem("ready-marker", "expected a JSON object")));
        }
        JsonNode statusNode = marker.path("status");
        String status = statusNode.isTextual() ? statusNode.textValue() : null;
        BootMarker.State state;
        if ("ready".equals(status)) {
            state = BootMarker.State.READY;
        } else if ("booting".equals(status)) {
            state = BootMarker.State.BOOTING;
        } else if ("failed".equals(status)) {
            state = BootMarker.State.FAILED;
        } else {
            return new Parsed<>(BootMarker.of(BootMarker.State.UNREADABLE), List.of(new ProbeProblem("ready-marker",
                    "status is " + (statusNode.isMissingNode() ? "missing"
                            : "'" + (status == null ? statusNode.toString() : status) + "'")
                            + ", expected booting, ready or failed")));
        }
        List<String> failed = new ArrayList<>();
        for (JsonNode name : marker.path("failed")) {
            failed.add(name.isTextual() ? name.textValue() : name.toString());
        }
        JsonNode time = marker.path("time");
        Optional<String> when = time.isTextual() ? Optional.of(time.textValue()) : Optional.empty();
        return Parsed.of(new BootMarker(state, when, failed));
    }
}
