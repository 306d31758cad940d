package dev.gantry.core.spec;

import dev.gantry.api.Budget;
import dev.gantry.model.SpecDocument;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.FabricCheck;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.Workload;
import dev.gantry.model.FailurePolicy;
import dev.gantry.model.RetryPolicy;
import dev.gantry.model.StepDefinition;
import dev.gantry.model.StepInstance;
import dev.gantry.model.WorkflowDefinition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkflowReaderTest {
    static final Path WORKFLOWS = Path.of("src/test/resources/workflow");
    final SpecReader reader = new SpecReader();

    static List<String> lines(List<Problem> problems) {
        return problems.stream().map(Problem::toString).toList();
    }

    @Test
    void readsAWorkflowWithInlineAndFileSteps() {
        WorkflowDefinition w = reader.readWorkflow(WORKFLOWS.resolve("train-and-serve.yaml"));

        assertEquals("train-and-serve", w.name());
        assertEquals(Map.of("team", "nlp"), w.labels());
        assertEquals(2, w.parallelism());
        assertEquals(List.of("prepare", "train", "evaluate", "report", "teardown"),
                w.steps().stream().map(StepDefinition::name).toList());

        StepDefinition prepare = w.step("prepare").orElseThrow();
        assertEquals("prepare", prepare.workload().name(), "an inline workload is named after its step");
        assertEquals(List.of("python", "prepare.py"), prepare.workload().command());
        assertEquals(Map.of("SPLIT", "0.9"), prepare.workload().env());
        assertEquals(RetryPolicy.NONE, prepare.retries());
        assertEquals(FailurePolicy.STOP, prepare.onFailure());
        assertEquals(Optional.empty(), prepare.timeout());
        assertEquals(List.of(new StepInstance("prepare", Map.of(), prepare.workload())), prepare.instances());

        StepDefinition train = w.step("train").orElseThrow();
        assertEquals("train", train.workload().name(), "the step's name replaces the file's metadata.name");
        assertEquals(OptionalInt.of(8), train.workload().resources().gpus());
        assertEquals(List.of("prepare"), train.dependsOn());
        assertEquals(new RetryPolicy(2, Duration.ofMinutes(1)), train.retries());
        assertEquals(FailurePolicy.cleanup("teardown"), train.onFailure());
        assertEquals(Optional.of(Duration.ofHours(6)), train.timeout());
        assertEquals(List.of("train-0-1-1", "train-0-1-2", "train-0-01-1", "train-0-01-2"),
                train.instances().stream().map(StepInstance::name).toList());
        StepInstance second = train.instances().get(1);
        assertEquals(Map.of("LR", "0.1", "SEED", "2"), second.parameters());
        assertEquals("train-0-1-2", second.workload().name());
        assertEquals(Map.of("EPOCHS", "3", "LR", "0.1", "SEED", "2"), second.workload().env());

        assertEquals(FailurePolicy.CONTINUE, w.step("evaluate").orElseThrow().onFailure());
        assertEquals(List.of("prepare", "train", "evaluate", "report", "teardown"),
                w.topologicalOrder().stream().map(StepDefinition::name).toList());
        assertEquals(List.of("train", "report"),
                w.dependentsOf("prepare").stream().map(StepDefinition::name).toList());
    }

    @Test
    void readAnyTellsTheKindsApart() {
        SpecDocument flow = reader.readAny(WORKFLOWS.resolve("train-and-serve.yaml"));
        // The files the steps name are part of what a run is made from (its provenance hashes them).
        assertEquals(List.of(WORKFLOWS.resolve("steps/train.yaml").toAbsolutePath().normalize()),
                assertInstanceOf(SpecDocument.WorkflowSpec.class, flow).referencedFiles());
        SpecDocument workload = reader.readAny(SpecReaderTest.SPECS.resolve("llama-finetune.yaml"));
        assertEquals("llama-finetune", assertInstanceOf(SpecDocument.WorkloadSpec.class, workload).workload().name());
        assertEquals(List.of(), reader.validate(WORKFLOWS.resolve("train-and-serve.yaml")));
    }

    @Test
    void readTakesOnlyWorkloadsAndReadWorkflowOnlyWorkflows() {
        GantryException e = assertThrows(GantryException.class,
                () -> reader.read(WORKFLOWS.resolve("train-and-serve.yaml")));
        assertEquals(ErrorCode.SPEC_INVALID, e.code());
        assertEquals(WORKFLOWS.resolve("train-and-serve.yaml") + ":2:1: kind: must be Workload here, got 'Workflow'; "
                + "this takes a single workload, not a workflow of steps", e.getMessage());

        GantryException f = assertThrows(GantryException.class,
                () -> reader.readWorkflow(SpecReaderTest.SPECS.resolve("minimal-inference.yaml")));
        assertEquals(List.of(SpecReaderTest.SPECS.resolve("minimal-inference.yaml") + ":3:1: kind: must be Workflow "
                + "here, got 'Workload'; wrap the workload in a workflow step, or run it on its own"),
                lines(f.problems()));
    }

    @Test
    void problemsOfAStepFileAreLocatedInThatFile() {
        String flow = WORKFLOWS.resolve("bad-file-reference.yaml").toString();
        String steps = WORKFLOWS.resolve("steps").toString();

        assertEquals(List.of(
                flow + ":8:7: steps[0].file: " + steps + "/bad-train.yaml is not a valid workload spec: 1 problem, "
                        + "reported with that file's name",
                flow + ":10:7: steps[1].file: cannot read workload spec " + steps + "/missing.yaml: no such file",
                flow + ":12:7: steps[2].file: " + WORKFLOWS.resolve("train-and-serve.yaml") + " is a Workflow; a step "
                        + "runs a Workload spec (workflows do not nest)",
                steps + "/bad-train.yaml:9:5: resources.gpus: must be between 0 and 16, got -1"),
                lines(reader.validate(WORKFLOWS.resolve("bad-file-reference.yaml"))));
    }

    @Test
    void stepFilesAreFoundRelativeToTheWorkflowsDirectory(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("flows/jobs"));
        Files.writeString(dir.resolve("flows/jobs/hello.yaml"), "apiVersion: gantry.dev/v1\nkind: Workload\n"
                + "metadata: {name: hello}\nspec: {phase: inference, model: small, command: [echo, hi]}\n");
        Files.writeString(dir.resolve("flows/flow.yaml"), "apiVersion: gantry.dev/v1\nkind: Workflow\n"
                + "metadata: {name: flow}\nspec:\n  steps:\n    - {name: hi, file: jobs/hello.yaml}\n");

        WorkflowDefinition w = reader.readWorkflow(dir.resolve("flows/flow.yaml"));

        assertEquals(List.of("echo", "hi"), w.step("hi").orElseThrow().workload().command());
        assertEquals(0, w.parallelism(), "no limit unless given");
    }

    private static final String HEAD = "apiVersion: gantry.dev/v1\nkind: Workflow\nmetadata: {name: f}\nspec:\n"
            + "  steps:\n";

    /** The workflow of a spec that has no problem. */
    private WorkflowDefinition readValid(String yaml) {
        assertEquals(List.of(), lines(reader.validate("f.yaml", yaml)));
        return assertInstanceOf(SpecDocument.WorkflowSpec.class, reader.readAny("f.yaml", yaml)).workflow();
    }

    @Test
    void aWorkflowHasATotalBudgetAndEachStepsWorkloadItsOwn() {
        String yaml = "apiVersion: gantry.dev/v1\nkind: Workflow\nmetadata: {name: f}\nspec:\n"
                + "  budget: {maxTotal: 500}\n  steps:\n"
                + "    - name: train\n"
                + "      workload: {phase: training, model: small, command: [x],"
                + " budget: {maxPerHour: 5, maxTotal: 20.5}}\n"
                + "    - name: eval\n      workload: {phase: inference, model: small, command: [y]}\n";
        WorkflowDefinition w = readValid(yaml);
        assertEquals(Optional.of(Budget.total(500)), w.budget());
        assertEquals(Optional.of(new Budget(5).withMaxTotal(20.5)), w.step("train").orElseThrow().workload().budget());
        assertEquals(Optional.empty(), w.step("eval").orElseThrow().workload().budget());
        assertEquals(Optional.empty(), reader.readWorkflow(WORKFLOWS.resolve("train-and-serve.yaml")).budget(),
                "no budget unless given");
    }

    @Test
    void everyMatrixInstanceKeepsItsStepsFabricCheck() {
        String yaml = HEAD + "    - name: sweep\n      matrix: {LR: [\"0.1\", \"0.2\"]}\n"
                + "      workload: {phase: training, model: small, command: [x], resources: {nodes: 2},"
                + " fabricCheck: {minBusBandwidthGBps: 5}}\n";
        WorkflowDefinition w = assertInstanceOf(SpecDocument.WorkflowSpec.class, reader.readAny("f.yaml", yaml))
                .workflow();
        assertEquals(java.util.Collections.nCopies(2, Optional.of(new FabricCheck(true, Optional.of(5.0), Optional.empty()))),
                w.step("sweep").orElseThrow().instances().stream().map(i -> i.workload().fabricCheck()).toList());
    }

    @Test
    void aStepPublishesOutputsThatADependentStepUsesInItsEnvironment() {
        String yaml = HEAD
                + "    - name: train\n      outputs: [MODEL_URI, SCORE]\n"
                + "      workload: {phase: training, model: small, command: [x]}\n"
                + "    - name: check\n      dependsOn: [train]\n"
                + "      workload: {phase: inference, model: small, command: [y]}\n"
                + "    - name: serve\n      dependsOn: [check]\n"
                + "      workload: {phase: inference, model: small, command: [z],"
                + " env: {MODEL: '${steps.train.outputs.MODEL_URI}', NOTE: 'score ${steps.train.outputs.SCORE}'}}\n";
        WorkflowDefinition w = readValid(yaml);
        assertEquals(List.of("MODEL_URI", "SCORE"), w.step("train").orElseThrow().outputs());
        assertEquals(List.of(), w.step("serve").orElseThrow().outputs());
    }

    @Test
    void anOutputUsedWithoutADependencyOrADeclarationOrInAMatrixIsLocated() {
        String yaml = HEAD
                + "    - name: train\n      outputs: [MODEL_URI, 9LIVES, MODEL_URI]\n"
                + "      workload: {phase: training, model: small, command: [x]}\n"
                + "    - name: sweep\n      matrix: {LR: [\"0.1\"]}\n      outputs: [BEST]\n"
                + "      workload: {phase: training, model: small, command: [x]}\n"
                + "    - name: serve\n"
                + "      workload: {phase: inference, model: small, command: [z],"
                + " env: {A: '${steps.train.outputs.MODEL_URI}', B: '${steps.trian.outputs.X}'}}\n"
                + "    - name: late\n      dependsOn: [train]\n"
                + "      workload: {phase: inference, model: small, command: [z],"
                + " env: {C: '${steps.train.outputs.WEIGHTS}', D: '${steps.train.output.X}'}}\n";
        assertEquals(List.of(
                "f.yaml:7:28: steps[0].outputs[1]: must be a name of letters, digits and '_', not starting with a "
                        + "digit, such as MODEL_URI, got '9LIVES'",
                "f.yaml:7:36: steps[0].outputs[2]: names output MODEL_URI twice; name each output once",
                "f.yaml:11:7: steps[1].outputs: a step with a matrix runs several jobs, so an output of it would have "
                        + "several values; publish outputs from a step without a matrix",
                "f.yaml:14:7: steps[2].workload: env A uses ${steps.train.outputs.MODEL_URI}, but step serve does not "
                        + "depend on train, so its output may not exist yet; add it to dependsOn",
                "f.yaml:14:7: steps[2].workload: env B uses ${steps.trian.outputs.X}, but there is no step trian; did "
                        + "you mean 'train'?",
                "f.yaml:17:7: steps[3].workload: uses '${steps.train.output.X}' in its env, which is not a step "
                        + "output; write ${steps.STEP.outputs.NAME}",
                "f.yaml:17:7: steps[3].workload: env C uses ${steps.train.outputs.WEIGHTS}, but step train declares "
                        + "outputs MODEL_URI; add WEIGHTS to its outputs"),
                lines(reader.validate("f.yaml", yaml)));
    }

    @Test
    void aSelfDependencyIsACycleAtItsEntry() {
        String yaml = "apiVersion: gantry.dev/v1\nkind: Workflow\nmetadata: {name: f}\nspec:\n  steps:\n"
                + "    - name: a\n      dependsOn: [a]\n"
                + "      workload: {phase: inference, model: small, command: [x]}\n";

        assertEquals(List.of("f.yaml:7:19: steps[0].dependsOn[0]: dependency cycle a -> a; a step cannot wait for "
                + "itself: remove one of these dependencies"), lines(reader.validate("f.yaml", yaml)));
    }

    @Test
    void aStepMayNotBeItsOwnCleanupAndStepsMustBeAList() {
        String own = "apiVersion: gantry.dev/v1\nkind: Workflow\nmetadata: {name: f}\nspec:\n  steps:\n"
                + "    - {name: a, onFailure: 'cleanup:a', workload: {phase: inference, model: small, command: [x]}}\n";
        assertEquals(List.of("f.yaml:6:17: steps[0].onFailure: a step cannot be its own cleanup step; name another "
                + "step or use stop"), lines(reader.validate("f.yaml", own)));

        String empty = "apiVersion: gantry.dev/v1\nkind: Workflow\nmetadata: {name: f}\nspec:\n  steps: []\n";
        assertEquals(List.of("f.yaml:5:3: steps: must be a non-empty list of steps, each a mapping with name and "
                + "workload or file, got a list"), lines(reader.validate("f.yaml", empty)));
    }

    @Test
    void workflowNamesAndLabelsFollowTheWorkloadRules() {
        String yaml = "apiVersion: gantry.dev/v1\nkind: Workflow\nmetadata:\n  name: Bad_Flow\nspec:\n  steps:\n"
                + "    - {name: a, workload: {phase: inference, model: small, command: [x]}}\n";

        assertEquals(List.of("f.yaml:4:3: metadata.name: must be 1-63 lower-case letters, digits or '-', starting and "
                + "ending with a letter or digit, got 'Bad_Flow'"), lines(reader.validate("f.yaml", yaml)));
    }

    @Test
    void theExampleWorkflowIsValid() {
        WorkflowDefinition w = reader.readWorkflow(Path.of("../examples/train-and-serve-workflow.yaml"));

        assertEquals(List.of("prepare", "finetune", "evaluate", "serve", "release"),
                w.topologicalOrder().stream().map(StepDefinition::name).toList());
        assertEquals(List.of("evaluate-mmlu", "evaluate-gsm8k"),
                w.step("evaluate").orElseThrow().instances().stream().map(StepInstance::name).toList());
        assertEquals("finetune", w.step("finetune").orElseThrow().workload().name());
    }

    @Test
    void workloadsStillReadAsBefore() {
        Workload w = reader.read(SpecReaderTest.SPECS.resolve("llama-finetune.yaml"));
        assertEquals("llama-finetune", w.name());
    }
}
