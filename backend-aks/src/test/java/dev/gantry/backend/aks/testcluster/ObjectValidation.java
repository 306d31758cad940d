package dev.gantry.backend.aks.testcluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.zjsonpatch.JsonPatch;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the API server does with an object it is sent (a create's or an update's body, a patch's result) before it
 * stores it: decoded against Kubernetes 1.32's schema ({@link OpenApiSchema}), a wrong type is 400 BadRequest in the
 * decoder's words; fields the schema lacks are dropped with a {@code Warning} header each (the API server's default,
 * {@code fieldValidation=Warn}; {@code Strict} refuses them with 400, {@code Ignore} drops them silently); then the
 * API server's rules ({@link ObjectRules}) refuse with 422 Invalid and a cause per field. Kinds outside core/v1 and
 * batch/v1 pass as sent.
 */
final class ObjectValidation {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Either the refusal to answer, or the object to store (unknown fields dropped) and the warnings to send. */
    record Verdict(Optional<MockResponse> refusal, String body, List<String> warnings) {
        /** The warnings as {@code Warning} headers on {@code response}. */
        MockResponse warn(MockResponse response) {
            warnings.forEach(warning -> response.addHeader("Warning", "299 - " + FieldError.quoted(warning)));
            return response;
        }
    }

    private ObjectValidation() {
    }

    /** A create's or an update's body. */
    static Verdict ofBody(ApiRequest request, String body) {
        JsonNode parsed;
        try {
            parsed = MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            return new Verdict(Optional.empty(), body, List.of()); // the store answers what it cannot read
        }
        if (!(parsed instanceof ObjectNode object)) {
            return new Verdict(Optional.empty(), body, List.of());
        }
        return check(request, object, body);
    }

    /**
     * A patch of {@code current}: its result checked as a whole, as the API server validates the object a patch makes.
     * JSON patches apply as they are; merge and strategic merge patches as JSON merge patches (lists replaced whole,
     * as the store applies them too), and the unknown fields they bring are taken out of the patch, so the store
     * keeps what the API server would.
     */
    static Verdict ofPatch(ApiRequest request, String contentType, String current, String patch) {
        try {
            JsonNode currentObject = MAPPER.readTree(current);
            JsonNode patchObject = MAPPER.readTree(patch);
            boolean jsonPatch = contentType != null && contentType.startsWith("application/json-patch+json");
            JsonNode patched = jsonPatch ? JsonPatch.apply(patchObject, currentObject)
                    : mergePatch(currentObject, patchObject);
            if (patched instanceof ObjectNode object) {
                Verdict verdict = check(request, object, patch);
                String body = patch;
                if (!jsonPatch && !verdict.warnings().isEmpty() && patchObject instanceof ObjectNode merge) {
                    OpenApiSchema.v132().read(object.path("apiVersion").asText(), object.path("kind").asText(), merge);
                    body = merge.toString();
                }
                return new Verdict(verdict.refusal(), body, verdict.warnings());
            }
        } catch (JsonProcessingException | RuntimeException e) {
            // A patch that does not apply: the store answers it as it does today.
        }
        return new Verdict(Optional.empty(), patch, List.of());
    }

    private static Verdict check(ApiRequest request, ObjectNode object, String body) {
        String apiVersion = object.path("apiVersion").asText("");
        String kind = object.path("kind").asText("");
        OpenApiSchema schema = OpenApiSchema.v132();
        if (!schema.knows(apiVersion, kind)) {
            return new Verdict(Optional.empty(), body, List.of());
        }
        OpenApiSchema.Reading reading = schema.read(apiVersion, kind, object);
        String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
        String cannotBeHandled = kind + " in version " + FieldError.quoted(version) + " cannot be handled as a " + kind
                + ": ";
        if (reading.decodeError().isPresent()) {
            return refused(400, "BadRequest", cannotBeHandled + reading.decodeError().get());
        }
        String fieldValidation = request.parameter("fieldValidation").orElse("Warn");
        List<String> warnings = new ArrayList<>();
        for (String field : reading.unknownFields()) {
            warnings.add("unknown field " + FieldError.quoted(field));
        }
        if (!warnings.isEmpty() && fieldValidation.equals("Strict")) {
            return refused(400, "BadRequest", cannotBeHandled + "strict decoding error: " + String.join(", ", warnings));
        }
        List<FieldError> errors = ObjectRules.check(kind, object);
        if (!errors.isEmpty()) {
            String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
            String name = object.path("metadata").path("name").asText("");
            return new Verdict(Optional.of(new MockResponse().setResponseCode(422).setBody(
                    FieldError.invalidStatus(kind, group, name, errors))), body, List.of());
        }
        if (reading.unknownFields().isEmpty()) {
            return new Verdict(Optional.empty(), body, List.of());
        }
        return new Verdict(Optional.empty(), object.toString(),
                fieldValidation.equals("Ignore") ? List.of() : warnings);
    }

    private static Verdict refused(int code, String reason, String message) {
        return new Verdict(Optional.of(new MockResponse().setResponseCode(code).setBody(Json.write(Json.map(
                "kind", "Status", "apiVersion", "v1", "metadata", Map.of(), "status", "Failure", "message", message,
                "reason", reason, "code", code)))), "", List.of());
    }

    /** RFC 7386: objects merge key by key, null removes, anything else replaces. */
    private static JsonNode mergePatch(JsonNode target, JsonNode patch) {
        if (!(patch instanceof ObjectNode patchObject)) {
            return patch;
        }
        ObjectNode result = target instanceof ObjectNode object ? object.deepCopy() : MAPPER.createObjectNode();
        Iterator<Map.Entry<String, JsonNode>> fields = patchObject.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (field.getValue().isNull()) {
                result.remove(field.getKey());
            } else {
                result.set(field.getKey(), mergePatch(result.path(field.getKey()), field.getValue()));
            }
        }
        return result;
    }
}
