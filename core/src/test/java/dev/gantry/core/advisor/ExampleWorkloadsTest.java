package dev.gantry.core.advisor;

import dev.gantry.model.Money;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.gantry.api.Durations;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Resources;
import dev.gantry.api.Workload;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The golden plans are made from workloads built in code; this test holds those builders to the example files, field
 * by field, reading the YAML as a plain tree (the spec reader is tested elsewhere).
 */
class ExampleWorkloadsTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static Stream<Arguments> examples() {
        return GoldenPlansTest.examples();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void builtInCodeAsTheFileSays(String name, Supplier<Workload> built) throws IOException {
        JsonNode file = YAML.readTree(Path.of("../examples/" + name + ".yaml").toFile());
        assertEquals("gantry.dev/v1", file.get("apiVersion").asText());
        assertEquals("Workload", file.get("kind").asText());
        assertEquals(describe(file), describe(built.get()), "examples/" + name + ".yaml");
    }

    /** The fields of a spec tree, in a canonical text form. */
    private static Map<String, String> describe(JsonNode file) {
        JsonNode spec = file.get("spec");
        Map<String, String> out = new LinkedHashMap<>();
        out.put("name", file.at("/metadata/name").asText());
        out.put("labels", strings(file.at("/metadata/labels")).toString());
        out.put("phase", spec.get("phase").asText());
        out.put("model", spec.get("model").asText());
        JsonNode r = spec.path("resources");
        out.put("resources", text(r, "gpus") + " " + number(r, "gpuMemoryGib") + " " + text(r, "gpuVendor") + " "
                + text(r, "vcpus") + " " + number(r, "memoryGib") + " " + (r.has("nodes") ? r.get("nodes").asText()
                : "1") + " " + (r.has("interconnect") ? r.get("interconnect").asText() : "any"));
        out.put("modelSize", spec.has("modelSize") ? number(spec.get("modelSize"), "parameters") + " "
                + spec.at("/modelSize/precision").asText() : "-");
        out.put("container", spec.has("container") ? spec.at("/container/image").asText() : "-");
        List<String> command = new ArrayList<>();
        spec.get("command").forEach(arg -> command.add(arg.asText()));
        out.put("command", command.toString());
        out.put("workingDir", text(spec, "workingDir"));
        out.put("env", strings(spec.path("env")).toString());
        out.put("secrets", strings(spec.path("secrets")).toString());
        out.put("checkpoint", spec.has("checkpoint") ? spec.at("/checkpoint/path").asText() + " "
                + spec.at("/checkpoint/every").asText() : "-");
        out.put("spot", spec.has("spot") ? spec.get("spot").asText() : "never");
        List<String> regions = new ArrayList<>();
        spec.path("regions").forEach(region -> regions.add(region.asText()));
        out.put("regions", regions.toString());
        out.put("budget", spec.has("budget") ? number(spec.get("budget"), "maxPerHour") : "-");
        out.put("estimate", spec.has("estimate") ? number(spec.get("estimate"), "hours") + " "
                + spec.at("/estimate/gpu").asText() : "-");
        out.put("optimize", spec.has("optimize") ? spec.get("optimize").asText() : "cost");
        return out;
    }

    private static Map<String, String> describe(Workload w) {
        Map<String, String> out = new LinkedHashMap<>();
        Resources r = w.resources();
        out.put("name", w.name());
        out.put("labels", w.labels().toString());
        out.put("phase", lower(w.phase()));
        out.put("model", lower(w.model()));
        out.put("resources", (r.gpus().isPresent() ? String.valueOf(r.gpus().getAsInt()) : "-") + " "
                + (r.gpuMemoryGib().isPresent() ? Money.format(r.gpuMemoryGib().getAsDouble()) : "-") + " "
                + (r.gpuVendor() == GpuVendor.ANY ? "-" : lower(r.gpuVendor())) + " "
                + (r.vcpus().isPresent() ? String.valueOf(r.vcpus().getAsInt()) : "-") + " "
                + (r.memoryGib().isPresent() ? Money.format(r.memoryGib().getAsDouble()) : "-") + " " + r.nodes()
                + " " + lower(r.interconnect()));
        out.put("modelSize", w.modelSize().map(m -> Money.format(m.parameters()) + " " + lower(m.precision()))
                .orElse("-"));
        out.put("container", w.container().map(c -> c.image()).orElse("-"));
        out.put("command", w.command().toString());
        out.put("workingDir", w.workingDir().orElse("-"));
        out.put("env", w.env().toString());
        Map<String, String> secrets = new LinkedHashMap<>();
        w.secrets().forEach((key, ref) -> secrets.put(key, lower(ref.kind()) + ":" + ref.location()));
        out.put("secrets", secrets.toString());
        out.put("checkpoint", w.checkpoint().map(c -> c.path() + " " + Durations.format(c.every())).orElse("-"));
        out.put("spot", w.spot().map(ExampleWorkloadsTest::lower).orElse("-"));
        out.put("regions", w.regions().toString());
        out.put("budget", w.budget().map(b -> b.maxPerHour().isPresent()
                ? Money.format(b.maxPerHour().getAsDouble()) : "-").orElse("-"));
        out.put("estimate", w.estimate().map(e -> Money.format(e.hours()) + " " + e.gpu()).orElse("-"));
        out.put("optimize", lower(w.optimize()));
        return out;
    }

    private static Map<String, String> strings(JsonNode map) {
        Map<String, String> out = new LinkedHashMap<>();
        map.fields().forEachRemaining(field -> out.put(field.getKey(), field.getValue().asText()));
        return out;
    }

    private static String text(JsonNode node, String field) {
        return node.has(field) ? node.get(field).asText() : "-";
    }

    private static String number(JsonNode node, String field) {
        return node.has(field) ? Money.format(node.get(field).asDouble()) : "-";
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
