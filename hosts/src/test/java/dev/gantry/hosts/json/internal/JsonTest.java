package dev.gantry.hosts.json.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
    @Test
    void escapesToolOutput() {
        assertEquals("\"say \\\"hi\\\"\\\\ \\n\\t\\u0001\\u2028\"", Json.quote("say \"hi\"\\ \n\t\u0001\u2028"));
        assertEquals("\"\\u0008\\u000c\\u001f\\u2029/\"", Json.quote("\b\f\u001f\u2029/"));
    }

    @Test
    void writesOneMemberPerLineWithArraysAsTheLayoutSays() {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("name", "h");
        document.put("list", List.of("a", "b"));
        document.put("empty", List.of());
        document.put("nested", new LinkedHashMap<>(Map.of("n", 1)));
        document.put("nothing", new LinkedHashMap<>());
        document.put("unknown", null);
        assertEquals("{\n  \"name\": \"h\",\n  \"list\": [\n    \"a\",\n    \"b\"\n  ],\n  \"empty\": [],\n"
                + "  \"nested\": {\n    \"n\": 1\n  },\n  \"nothing\": {},\n  \"unknown\": null\n}\n",
                Json.write(document, Json.Layout.ONE_PER_LINE));
        assertEquals("{\n  \"name\": \"h\",\n  \"list\": [\"a\", \"b\"],\n  \"empty\": [],\n"
                + "  \"nested\": {\n    \"n\": 1\n  },\n  \"nothing\": {},\n  \"unknown\": null\n}\n",
                Json.write(document, Json.Layout.INLINE_ARRAYS));
    }

    @Test
    void readerRejectsMalformedJsonWithTheOffset() {
        Json.MalformedJson e = assertThrows(Json.MalformedJson.class, () -> Json.parse("{\"a\": [1, 2,]}"));
        assertEquals("malformed JSON at offset 12: Unexpected character (']' (code 93)): expected a valid value (JSON "
                + "String, Number, Array, Object or token 'null', 'true' or 'false')", e.getMessage());
        assertThrows(Json.MalformedJson.class, () -> Json.parse("{\"a\": 1} trailing"));
        assertThrows(Json.MalformedJson.class, () -> Json.parse("{\"a\": 1} {}"));
        Json.MalformedJson empty = assertThrows(Json.MalformedJson.class, () -> Json.parse("  "));
        assertEquals("malformed JSON at offset 2: expected a value, found end of input", empty.getMessage());
    }

    @Test
    void readerDecodesEscapesAndLiterals() throws Exception {
        JsonNode object = Json.parse("{\"s\": \"a\\\"b\\\\c\\nd\\u00e9\", \"t\": true, \"n\": -1.5e2}");
        assertEquals("a\"b\\c\nd\u00e9", object.get("s").textValue());
        assertEquals(true, object.get("t").booleanValue());
        assertEquals(-1.5e2, object.get("n").doubleValue());
        List<Object> values = new ArrayList<>();
        Json.parse("[null, false]").forEach(v -> values.add(v.isNull() ? null : v.booleanValue()));
        assertEquals(Arrays.asList(null, false), values);
    }

    @Test
    void readerLimitsNesting() throws Exception {
        String deep = "[".repeat(Json.MAX_DEPTH) + "]".repeat(Json.MAX_DEPTH);
        assertTrue(Json.parse(deep).isArray());
        String hostile = "[".repeat(100_000);
        Json.MalformedJson e = assertThrows(Json.MalformedJson.class, () -> Json.parse(hostile));
        assertEquals("malformed JSON at offset 64: nested deeper than 64", e.getMessage());
    }
}
