package dev.gantry.runs.state;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.util.LinkedHashMap;
import java.util.Map;

/** A job's labels in the {@code jobs.labels} column: a JSON object in the labels' order, NULL for none. */
final class JobLabels {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<LinkedHashMap<String, String>> MAP = new TypeReference<>() {
    };

    private JobLabels() {
    }

    static String toColumn(Map<String, String> labels) {
        if (labels.isEmpty()) {
            return null;
        }
        try {
            return JSON.writeValueAsString(labels);
        } catch (JsonProcessingException e) {
            throw new GantryException(ErrorCode.INTERNAL, "labels " + labels + " cannot be written as JSON", e);
        }
    }

    static Map<String, String> fromColumn(String text) {
        if (text == null) {
            return Map.of();
        }
        try {
            return JSON.readValue(text, MAP);
        } catch (JsonProcessingException e) {
            throw new GantryException(ErrorCode.INTERNAL, "a job's labels in the state database are not a JSON object "
                    + "of strings: " + text + " (" + e.getOriginalMessage() + ")", e);
        }
    }
}
