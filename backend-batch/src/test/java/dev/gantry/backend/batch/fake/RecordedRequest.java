package dev.gantry.backend.batch.fake;

import java.util.List;
import java.util.Map;

/**
 * A request the fake received, as received: the operation it was routed to (Batch's operation id, for example
 * {@code Task_AddCollection}, or {@code unrouted}), the method, the raw path, the decoded query, the headers (names
 * lower-cased) and the body as UTF-8 text.
 */
public record RecordedRequest(String operation, String method, String path, Map<String, String> query,
        Map<String, List<String>> headers, String body) {
}
