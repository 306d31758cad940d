package dev.gantry.backend.manual.internal;

import dev.gantry.backend.manual.internal.probe.JsonReader;
import dev.gantry.backend.manual.internal.probe.JsonText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The little JSON the job record needs, on the module's one JSON reader and string quoting (the backend depends on
 * the API only, so it carries these instead of a JSON library).
 */
final class Json {
    private Json() {
    }

    static String quote(String text) {
        StringBuilder out = new StringBuilder();
        JsonText.quote(text, out);
        return out.toString();
    }

    static String list(List<String> values) {
        List<String> quoted = new ArrayList<>();
        values.forEach(v -> quoted.add(quote(v)));
        return "[" + String.join(", ", quoted) + "]";
    }

    /** Parses one JSON object; fails with IllegalArgumentException on anything else. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> parseObject(String text) {
        Object value;
        try {
            value = JsonReader.parse(text);
        } catch (JsonReader.MalformedJson e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        if (!(value instanceof Map)) {
            throw new IllegalArgumentException("expected a JSON object");
        }
        return (Map<String, Object>) value;
    }
}
