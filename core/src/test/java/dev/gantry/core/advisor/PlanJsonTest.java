package dev.gantry.core.advisor;

import dev.gantry.model.PlanJson;
import dev.gantry.model.PlanOverrides;
import static dev.gantry.core.advisor.AdvisorRulesTest.plan;
import static dev.gantry.core.advisor.AdvisorRulesTest.resources;
import static dev.gantry.core.advisor.AdvisorRulesTest.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.gantry.api.GantryException;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.RuntimeEstimate;
import dev.gantry.api.Workload;
import dev.gantry.core.catalog.CatalogLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The plan JSON has exactly the documented fields, and docs/schema/plan.schema.json accepts what it produces. */
class PlanJsonTest {
    private static JsonSchema schema;

    @BeforeAll
    static void readSchema() throws IOException {
        JsonNode text = new ObjectMapper().readTree(Files.readString(Path.of("../docs/schema/plan.schema.json")));
        schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(text);
    }

    private static Set<ValidationMessage> validate(JsonNode json) {
        return schema.validate(json);
    }

    @Test
    void gpuPlanHasTheDocumentedFieldsAndValidates() {
        Plan plan = plan(workload(Phase.TRAINING, ModelClass.GENERATIVE)
                .resources(resources().gpus(8).nodes(2).build())
                .estimate(new RuntimeEstimate(10, "A100-80GB")).build());
        ObjectNode json = PlanJson.toJson(plan);
        assertEquals(List.of("workload", "vmSize", "region", "zones", "nodes", "spot", "hardware", "gpu", "vcpus",
                "memoryGib", "rdma", "pricePerHour", "estimatedCost", "image", "orchestrator", "reasons", "alternatives",
                "catalog"), iterable(json));
        // MI300X: 2 × 60 USD/h × 10 h × 312 / 1307 TFLOPS, rounded to four decimals.
        assertEquals("Standard_ND96isr_MI300X_v5", json.get("vmSize").asText());
        assertEquals(120, json.at("/pricePerHour/total").asDouble(), 1e-12);
        assertEquals(286.4575, json.get("estimatedCost").asDouble(), 1e-9);
        assertEquals("amd", json.at("/gpu/vendor").asText());
        assertEquals(8, json.at("/gpu/count").asInt());
        assertEquals("cyclecloud", json.at("/orchestrator/recommended").asText());
        assertEquals("2026-11-01", json.at("/catalog/date").asText());
        assertEquals("2026-11-01", json.at("/catalog/priceDate").asText());
        assertEquals("prices of 2026-11-01 (fetched that day)", json.at("/catalog/priceDateNote").asText());
        assertTrue(validate(json).isEmpty(), validate(json).toString());
    }

    @Test
    void aCopiedCatalogHasANullPriceDateAndSaysSoAndValidates() {
        ObjectNode json = PlanJson.toJson(new Advisor(CatalogLoader.embedded(), new FakeImages(),
                AdvisorSettings.defaults(), GoldenPlansTest.CLOCK).plan(workload(Phase.INFERENCE, ModelClass.SMALL)
                .build(), PlanOverrides.none()));
        assertEquals("2026-11-29", json.at("/catalog/date").asText());
        assertTrue(json.at("/catalog/priceDate").isNull());
        assertEquals("copied 2026-11-29; price date unknown (the source gives none); refresh with 'gantry catalog "
                + "refresh --region REGION'", json.at("/catalog/priceDateNote").asText());
        assertTrue(validate(json).isEmpty(), validate(json).toString());
    }

    @Test
    void cpuPlanHasNullGpuAndNullEstimatedCostAndValidates() {
        ObjectNode json = PlanJson.toJson(plan(workload(Phase.INFERENCE, ModelClass.SMALL).build()));
        assertTrue(json.get("gpu").isNull());
        assertTrue(json.get("estimatedCost").isNull());
        assertEquals("CPU", json.get("hardware").asText());
        assertTrue(validate(json).isEmpty(), validate(json).toString());
    }

    @Test
    void errorHasWorkloadCodeAndMessageAndValidates() {
        Workload impossible = workload(Phase.INFERENCE, ModelClass.SMALL).resources(resources().vcpus(500).build())
                .build();
        GantryException e = assertThrows(GantryException.class, () -> plan(impossible));
        ObjectNode json = PlanJson.error("w", e);
        assertEquals("NO_FEASIBLE_VM", json.at("/error/code").asText());
        assertEquals(e.getMessage(), json.at("/error/message").asText());
        assertEquals(List.of("workload", "error"), iterable(json));
        assertTrue(validate(json).isEmpty(), validate(json).toString());
    }

    @Test
    void theSchemaRejectsAPlanWithAMissingOrUnknownField() {
        ObjectNode json = PlanJson.toJson(plan(workload(Phase.INFERENCE, ModelClass.SMALL).build()));
        ObjectNode missing = json.deepCopy();
        missing.remove("region");
        assertFalse(validate(missing).isEmpty());
        ObjectNode extra = json.deepCopy();
        extra.put("colour", "blue");
        assertFalse(validate(extra).isEmpty());
        ObjectNode wrongHardware = json.deepCopy();
        wrongHardware.put("hardware", "TPU");
        assertFalse(validate(wrongHardware).isEmpty());
    }

    @Test
    void goldenPlansValidate() throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        try (var files = Files.list(Path.of("src/test/resources/advisor/golden"))) {
            List<Path> goldens = files.sorted().toList();
            assertEquals(4, goldens.size());
            for (Path golden : goldens) {
                Set<ValidationMessage> problems = validate(mapper.readTree(golden.toFile()));
                assertTrue(problems.isEmpty(), golden + ": " + problems);
            }
        }
    }

    @Test
    void corpusGoldensValidate() throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        try (var files = Files.list(Path.of("src/test/resources/golden/plans"))) {
            List<Path> goldens = files.filter(file -> file.toString().endsWith(".json")).sorted().toList();
            assertTrue(goldens.size() > 50, goldens.size() + " corpus goldens");
            for (Path golden : goldens) {
                Set<ValidationMessage> problems = validate(mapper.readTree(golden.toFile()));
                assertTrue(problems.isEmpty(), golden + ": " + problems);
            }
        }
    }

    private static List<String> iterable(JsonNode json) {
        List<String> names = new ArrayList<>();
        json.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
