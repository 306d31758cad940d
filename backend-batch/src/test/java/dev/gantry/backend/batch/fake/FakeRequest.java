package dev.gantry.backend.batch.fake;

import java.util.List;
import java.util.Map;

/**
 * One request as the routes see it: the method, the raw path and its decoded segments, the decoded query (names as
 * sent), the headers (names lower-cased) and the body.
 */
record FakeRequest(String method, String rawPath, List<String> segments, String rawQuery, Map<String, String> query,
        Map<String, List<String>> headers, byte[] body) {

    /** The first value of a header, or null. */
    String header(String name) {
        List<String> values = headers.get(name.toLowerCase(java.util.Locale.ROOT));
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    String param(String name) {
        return query.get(name);
    }

    String segment(int index) {
        return segments.get(index);
    }
}
