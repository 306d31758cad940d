package dev.gantry.backend.batch.fake;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An error the fake answers as Batch does: an HTTP status, Batch's error code, its message and the detail
 * {@code values} (key/value pairs such as {@code PropertyName}). Thrown by routes and validation, written by
 * {@link BatchHttpFront} in Batch's body shape ({@code odata.metadata}, {@code code}, {@code message.lang/value},
 * {@code values}).
 */
final class BatchError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final int status;
    final String code;
    final Map<String, String> values;

    BatchError(int status, String code, String message, Map<String, String> values) {
        super(message);
        this.status = status;
        this.code = code;
        this.values = new LinkedHashMap<>(values);
    }

    BatchError(int status, String code, String message) {
        this(status, code, message, Map.of());
    }

    static BatchError missingProperty(String path) {
        return new BatchError(400, "MissingRequiredProperty",
                "A required property was not specified in the request body.", Map.of("PropertyName", path));
    }

    static BatchError invalidProperty(String path, String value, String reason) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("PropertyName", path);
        values.put("PropertyValue", value);
        values.put("Reason", reason);
        return new BatchError(400, "InvalidPropertyValue",
                "The value provided for one of the properties in the request body is invalid.", values);
    }

    static BatchError invalidBody(String reason) {
        return new BatchError(400, "InvalidRequestBody", "The specified Request Body is not syntactically valid.",
                Map.of("Reason", reason));
    }

    static BatchError invalidQuery(String name, String value, String reason) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("QueryParameterName", name);
        values.put("QueryParameterValue", value);
        values.put("Reason", reason);
        return new BatchError(400, "InvalidQueryParameterValue",
                "Value for one of the query parameters specified in the request URI is invalid.", values);
    }

    static BatchError notFound(String code, String what) {
        return new BatchError(404, code, "The specified " + what + " does not exist.");
    }

    static BatchError conflict(String code, String message) {
        return new BatchError(409, code, message);
    }
}
