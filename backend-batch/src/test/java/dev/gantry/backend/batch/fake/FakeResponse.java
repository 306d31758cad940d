package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;

/** An answer a route gives: status, extra headers and body (empty for 202/204 and HEAD). */
final class FakeResponse {
    final int status;
    final Map<String, String> headers = new LinkedHashMap<>();
    final byte[] body;

    private FakeResponse(int status, byte[] body) {
        this.status = status;
        this.body = body;
    }

    static FakeResponse json(int status, JsonNode node) {
        FakeResponse response = new FakeResponse(status, Json.bytes(node));
        response.headers.put("Content-Type", "application/json;odata=minimalmetadata");
        return response;
    }

    static FakeResponse empty(int status) {
        return new FakeResponse(status, new byte[0]);
    }

    static FakeResponse bytes(int status, byte[] body, String contentType) {
        FakeResponse response = new FakeResponse(status, body);
        response.headers.put("Content-Type", contentType);
        return response;
    }

    FakeResponse header(String name, String value) {
        headers.put(name, value);
        return this;
    }
}
