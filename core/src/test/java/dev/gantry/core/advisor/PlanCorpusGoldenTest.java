package dev.gantry.core.advisor;

import dev.gantry.model.PlanJson;
import dev.gantry.model.PlanOverrides;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.Alternative;
import dev.gantry.api.Budget;
import dev.gantry.api.CatalogInfo;
import dev.gantry.api.Checkpoint;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Interconnect;
import dev.gantry.api.ModelClass;
import dev.gantry.api.ModelSize;
import dev.gantry.api.Optimize;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Precision;
import dev.gantry.api.Reason;
import dev.gantry.api.Resources;
import dev.gantry.api.Scheduler;
import dev.gantry.api.RuntimeEstimate;
import dev.gantry.api.SpotPolicy;
import dev.gantry.api.Workload;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.CatalogLoader;
import dev.gantry.testing.GoldenFiles;
import java.io.IOException;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A broad corpus of workloads (training and inference, generative or not, GPU counts, nodes, spot, interconnect,
 * budgets, regions, overrides, estimates, and workloads no VM fits), each planned and rendered byte for byte: the
 * JSON exactly as {@link PlanJson} writes it ({@code gantry plan --output json}) and the plan's headline, reasons,
 * warnings and alternatives line by line as {@code gantry plan} prints them. The goldens under
 * src/test/resources/golden/plans pin the advisor's decisions and texts so that its insides can change without its
 * output changing. After an intended change of the output, rewrite them with {@code -Dgantry.golden.update=true}
 * (docs/testing.md) and review the diff.
 */
class PlanCorpusGoldenTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden/plans");
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final Checkpoint CHECKPOINT = new Checkpoint("/mnt/ckpt", Duration.ofMinutes(30));

    /** One workload planned against one catalog with given settings and overrides. */
    record Case(String name, Supplier<Catalog> catalog, Workload workload, AdvisorSettings settings,
                PlanOverrides overrides) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Workload.Builder workload(String name, Phase phase, ModelClass model) {
        return Workload.builder(name).phase(phase).model(model).command("python", "run.py");
    }

    private static Case embedded(String name, Workload workload) {
        return new Case(name, CatalogLoader::embedded, workload, AdvisorSettings.defaults(), PlanOverrides.none());
    }

    private static Case world(String name, Workload workload) {
        return new Case(name, TestCatalogs::world, workload, AdvisorSettings.defaults(), PlanOverrides.none());
    }

    /** The synthetic world with its prices dated long before the test clock's day, for the stale-price warning. */
    private static Catalog staleWorld() {
        Catalog world = TestCatalogs.world();
        return new Catalog(world.entries(), new CatalogInfo("old test catalog", LocalDate.of(2026, 5, 3)),
                world.gpuModels(), world.retiredSeries());
    }

    /**
     * Rows that tie on price, so that the tie-breaks (newer GPU, size name, region name) decide, beside rows that lose
     * by preference alone (NC for training, RDMA for inference) and an estimate that ties on cost.
     */
    private static Catalog ties() {
        return TestCatalogs.builder()
                .add(TestCatalogs.gpu("Standard_NC9_A10_v9", "NC", 9, 50, "A10", 1, false), "westus", 1, 1)
                .add(TestCatalogs.gpu("Standard_NC9a_T4_v9", "NC", 9, 50, "T4", 1, false), "westus", 1, 1)
                .add(TestCatalogs.gpu("Standard_NC9a_T4_v9", "NC", 9, 50, "T4", 1, false), "eastus", 1, 1)
                .add(TestCatalogs.gpu("Standard_NC9b_T4_v9", "NC", 9, 50, "T4", 1, false), "centralus", 1, 1)
                .add(TestCatalogs.gpu("Standard_NC9c_T4_v9", "NC", 9, 50, "T4", 1, true), "centralus", 0.5, 0.5)
                .add(TestCatalogs.gpu("Standard_ND9_T4_v9", "ND", 9, 50, "T4", 1, false), "eastus", 2, 2)
                .add(TestCatalogs.gpu("Standard_ND9b_T4_v9", "ND", 9, 50, "T4", 1, false), "centralus", 2, 2)
                .add(TestCatalogs.gpu("Standard_ND9_A10_v9", "ND", 9, 50, "A10", 1, false), "eastus", 4, NONE)
                .add(TestCatalogs.cpu("Standard_E2as_v9", "E", 2, 16), "westus", 0.1, 0.01)
                .add(TestCatalogs.cpu("Standard_E2as_v9", "E", 2, 16), "eastus", 0.1, 0.01)
                .add(TestCatalogs.cpu("Standard_E2bs_v9", "E", 2, 16), "eastus", 0.1, 0.01)
                .build();
    }

    private static final double NONE = TestCatalogs.NONE;

    private static Case ties(String name, Workload workload) {
        return new Case(name, PlanCorpusGoldenTest::ties, workload, AdvisorSettings.defaults(),
                PlanOverrides.none());
    }

    /** The synthetic world copied long before the test clock's day from a source that gives no price date. */
    private static Catalog staleCopiedWorld() {
        Catalog world = TestCatalogs.world();
        return new Catalog(world.entries(), CatalogInfo.copied("copied test catalog", LocalDate.of(2026, 5, 3)),
                world.gpuModels(), world.retiredSeries());
    }

    static Stream<Case> corpus() {
        List<Case> cases = new ArrayList<>();
        Phase training = Phase.TRAINING;
        Phase inference = Phase.INFERENCE;
        // The four examples.
        cases.add(embedded("example-llm-finetune", ExampleWorkloads.llmFinetune()));
        cases.add(embedded("example-llm-inference", ExampleWorkloads.llmInference()));
        cases.add(embedded("example-vision-training", ExampleWorkloads.visionTraining()));
        cases.add(embedded("example-tabular-small", ExampleWorkloads.tabularSmall()));
        // GPU training over the embedded catalog.
        cases.add(embedded("gpu-training-default", workload("t", training, ModelClass.GENERATIVE).build()));
        cases.add(embedded("gpu-training-8x2-infiniband-spot", workload("t", training, ModelClass.GENERATIVE)
                .resources(Resources.builder().gpus(8).nodes(2).interconnect(Interconnect.INFINIBAND).build())
                .checkpoint(CHECKPOINT).spot(SpotPolicy.ALLOWED).build()));
        cases.add(embedded("gpu-training-4x3-any", workload("t", training, ModelClass.COMPLEX)
                .resources(Resources.builder().gpus(4).nodes(3).build()).build()));
        cases.add(embedded("gpu-training-2-nodes-ethernet", workload("t", training, ModelClass.COMPLEX)
                .resources(Resources.builder().gpus(1).nodes(2).interconnect(Interconnect.ETHERNET).build())
                .build()));
        cases.add(embedded("gpu-training-model-70b-fp16", workload("t", training, ModelClass.GENERATIVE)
                .modelSize(new ModelSize(70e9, Precision.FP16)).checkpoint(CHECKPOINT)
                .spot(SpotPolicy.PREFERRED).build()));
        cases.add(embedded("gpu-training-model-7b-explicit-8", workload("t", training, ModelClass.GENERATIVE)
                .modelSize(new ModelSize(7e9, Precision.BF16)).resources(Resources.builder().gpus(8).build())
                .build()));
        cases.add(embedded("gpu-training-model-400b-explicit-1", workload("t", training, ModelClass.GENERATIVE)
                .modelSize(new ModelSize(400e9, Precision.BF16)).resources(Resources.builder().gpus(1).build())
                .build()));
        cases.add(embedded("gpu-training-amd", workload("t", training, ModelClass.GENERATIVE)
                .resources(Resources.builder().gpus(8).gpuVendor(GpuVendor.AMD).build()).build()));
        cases.add(embedded("gpu-training-estimate-cost", workload("t", training, ModelClass.GENERATIVE)
                .resources(Resources.builder().gpus(8).build()).estimate(new RuntimeEstimate(100, "A100-80GB"))
                .build()));
        cases.add(embedded("gpu-training-estimate-time", workload("t", training, ModelClass.GENERATIVE)
                .resources(Resources.builder().gpus(8).build()).estimate(new RuntimeEstimate(100, "A100-80GB"))
                .optimize(Optimize.TIME).build()));
        cases.add(embedded("gpu-training-time-without-estimate", workload("t", training, ModelClass.GENERATIVE)
                .optimize(Optimize.TIME).build()));
        cases.add(embedded("gpu-training-spot-allowed-no-checkpoint", workload("t", training, ModelClass.COMPLEX)
                .spot(SpotPolicy.ALLOWED).build()));
        cases.add(embedded("gpu-training-budget-eastus", workload("t", training, ModelClass.GENERATIVE)
                .resources(Resources.builder().gpus(8).build()).regions(List.of("eastus"))
                .budget(new Budget(40)).build()));
        // GPU inference over the embedded catalog.
        cases.add(embedded("gpu-inference-default", workload("i", inference, ModelClass.GENERATIVE).build()));
        cases.add(embedded("gpu-inference-40gib-spot", workload("i", inference, ModelClass.GENERATIVE)
                .resources(Resources.builder().gpus(1).gpuMemoryGib(40).build()).spot(SpotPolicy.ALLOWED)
                .build()));
        cases.add(embedded("gpu-inference-model-13b-int8", workload("i", inference, ModelClass.GENERATIVE)
                .modelSize(new ModelSize(13e9, Precision.INT8)).build()));
        cases.add(embedded("gpu-inference-model-405b-fp8", workload("i", inference, ModelClass.GENERATIVE)
                .modelSize(new ModelSize(405e9, Precision.FP8)).spot(SpotPolicy.PREFERRED).build()));
        cases.add(embedded("gpu-inference-infiniband", workload("i", inference, ModelClass.COMPLEX)
                .resources(Resources.builder().gpus(8).interconnect(Interconnect.INFINIBAND).build()).build()));
        cases.add(embedded("gpu-inference-2-gpus-westeurope", workload("i", inference, ModelClass.COMPLEX)
                .resources(Resources.builder().gpus(2).build()).regions(List.of("westeurope", "nowhere")).build()));
        cases.add(embedded("gpu-inference-estimate-cpu-hours", workload("i", inference, ModelClass.COMPLEX)
                .estimate(new RuntimeEstimate(5, "T4")).build()));
        // CPU workloads over the embedded catalog.
        cases.add(embedded("cpu-training-default", workload("c", training, ModelClass.SMALL).build()));
        cases.add(embedded("cpu-training-8-vcpus-32-gib", workload("c", training, ModelClass.SMALL)
                .resources(Resources.builder().vcpus(8).memoryGib(32).build()).build()));
        cases.add(embedded("cpu-training-3-nodes-spot", workload("c", training, ModelClass.SMALL)
                .resources(Resources.builder().vcpus(16).nodes(3).build()).checkpoint(CHECKPOINT)
                .spot(SpotPolicy.PREFERRED).build()));
        cases.add(embedded("cpu-inference-default", workload("c", inference, ModelClass.SMALL).build()));
        cases.add(embedded("cpu-inference-spot-allowed", workload("c", inference, ModelClass.SMALL)
                .resources(Resources.builder().vcpus(4).build()).spot(SpotPolicy.ALLOWED).build()));
        cases.add(embedded("cpu-inference-estimate", workload("c", inference, ModelClass.SMALL)
                .estimate(new RuntimeEstimate(3, "T4")).build()));
        cases.add(embedded("cpu-zero-gpus-generative", workload("c", inference, ModelClass.GENERATIVE)
                .resources(Resources.builder().gpus(0).build()).build()));
        cases.add(embedded("gpu-for-small-model", workload("g", training, ModelClass.SMALL)
                .resources(Resources.builder().gpus(1).build()).modelSize(new ModelSize(1e9, Precision.FP32))
                .build()));
        cases.add(embedded("cpu-with-model-size", workload("c", training, ModelClass.SMALL)
                .modelSize(new ModelSize(1e8, Precision.FP32)).build()));
        // Settings and overrides.
        cases.add(new Case("settings-default-regions-and-spot", CatalogLoader::embedded,
                workload("s", inference, ModelClass.GENERATIVE).build(),
                new AdvisorSettings(List.of("westus2", "eastus"), Optional.of(SpotPolicy.ALLOWED),
                        Optional.empty()), PlanOverrides.none()));
        cases.add(new Case("settings-scheduler-multinode", CatalogLoader::embedded,
                workload("s", training, ModelClass.GENERATIVE)
                        .resources(Resources.builder().gpus(8).nodes(4).build()).build(),
                new AdvisorSettings(List.of(), Optional.empty(), Optional.of(Scheduler.SLURM)), PlanOverrides.none()));
        // defaults.zones: eastus's from the configuration, westus2's from the workload, which wins there.
        cases.add(new Case("settings-default-zones", CatalogLoader::embedded,
                workload("z", inference, ModelClass.GENERATIVE).zones("westus2", List.of("1")).build(),
                new AdvisorSettings(List.of("westus2", "eastus"), Optional.empty(), Optional.empty(),
                        Map.of("westus2", List.of("2", "3"), "eastus", List.of("3"))),
                PlanOverrides.none()));
        cases.add(new Case("overrides-region-and-spot", CatalogLoader::embedded,
                workload("o", inference, ModelClass.COMPLEX).regions(List.of("eastus")).spot(SpotPolicy.NEVER)
                        .build(),
                new AdvisorSettings(List.of("westus2"), Optional.empty(), Optional.empty()),
                new PlanOverrides(List.of("westus3", "southcentralus"), Optional.of(SpotPolicy.PREFERRED))));
        // Workloads no VM fits.
        cases.add(embedded("none-gpu-memory-and-vendor", workload("n", training, ModelClass.GENERATIVE)
                .resources(Resources.builder().gpus(8).gpuMemoryGib(500).gpuVendor(GpuVendor.AMD).build())
                .regions(List.of("westus2")).build()));
        cases.add(embedded("none-budget", workload("n", training, ModelClass.GENERATIVE)
                .resources(Resources.builder().gpus(8).nodes(2).build()).budget(new Budget(1)).build()));
        cases.add(embedded("none-vcpus", workload("n", training, ModelClass.SMALL)
                .resources(Resources.builder().vcpus(100000).build()).build()));
        cases.add(embedded("none-gpu-count", workload("n", inference, ModelClass.GENERATIVE)
                .resources(Resources.builder().gpus(3).build()).spot(SpotPolicy.ALLOWED).build()));
        cases.add(embedded("none-unknown-region", workload("n", inference, ModelClass.SMALL)
                .regions(List.of("marsnorth")).build()));
        cases.add(new Case("invalid-preferred-without-checkpoint", CatalogLoader::embedded,
                workload("n", training, ModelClass.COMPLEX).build(), AdvisorSettings.defaults(),
                new PlanOverrides(List.of(), Optional.of(SpotPolicy.PREFERRED))));
        cases.add(embedded("invalid-unknown-estimate-gpu", workload("n", training, ModelClass.COMPLEX)
                .estimate(new RuntimeEstimate(5, "TPUv5")).build()));
        // The synthetic world: restrictions, retired series, unknown prices, the NC fallback, stale prices.
        cases.add(world("world-gpu-training", workload("w", training, ModelClass.GENERATIVE).build()));
        cases.add(world("world-nc-fallback", workload("w", training, ModelClass.GENERATIVE)
                .resources(Resources.builder().gpus(1).build()).build()));
        cases.add(world("world-nc-fallback-infiniband", workload("w", training, ModelClass.GENERATIVE)
                .resources(Resources.builder().gpus(1).interconnect(Interconnect.INFINIBAND).build()).build()));
        cases.add(world("world-inference-spot", workload("w", inference, ModelClass.GENERATIVE)
                .spot(SpotPolicy.ALLOWED).build()));
        cases.add(world("world-inference-a10-unpriced", workload("w", inference, ModelClass.GENERATIVE)
                .resources(Resources.builder().gpus(1).gpuMemoryGib(20).build()).regions(List.of("eastus"))
                .build()));
        cases.add(world("world-spot-falls-back-to-on-demand", workload("w", training, ModelClass.GENERATIVE)
                .resources(Resources.builder().gpus(8).gpuVendor(GpuVendor.AMD).build()).checkpoint(CHECKPOINT)
                .spot(SpotPolicy.PREFERRED).build()));
        cases.add(world("world-cpu-training", workload("w", training, ModelClass.SMALL).build()));
        cases.add(world("world-cpu-inference", workload("w", inference, ModelClass.SMALL)
                .resources(Resources.builder().vcpus(4).build()).build()));
        cases.add(world("world-none-westus3-restricted", workload("w", inference, ModelClass.GENERATIVE)
                .regions(List.of("westus3")).build()));
        cases.add(world("world-none-all-relaxed", workload("w", training, ModelClass.GENERATIVE)
                .resources(Resources.builder().gpus(8).gpuMemoryGib(300).gpuVendor(GpuVendor.NVIDIA).nodes(2)
                        .build()).regions(List.of("westus2")).budget(new Budget(0.5)).build()));
        cases.add(ties("ties-inference", workload("t", inference, ModelClass.GENERATIVE).build()));
        cases.add(ties("ties-inference-spot", workload("t", inference, ModelClass.GENERATIVE)
                .spot(SpotPolicy.ALLOWED).build()));
        cases.add(ties("ties-training-nd-preferred", workload("t", training, ModelClass.GENERATIVE).build()));
        cases.add(ties("ties-training-estimate", workload("t", training, ModelClass.GENERATIVE)
                .estimate(new RuntimeEstimate(10, "T4")).build()));
        cases.add(ties("ties-training-estimate-time", workload("t", training, ModelClass.GENERATIVE)
                .estimate(new RuntimeEstimate(10, "T4")).optimize(Optimize.TIME).build()));
        cases.add(ties("ties-inference-estimate-time", workload("t", inference, ModelClass.GENERATIVE)
                .estimate(new RuntimeEstimate(10, "T4")).optimize(Optimize.TIME).build()));
        cases.add(ties("ties-cpu-training", workload("t", training, ModelClass.SMALL).build()));
        cases.add(new Case("stale-catalog", PlanCorpusGoldenTest::staleWorld,
                workload("w", inference, ModelClass.SMALL).build(), AdvisorSettings.defaults(),
                PlanOverrides.none()));
        cases.add(new Case("stale-copied-catalog", PlanCorpusGoldenTest::staleCopiedWorld,
                workload("w", inference, ModelClass.SMALL).build(), AdvisorSettings.defaults(),
                PlanOverrides.none()));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void planIsByteForByteTheGolden(Case c) throws IOException {
        Advisor advisor = new Advisor(c.catalog().get(), new FakeImages(), c.settings(), GoldenPlansTest.CLOCK);
        String json;
        String text;
        try {
            Plan plan = advisor.plan(c.workload(), c.overrides());
            json = JSON.writeValueAsString(PlanJson.toJson(plan)) + "\n";
            text = text(plan);
        } catch (GantryException e) {
            ObjectNode error = PlanJson.error(c.workload().name(), e);
            json = JSON.writeValueAsString(error) + "\n";
            text = "gantry: " + e.getMessage() + "\n";
        }
        GOLDEN.assertMatches(c.name() + ".json", json);
        GOLDEN.assertMatches(c.name() + ".txt", text);
    }

    /** The plan's lines as {@code gantry plan} prints them, less the fact table (whose values the JSON holds). */
    static String text(Plan plan) {
        StringBuilder out = new StringBuilder();
        out.append(plan.workload().name()).append(": ").append(plan.nodes()).append(" x ")
                .append(plan.vmSize().name()).append(" in ").append(plan.region()).append(", ")
                .append(plan.spot() ? "spot" : "on-demand").append('\n');
        out.append("reasons:\n");
        for (Reason reason : plan.reasons()) {
            out.append("  ").append(reason.rule()).append("  ").append(reason.text()).append('\n');
        }
        for (String warning : plan.warnings()) {
            out.append("warning: ").append(warning).append('\n');
        }
        if (!plan.alternatives().isEmpty()) {
            out.append("alternatives:\n");
            for (Alternative alternative : plan.alternatives()) {
                out.append("  ").append(alternative.vmSize()).append(" | ").append(alternative.region())
                        .append(" | ").append(alternative.spot() ? "spot" : "on-demand").append(" | ")
                        .append(String.format(Locale.ROOT, "%.4f", alternative.pricePerHourTotal())).append(" | ")
                        .append(alternative.lostBecause()).append('\n');
            }
        }
        return out.toString();
    }
}
