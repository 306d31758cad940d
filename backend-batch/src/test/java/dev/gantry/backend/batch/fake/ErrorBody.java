package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/**
 * Batch's error body: {@code odata.metadata}, {@code code}, {@code message} ({@code lang} and {@code value}, the
 * value ending with the request id and time as Batch's do) and {@code values} (key/value details, when there are).
 */
final class ErrorBody {
    private ErrorBody() {
    }

    static ObjectNode body(BatchError error, String baseUrl, String requestId) {
        ObjectNode body = Json.object();
        body.put("odata.metadata", baseUrl
                + "/$metadata#Microsoft.Azure.Batch.Protocol.Entities.Container.errors/@Element");
        body.setAll(error(error, baseUrl, requestId));
        return body;
    }

    /** The error without {@code odata.metadata}, as it appears inside a task-collection result. */
    static ObjectNode error(BatchError error, String baseUrl, String requestId) {
        ObjectNode body = Json.object();
        body.put("code", error.code);
        ObjectNode message = body.putObject("message");
        message.put("lang", "en-US");
        String text = error.getMessage();
        if (requestId != null) {
            text += "\nRequestId:" + requestId + "\nTime:" + Json.time(Instant.now());
        }
        message.put("value", text);
        if (!error.values.isEmpty()) {
            ArrayNode values = body.putArray("values");
            error.values.forEach((key, value) -> {
                ObjectNode pair = values.addObject();
                pair.put("key", key);
                pair.put("value", value);
            });
        }
        return body;
    }
}
