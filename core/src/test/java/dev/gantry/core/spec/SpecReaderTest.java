package dev.gantry.core.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Budget;
import dev.gantry.api.Checkpoint;
import dev.gantry.api.ContainerSpec;
import dev.gantry.api.FabricCheck;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Interconnect;
import dev.gantry.api.ModelClass;
import dev.gantry.api.ModelSize;
import dev.gantry.api.Optimize;
import dev.gantry.api.Phase;
import dev.gantry.api.Precision;
import dev.gantry.api.Problem;
import dev.gantry.api.Resources;
import dev.gantry.api.RuntimeEstimate;
import dev.gantry.api.SecretRef;
import dev.gantry.api.SourceLocation;
import dev.gantry.api.SpotPolicy;
import dev.gantry.api.Workload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpecReaderTest {
    static final Path SPECS = Path.of("src/test/resources/spec");
    final SpecReader reader = new SpecReader();

    @Test
    void readsTheCanonicalWorkload() {
        Workload w = reader.read(SPECS.resolve("llama-finetune.yaml"));

        assertEquals("llama-finetune", w.name());
        assertEquals(Map.of("team", "nlp"), w.labels());
        assertEquals(Phase.TRAINING, w.phase());
        assertEquals(ModelClass.GENERATIVE, w.model());
        assertEquals(Optional.of(new ModelSize(7e9, Precision.BF16)), w.modelSize());
        assertEquals(new Resources(OptionalInt.of(8), OptionalDouble.of(80), GpuVendor.NVIDIA, OptionalInt.of(16),
                OptionalDouble.of(64), 2, Interconnect.INFINIBAND), w.resources());
        assertEquals(Optional.of(new ContainerSpec("nvcr.io/nvidia/pytorch:24.05-py3")), w.container());
        assertEquals(List.of("torchrun", "--nproc-per-node=8", "train.py"), w.command());
        assertEquals(Optional.of("/workspace"), w.workingDir());
        assertEquals(Map.of("EPOCHS", "3"), w.env());
        assertEquals(Map.of("HF_TOKEN", new SecretRef(SecretRef.Kind.ENV, "HF_TOKEN")), w.secrets());
        assertEquals(Optional.of(new Checkpoint("/mnt/checkpoints", Duration.ofMinutes(30))), w.checkpoint());
        assertEquals(Optional.of(SpotPolicy.ALLOWED), w.spot());
        assertEquals(List.of("eastus", "westus2"), w.regions());
        assertEquals(Optional.of(new Budget(120)), w.budget());
        assertEquals(Optional.of(new RuntimeEstimate(10, "A100-80GB")), w.estimate());
        assertEquals(Optimize.COST, w.optimize());
    }

    @Test
    void fabricCheckIsTrueFalseOrAFloorOfTheWorkloadsOwnAndUnsetByDefault() {
        String head = "apiVersion: gantry.dev/v1\nkind: Workload\nmetadata: {name: t}\nspec:\n  phase: training\n"
                + "  model: generative\n  command: [python]\n  resources: {nodes: 2}\n";
        assertEquals(Optional.empty(), reader.read("t.yaml", head).fabricCheck());
        assertEquals(Optional.of(FabricCheck.on()), reader.read("t.yaml", head + "  fabricCheck: true\n").fabricCheck());
        assertEquals(Optional.of(FabricCheck.off()), reader.read("t.yaml", head + "  fabricCheck: false\n")
                .fabricCheck());
        assertEquals(Optional.of(FabricCheck.withFloor(12.5, 64)), reader.read("t.yaml", head
                + "  fabricCheck: {minBusBandwidthGBps: 12.5, messageMiB: 64}\n").fabricCheck());
    }

    @Test
    void minimalSpecTakesTheDefaults() {
        Workload w = reader.read(SPECS.resolve("minimal-inference.yaml"));

        assertEquals(Phase.INFERENCE, w.phase());
        assertEquals(ModelClass.COMPLEX, w.model());
        assertEquals(Resources.defaults(), w.resources());
        assertEquals(Optional.empty(), w.spot(), "unset: the configuration decides");
        assertEquals(Optimize.COST, w.optimize());
        assertEquals(Optional.empty(), w.container());
        assertEquals(Optional.empty(), w.checkpoint());
        assertTrue(w.labels().isEmpty() && w.env().isEmpty() && w.secrets().isEmpty() && w.regions().isEmpty());
    }

    @Test
    void scalarsBecomeTextAndSizesAndDurationsTakeUnits() {
        Workload w = reader.read(SPECS.resolve("cpu-sizes.yaml"));

        assertEquals(Map.of("app.kubernetes.io", "churn", "cost-center", "4711"), w.labels());
        assertEquals(List.of("python", "fit.py", "--trees", "500"), w.command());
        assertEquals(Map.of("EPOCHS", "3", "VERBOSE", "true"), w.env());
        assertEquals(OptionalInt.of(0), w.resources().gpus());
        assertEquals(OptionalDouble.of(1024), w.resources().memoryGib());
        assertEquals(Duration.ofMinutes(90), w.checkpoint().orElseThrow().every());
        assertEquals(SecretRef.Kind.FILE, w.secrets().get("DB_PASSWORD").kind());
        assertEquals(SecretRef.Kind.KEY_VAULT, w.secrets().get("API_KEY").kind());
        assertEquals(Optional.of(SpotPolicy.PREFERRED), w.spot());
        assertEquals(Optimize.TIME, w.optimize());
    }

    @Test
    void binarySizeUnitsWithOrWithoutB() {
        Workload w = reader.read(SPECS.resolve("gpu-memory-units.yaml"));

        assertEquals(OptionalDouble.of(40), w.resources().gpuMemoryGib());
        assertEquals(OptionalDouble.of(0.5), w.resources().memoryGib());
        assertEquals(GpuVendor.AMD, w.resources().gpuVendor());
        assertEquals(Duration.ofDays(1), w.checkpoint().orElseThrow().every());
    }

    @Test
    void everyExampleSpecIsValid() throws Exception {
        try (var files = Files.list(SPECS)) {
            for (Path spec : files.toList()) {
                assertEquals(List.of(), reader.validate(spec), spec.toString());
            }
        }
    }

    @Test
    void problemsAreLocatedAtTheFieldKeyAsInTheIssueExample() {
        String yaml = String.join("\n",
                "apiVersion: gantry.dev/v1",
                "kind: Workload",
                "metadata:",
                "  name: train",
                "spec:",
                "  phase: training",
                "  model: generative",
                "  command: [python, train.py]",
                "  env: {EPOCHS: \"3\"}",
                "  workingDir: /w",
                "  resources:",
                "    gpus: -1",
                "");

        List<Problem> problems = reader.validate("train.yaml", yaml);

        assertEquals(List.of(new Problem(Optional.of(new SourceLocation("train.yaml", 12, 5)), "resources.gpus",
                "must be between 0 and 16, got -1")), problems);
        assertEquals("train.yaml:12:5: resources.gpus: must be between 0 and 16, got -1", problems.get(0).toString());
    }

    @Test
    void allProblemsOfADocumentAreReportedInLineOrder() {
        List<Problem> problems = reader.validate(Path.of("src/test/resources/bad-input/many-problems.yaml"));

        assertEquals(10, problems.size());
        for (int i = 1; i < problems.size(); i++) {
            assertTrue(problems.get(i - 1).location().orElseThrow().line()
                    <= problems.get(i).location().orElseThrow().line());
        }
        assertEquals("src/test/resources/bad-input/many-problems.yaml",
                problems.get(0).location().orElseThrow().file());
    }

    @Test
    void readFailureMessageHasOneProblemPerLine() {
        GantryException e = assertThrows(GantryException.class, () -> reader.read("x.yaml",
                "apiVersion: gantry.dev/v1\nkind: Workload\nmetadata: {name: x}\nspec: {model: small, spot: sometimes}\n"));

        assertEquals(ErrorCode.SPEC_INVALID, e.code());
        assertEquals("x.yaml:4:1: phase: is required: training or inference\n"
                + "x.yaml:4:1: command: is required: the program and its arguments as a list, e.g. [python, train.py]\n"
                + "x.yaml:4:22: spot: must be one of never, allowed, preferred, got 'sometimes'", e.getMessage());
    }

    @Test
    void missingFileIsOneProblemNamingIt(@TempDir Path dir) {
        Path missing = dir.resolve("nope.yaml");

        List<Problem> problems = reader.validate(missing);

        assertEquals(1, problems.size());
        assertTrue(problems.get(0).message().contains(missing.toString()), problems.get(0).message());
        GantryException e = assertThrows(GantryException.class, () -> reader.read(missing));
        assertEquals(ErrorCode.SPEC_INVALID, e.code());
    }

    @Test
    void aliasesAreRejectedRatherThanReadAsTheirName() {
        List<Problem> problems = reader.validate("a.yaml", "apiVersion: gantry.dev/v1\nkind: Workload\n"
                + "metadata: {name: &n x}\nspec:\n  phase: inference\n  model: small\n  command: [*n]\n");

        assertEquals(List.of("a.yaml:7:13: command[0]: YAML aliases (*n) are not supported; write the value out"),
                problems.stream().map(Problem::toString).toList());
    }

    @Test
    void oneReaderServesManyThreads() throws Exception {
        List<Path> files;
        try (var stream = Files.list(Path.of("src/test/resources/bad-input"))) {
            files = stream.filter(p -> p.toString().endsWith(".yaml") && !p.getFileName().toString()
                    .startsWith("config-")).sorted().toList();
        }
        Map<Path, List<Problem>> sequential = new java.util.HashMap<>();
        for (Path file : files) {
            sequential.put(file, reader.validate(file));
        }
        var pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<List<Problem>>> futures = new java.util.ArrayList<>();
            for (int round = 0; round < 5; round++) {
                for (Path file : files) {
                    futures.add(pool.submit(() -> reader.validate(file)));
                }
            }
            for (int i = 0; i < futures.size(); i++) {
                assertEquals(sequential.get(files.get(i % files.size())), futures.get(i).get());
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
