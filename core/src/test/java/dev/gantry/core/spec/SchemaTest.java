package dev.gantry.core.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JSON Schemas that editors use agree with the readers: valid examples pass, and every bad input whose fault is
 * structural (unknown field, enum, type, pattern, range) fails the schema too.
 */
class SchemaTest {
    static final Path CORPUS = BadInputCorpusTest.CORPUS;
    /** Faults a schema cannot see: YAML syntax, several documents, duplicate keys, rules across fields. */
    static final Set<String> NOT_STRUCTURAL = Set.of(
            "yaml-syntax-error.yaml", "yaml-unclosed-list.yaml", "two-documents.yaml", "duplicate-key.yaml",
            "empty-file.yaml", "comments-only.yaml", "spot-preferred-no-checkpoint.yaml",
            "env-secret-collision.yaml", "cpu-with-gpu-memory.yaml", "cpu-vendor-and-infinite-memory.yaml", "checkpoint-too-often.yaml", "bad-image.yaml",
            "config-syntax-error.yaml", "config-two-documents.yaml", "config-duplicate-backend.yaml",
            "workflow-duplicate-step.yaml", "workflow-unknown-dependency.yaml", "workflow-cycle.yaml",
            "workflow-unknown-cleanup.yaml", "fabric-check-one-node.yaml");
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static JsonSchema schema(String name) throws IOException {
        try (InputStream in = SchemaTest.class.getResourceAsStream("/dev/gantry/schema/" + name)) {
            assertNotNull(in, name + " is not on the classpath");
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(in);
        }
    }

    static Set<ValidationMessage> check(Path file) throws IOException {
        String name = file.getFileName().toString();
        JsonNode node = YAML.readTree(file.toFile());
        return schema(name.startsWith("config") || file.getParent().endsWith("config")
                ? "config.schema.json" : "workload.schema.json").validate(node);
    }

    static Stream<String> structuralBadInputs() throws IOException {
        try (Stream<Path> files = Files.list(CORPUS)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".yaml") && !NOT_STRUCTURAL.contains(n))
                    .sorted().collect(Collectors.toList()).stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"spec/llama-finetune.yaml", "spec/minimal-inference.yaml", "spec/cpu-sizes.yaml",
            "spec/gpu-memory-units.yaml", "config/full.yaml", "config/minimal.yaml", "workflow/train-and-serve.yaml",
            "workflow/steps/train.yaml", "../../../../examples/train-and-serve-workflow.yaml",
            "../../../../examples/fine-tune/run-here.yaml", "../../../../examples/batch-inference/workflow.yaml",
            "../../../../examples/batch-inference/run-here.yaml", "../../../../examples/train-and-serve/workflow.yaml",
            "../../../../examples/platform/nightly.yaml"})
    void validExamplesPassTheSchema(String example) throws IOException {
        assertEquals(Set.of(), check(Path.of("src/test/resources", example)));
    }

    @Test
    void everyExampleIsListed() throws IOException {
        try (Stream<Path> specs = Files.list(Path.of("src/test/resources/spec"));
                Stream<Path> configs = Files.list(Path.of("src/test/resources/config"))) {
            assertEquals(6, Stream.concat(specs, configs).count(), "add new examples to validExamplesPassTheSchema");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("structuralBadInputs")
    void structuralFaultsFailTheSchemaToo(String name) throws IOException {
        assertFalse(check(CORPUS.resolve(name)).isEmpty(), name + " passes the schema");
    }

    @Test
    void theSchemaNamesTheUnknownField() throws IOException {
        Set<ValidationMessage> messages = check(CORPUS.resolve("unknown-field.yaml"));
        assertTrue(messages.stream().anyMatch(m -> m.getMessage().contains("gpuz")), messages.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"workload.schema.json", "config.schema.json"})
    void docsCopiesEqualTheShippedSchemas(String name) throws IOException {
        try (InputStream in = SchemaTest.class.getResourceAsStream("/dev/gantry/schema/" + name)) {
            assertNotNull(in);
            assertEquals(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8),
                    Files.readString(Path.of("../docs/schema", name)));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"workload.schema.json", "config.schema.json"})
    void everyPropertyHasADescription(String name) throws IOException {
        JsonNode root;
        try (InputStream in = SchemaTest.class.getResourceAsStream("/dev/gantry/schema/" + name)) {
            root = new ObjectMapper().readTree(in);
        }
        List<String> missing = new ArrayList<>();
        collectUndescribed(root, "", missing);
        definitions(root).forEach((key, definition) -> collectUndescribed(definition, "$defs." + key, missing));
        assertEquals(List.of(), missing);
    }

    /** The shared definitions ({@code $defs}): the workload spec lives there since workflow steps reuse it. */
    private static Map<String, JsonNode> definitions(JsonNode root) {
        Map<String, JsonNode> definitions = new java.util.LinkedHashMap<>();
        JsonNode defs = root.get("$defs");
        if (defs != null) {
            defs.properties().forEach(entry -> definitions.put(entry.getKey(), entry.getValue()));
        }
        return definitions;
    }

    /** Where a node's own fields are: its properties, or those of the items of an array. */
    private static JsonNode propertiesOf(JsonNode node) {
        JsonNode properties = node.get("properties");
        if (properties == null && node.has("items")) {
            properties = node.get("items").get("properties");
        }
        return properties;
    }

    private static void collectUndescribed(JsonNode node, String path, List<String> missing) {
        JsonNode properties = propertiesOf(node);
        if (properties == null) {
            return;
        }
        for (Map.Entry<String, JsonNode> field : properties.properties()) {
            String at = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
            if (!field.getValue().has("description")) {
                missing.add(at);
            }
            collectUndescribed(field.getValue(), at, missing);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"workload.schema.json:spec.md", "config.schema.json:configuration.md"})
    void everySchemaPropertyIsDocumented(String pair) throws IOException {
        String[] names = pair.split(":");
        JsonNode root;
        try (InputStream in = SchemaTest.class.getResourceAsStream("/dev/gantry/schema/" + names[0])) {
            root = new ObjectMapper().readTree(in);
        }
        String doc = Files.readString(Path.of("../docs", names[1]));
        List<String> undocumented = new ArrayList<>();
        collectUndocumented(root, doc, undocumented);
        definitions(root).values().forEach(definition -> collectUndocumented(definition, doc, undocumented));
        assertEquals(List.of(), undocumented, "fields missing from the tables of docs/" + names[1]);
    }

    private static void collectUndocumented(JsonNode node, String doc, List<String> undocumented) {
        JsonNode properties = propertiesOf(node);
        if (properties == null) {
            return;
        }
        for (Map.Entry<String, JsonNode> field : properties.properties()) {
            // A table row names the field in code style: alone, as the last part of a dotted setting, or (for a
            // section) as the first part of its settings.
            String key = field.getKey();
            if (!doc.contains("| `" + key + "` |") && !doc.contains("." + key + "` |")
                    && !doc.contains("| `" + key + ".")) {
                undocumented.add(key);
            }
            collectUndocumented(field.getValue(), doc, undocumented);
        }
    }
}
