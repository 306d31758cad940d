package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** The fake's JSON: one mapper, Batch's time format (ISO-8601 UTC with 7 fractional digits at most). */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
    private static final DateTimeFormatter RFC_1123 = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);

    private Json() {
    }

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    static ArrayNode array() {
        return MAPPER.createArrayNode();
    }

    /** A request body as JSON; anything that is not a JSON object is Batch's {@code InvalidRequestBody}. */
    static ObjectNode parseObject(byte[] body) {
        JsonNode node;
        try {
            node = MAPPER.readTree(body);
        } catch (IOException e) {
            throw BatchError.invalidBody("not JSON: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (node == null || !node.isObject()) {
            throw BatchError.invalidBody("the body must be a JSON object");
        }
        return (ObjectNode) node;
    }

    static byte[] bytes(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String time(Instant at) {
        return at.truncatedTo(ChronoUnit.MICROS).toString();
    }

    static String httpDate(Instant at) {
        return RFC_1123.format(at);
    }

    static String etag(Instant at) {
        return "0x" + Long.toHexString(at.toEpochMilli() * 10_000 + at.getNano() / 100 % 10_000).toUpperCase();
    }
}
