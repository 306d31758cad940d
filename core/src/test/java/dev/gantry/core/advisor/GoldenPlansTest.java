package dev.gantry.core.advisor;

import dev.gantry.model.PlanJson;
import dev.gantry.model.PlanOverrides;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.gantry.api.Workload;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.CatalogEntry;
import dev.gantry.core.catalog.CatalogLoader;
import dev.gantry.testing.GoldenFiles;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The plans of the four example workloads over the embedded catalog, compared with the JSON goldens under
 * src/test/resources/advisor/golden byte for byte. After an intended change, rewrite them with
 * {@code -Dgantry.golden.update=true} (docs/testing.md) and review the diff.
 */
class GoldenPlansTest {
    /** A fixed "today" so that the catalog's age in the plans does not change from day to day. */
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC);
    private static final GoldenFiles GOLDEN = GoldenFiles.in("advisor/golden");
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    static Stream<Arguments> examples() {
        return Stream.of(
                Arguments.of("llm-finetune", (Supplier<Workload>) ExampleWorkloads::llmFinetune),
                Arguments.of("llm-inference", (Supplier<Workload>) ExampleWorkloads::llmInference),
                Arguments.of("vision-training", (Supplier<Workload>) ExampleWorkloads::visionTraining),
                Arguments.of("tabular-small", (Supplier<Workload>) ExampleWorkloads::tabularSmall));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void theOrderOfCatalogRowsDoesNotChangeThePlan(String name, Supplier<Workload> workload) throws IOException {
        Catalog embedded = CatalogLoader.embedded();
        List<CatalogEntry> shuffled = new ArrayList<>(embedded.entries());
        Collections.shuffle(shuffled, new Random(name.hashCode()));
        Catalog reordered = new Catalog(shuffled, embedded.info(), embedded.gpuModels(), embedded.retiredSeries());
        Advisor original = new Advisor(embedded, new FakeImages(), AdvisorSettings.defaults(), CLOCK);
        Advisor other = new Advisor(reordered, new FakeImages(), AdvisorSettings.defaults(), CLOCK);
        assertEquals(PlanJson.toJson(original.plan(workload.get(), PlanOverrides.none())),
                PlanJson.toJson(other.plan(workload.get(), PlanOverrides.none())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void planMatchesGolden(String name, Supplier<Workload> workload) throws IOException {
        Advisor advisor = new Advisor(CatalogLoader.embedded(), new FakeImages(), AdvisorSettings.defaults(), CLOCK);
        JsonNode actual = PlanJson.toJson(advisor.plan(workload.get(), PlanOverrides.none()));
        GOLDEN.assertMatches(name + ".json", JSON.writeValueAsString(actual) + "\n");
    }
}
