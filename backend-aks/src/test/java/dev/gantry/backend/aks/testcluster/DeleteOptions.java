package dev.gantry.backend.aks.testcluster;

import java.util.Map;
import java.util.Optional;

/** The options of a DELETE, from its body (DeleteOptions) or its query, as the API server reads them. */
record DeleteOptions(String propagation, Optional<Long> gracePeriodSeconds) {
    static final DeleteOptions BACKGROUND = new DeleteOptions("Background", Optional.empty());

    static DeleteOptions of(String body, ApiRequest request) {
        String propagation = request.parameter("propagationPolicy").orElse("Background");
        Optional<Long> grace = request.parameter("gracePeriodSeconds").map(Long::parseLong);
        if (body != null && !body.isBlank()) {
            Map<?, ?> options = Json.read(body, Map.class);
            if (options.get("propagationPolicy") instanceof String p) {
                propagation = p;
            }
            if (options.get("gracePeriodSeconds") instanceof Number n) {
                grace = Optional.of(n.longValue());
            }
        }
        return new DeleteOptions(propagation, grace);
    }

    static DeleteOptions force() {
        return new DeleteOptions("Background", Optional.of(0L));
    }
}
