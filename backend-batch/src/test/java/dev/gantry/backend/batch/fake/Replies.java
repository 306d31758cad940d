package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The answers routes share: an entity with its {@code odata.metadata}, and a 201 naming what was created. */
final class Replies {
    private Replies() {
    }

    static FakeResponse entity(String baseUrl, String entity, JsonNode node) {
        ObjectNode body = Json.object();
        body.put("odata.metadata", baseUrl + "/$metadata#" + entity);
        body.setAll((ObjectNode) node);
        return FakeResponse.json(200, body);
    }

    static FakeResponse created(String baseUrl, String path) {
        return FakeResponse.empty(201).header("DataServiceId", baseUrl + path).header("Location", baseUrl + path);
    }
}
