package dev.gantry.backend.aks.testcluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Kubernetes 1.32's published OpenAPI v3 schemas of {@code core/v1} and {@code batch/v1} (test resources
 * {@code kubernetes-openapi/v1.32}, see the README there), read the way the API server's JSON decoder reads an
 * object: a value of the wrong type fails the whole request (the decoder's first error), an unknown field is dropped
 * and reported. The schemas' {@code required} lists are not checked: they name the fields without
 * {@code omitempty}, which the decoder does not insist on (the API server defaults them, and its hand-written
 * validation, {@link ObjectRules}, refuses what is still missing). Schemas are compiled once into {@link Node}s; a
 * walk of one object costs no lookup by string beyond its references.
 */
final class OpenApiSchema {
    private static final String[] FILES = {"kubernetes-openapi/v1.32/api__v1_openapi.json",
        "kubernetes-openapi/v1.32/apis__batch__v1_openapi.json"};
    private static final String QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity";
    /** resource.ErrFormatWrong's expression. */
    private static final String QUANTITY_FORMAT = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$";
    private static final Pattern QUANTITY_PATTERN = Pattern.compile(QUANTITY_FORMAT);

    /** Kubernetes 1.32's schemas, read on first use. */
    static OpenApiSchema v132() {
        return Holder.SCHEMA;
    }

    private static final class Holder {
        static final OpenApiSchema SCHEMA = load();
    }

    private enum Kind { REF, STRING, INT32, INT64, NUMBER, BOOL, ARRAY, MAP, ANY_OBJECT, INT_OR_STRING, QUANTITY, ANY }

    /** A property's schema: its kind, the component it refers to, or its elements' schema. */
    private record Node(Kind kind, String ref, Node element) {
        static Node of(Kind kind) {
            return new Node(kind, null, null);
        }
    }

    /** A component: its properties, or one node when it is a scalar. */
    private record Component(String name, Map<String, Node> properties, Node scalar) {
        String goStruct() {
            return name.substring(name.lastIndexOf('.') + 1);
        }

        String goType() {
            String[] parts = name.split("\\.");
            return parts[parts.length - 2] + "." + parts[parts.length - 1];
        }
    }

    /** What reading one object found. */
    static final class Reading {
        private String decodeError;
        private final List<String> unknownFields = new ArrayList<>();

        /** The decoder's first type error ({@code json: cannot unmarshal ...}, a quantity's format), if any. */
        Optional<String> decodeError() {
            return Optional.ofNullable(decodeError);
        }

        /** Fields the schema does not know, as {@code spec.template.spec.containers[0].foo}; dropped from the object. */
        List<String> unknownFields() {
            return unknownFields;
        }

        private void decodeError(String message) {
            if (decodeError == null) {
                decodeError = message;
            }
        }
    }

    private final Map<String, Component> components;

    private OpenApiSchema(Map<String, Component> components) {
        this.components = components;
    }

    /** Whether the schemas describe {@code apiVersion}/{@code kind} (core/v1 and batch/v1 kinds). */
    boolean knows(String apiVersion, String kind) {
        return componentName(apiVersion, kind) != null;
    }

    /**
     * Reads {@code object} (of a kind {@link #knows}) as the decoder does, removing the fields it does not know from
     * it.
     */
    Reading read(String apiVersion, String kind, ObjectNode object) {
        Reading reading = new Reading();
        Component component = components.get(componentName(apiVersion, kind));
        walkObject(object, component, "", "", reading);
        return reading;
    }

    private String componentName(String apiVersion, String kind) {
        String name = switch (String.valueOf(apiVersion)) {
            case "v1" -> "io.k8s.api.core.v1." + kind;
            case "batch/v1" -> "io.k8s.api.batch.v1." + kind;
            default -> null;
        };
        return name != null && components.containsKey(name) && !components.get(name).properties().isEmpty() ? name
                : null;
    }

    private void walkObject(ObjectNode object, Component component, String path, String goPath, Reading reading) {
        List<String> unknown = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            Node node = component.properties().get(field.getKey());
            String childPath = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
            if (node == null) {
                unknown.add(field.getKey());
                reading.unknownFields.add(childPath);
                continue;
            }
            String childGoPath = goPath.isEmpty() ? field.getKey() : goPath + "." + field.getKey();
            walk(field.getValue(), node, childPath, childGoPath, component, reading);
        }
        unknown.forEach(object::remove);
    }

    private void walk(JsonNode value, Node node, String path, String goPath, Component holder, Reading reading) {
        if (value.isNull()) {
            return;
        }
        switch (node.kind()) {
            case REF -> {
                Component target = components.get(node.ref());
                if (target.scalar() != null) {
                    walk(value, target.scalar(), path, goPath, holder, reading);
                } else if (value instanceof ObjectNode object) {
                    walkObject(object, target, path, goPath, reading);
                } else {
                    reading.decodeError(typeError(value, goPath, holder, "v1." + target.goStruct()));
                }
            }
            case STRING -> expect(value.isTextual(), value, goPath, holder, "string", reading);
            case INT32 -> expectInteger(value, goPath, holder, "int32", Integer.MIN_VALUE, Integer.MAX_VALUE, reading);
            case INT64 -> expectInteger(value, goPath, holder, "int64", Long.MIN_VALUE, Long.MAX_VALUE, reading);
            case NUMBER -> expect(value.isNumber(), value, goPath, holder, "float64", reading);
            case BOOL -> expect(value.isBoolean(), value, goPath, holder, "bool", reading);
            case ARRAY -> {
                if (!value.isArray()) {
                    reading.decodeError(typeError(value, goPath, holder, "[]" + goType(node.element())));
                    return;
                }
                for (int i = 0; i < value.size(); i++) {
                    walk(value.get(i), node.element(), path + "[" + i + "]", goPath, holder, reading);
                }
            }
            case MAP -> {
                if (!value.isObject()) {
                    reading.decodeError(typeError(value, goPath, holder, "map[string]" + goType(node.element())));
                    return;
                }
                value.fields().forEachRemaining(entry -> walk(entry.getValue(), node.element(),
                        path + "[" + entry.getKey() + "]", goPath, holder, reading));
            }
            case ANY_OBJECT -> expect(value.isObject(), value, goPath, holder, "map[string]interface {}", reading);
            case INT_OR_STRING -> expect(value.isTextual() || value.isIntegralNumber(), value, goPath, holder,
                    "intstr.IntOrString", reading);
            case QUANTITY -> {
                if (value.isNumber() || (value.isTextual() && QUANTITY_PATTERN.matcher(value.asText()).matches())) {
                    return;
                }
                reading.decodeError(value.isTextual() ? "quantities must match the regular expression '"
                        + QUANTITY_FORMAT + "'" : typeError(value, goPath, holder, "resource.Quantity"));
            }
            case ANY -> {
            }
        }
    }

    private static void expect(boolean ok, JsonNode value, String goPath, Component holder, String goType,
            Reading reading) {
        if (!ok) {
            reading.decodeError(typeError(value, goPath, holder, goType));
        }
    }

    private static void expectInteger(JsonNode value, String goPath, Component holder, String goType, long min,
            long max, Reading reading) {
        if (!value.isNumber()) {
            reading.decodeError(typeError(value, goPath, holder, goType));
        } else if (!value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < min
                || value.asLong() > max) {
            reading.decodeError("json: cannot unmarshal number " + value.asText() + " into Go struct field "
                    + holder.goStruct() + "." + goPath + " of type " + goType);
        }
    }

    /** encoding/json's UnmarshalTypeError: {@code json: cannot unmarshal string into Go struct field S.path of type T}. */
    private static String typeError(JsonNode value, String goPath, Component holder, String goType) {
        String found = switch (value.getNodeType()) {
            case STRING -> "string";
            case NUMBER -> "number";
            case BOOLEAN -> "bool";
            case ARRAY -> "array";
            default -> "object";
        };
        return "json: cannot unmarshal " + found + " into Go struct field " + holder.goStruct() + "." + goPath
                + " of type " + goType;
    }

    private String goType(Node node) {
        return switch (node.kind()) {
            case REF -> components.get(node.ref()).scalar() != null ? goType(components.get(node.ref()).scalar())
                    : components.get(node.ref()).goType();
            case STRING -> "string";
            case INT32 -> "int32";
            case INT64 -> "int64";
            case NUMBER -> "float64";
            case BOOL -> "bool";
            case ARRAY -> "[]" + goType(node.element());
            case MAP -> "map[string]" + goType(node.element());
            case ANY_OBJECT -> "map[string]interface {}";
            case INT_OR_STRING -> "intstr.IntOrString";
            case QUANTITY -> "resource.Quantity";
            case ANY -> "interface {}";
        };
    }

    private static OpenApiSchema load() {
        ObjectMapper mapper = new ObjectMapper();
        Map<String, Component> components = new HashMap<>();
        for (String file : FILES) {
            try (InputStream in = OpenApiSchema.class.getClassLoader().getResourceAsStream(file)) {
                if (in == null) {
                    throw new IllegalStateException("test resource " + file + " is missing");
                }
                JsonNode schemas = mapper.readTree(in).path("components").path("schemas");
                schemas.fields().forEachRemaining(entry -> components.putIfAbsent(entry.getKey(),
                        component(entry.getKey(), entry.getValue())));
            } catch (IOException e) {
                throw new UncheckedIOException("reading " + file, e);
            }
        }
        return new OpenApiSchema(Map.copyOf(components));
    }

    private static Component component(String name, JsonNode schema) {
        if (name.equals(QUANTITY)) {
            return new Component(name, Map.of(), Node.of(Kind.QUANTITY));
        }
        JsonNode properties = schema.get("properties");
        if (properties == null) {
            return new Component(name, Map.of(), node(schema));
        }
        Map<String, Node> nodes = new LinkedHashMap<>();
        properties.fields().forEachRemaining(entry -> nodes.put(entry.getKey(), node(entry.getValue())));
        return new Component(name, nodes, null);
    }

    private static Node node(JsonNode schema) {
        String ref = schema.has("$ref") ? schema.get("$ref").asText()
                : schema.path("allOf").path(0).path("$ref").asText(null);
        if (ref != null) {
            return new Node(Kind.REF, ref.substring(ref.lastIndexOf('/') + 1), null);
        }
        if ("int-or-string".equals(schema.path("format").asText())) {
            return Node.of(Kind.INT_OR_STRING);
        }
        return switch (schema.path("type").asText("")) {
            case "string" -> Node.of(Kind.STRING);
            case "integer" -> Node.of("int32".equals(schema.path("format").asText()) ? Kind.INT32 : Kind.INT64);
            case "number" -> Node.of(Kind.NUMBER);
            case "boolean" -> Node.of(Kind.BOOL);
            case "array" -> new Node(Kind.ARRAY, null, node(schema.path("items")));
            case "object" -> schema.has("additionalProperties")
                    ? new Node(Kind.MAP, null, node(schema.get("additionalProperties"))) : Node.of(Kind.ANY_OBJECT);
            default -> Node.of(Kind.ANY);
        };
    }
}
