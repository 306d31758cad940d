package dev.gantry.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** From Java, every problem of a workload comes in one SPEC_INVALID with its full path; no null throws a bare NPE. */
class BuilderNullsTest {

    private static List<String> problems(Workload.Builder builder) {
        GantryException e = assertThrows(GantryException.class, builder::build);
        assertEquals(ErrorCode.SPEC_INVALID, e.code());
        return e.problems().stream().map(Problem::toString).toList();
    }

    @Test
    void theResourcesProblemsAndANullInTheCommandComeWithTheWorkloadsOwn() {
        Workload.Builder builder = Workload.builder("Bad Name").phase(Phase.TRAINING).model(ModelClass.SMALL)
                .command(Arrays.asList("python", "train.py", null)).regions(Arrays.asList("eastus", null))
                .resources(Resources.builder().gpus(99).nodes(0));
        assertEquals(List.of(
                "command[2]: must not be null",
                "regions[1]: must not be null",
                "resources.gpus: must be between 0 and 16, got 99",
                "resources.nodes: must be between 1 and 1000, got 0",
                "metadata.name: must be 1-63 lower-case letters, digits or '-', starting and ending with a letter or "
                        + "digit, got 'Bad Name'"), problems(builder));
    }

    @Test
    void nullsWhereValuesAreNeededAreProblemsNotNullPointerExceptions() {
        Map<String, String> env = new HashMap<>();
        env.put("TOKEN", null);
        Workload.Builder builder = Workload.builder("ok").command((String[]) null).resources((Resources) null)
                .env(env).label(null, "x").secret("KEY", null).optimize(null).labels(null).env(null).regions(null);
        List<String> found = problems(builder);
        assertEquals(List.of(
                "phase: is required: training or inference",
                "model: is required: generative, complex or small",
                "command: must not be null; give the program and its arguments",
                "resources: must not be null; leave it unset for the defaults",
                "env.TOKEN: an environment variable's name and value must not be null",
                "metadata.labels.null: a label's key and value must not be null",
                "secrets.KEY: a secret's name and reference must not be null",
                "optimize: must not be null; leave it unset for cost",
                "metadata.labels: must not be null; give an empty map for no labels",
                "env: must not be null; give an empty map for no variables",
                "regions: must not be null; give an empty list for any region",
                "command: must list the program and its arguments, got an empty list (for example [python, "
                        + "train.py])"), found);
    }

    @Test
    void nullsForOptionalPartsLeaveThemUnset() {
        Workload w = Workload.builder("ok").phase(Phase.INFERENCE).model(ModelClass.SMALL).command("serve")
                .container((String) null).spot(null).checkpoint(null).budget(null).workingDir(null).build();
        assertEquals(java.util.Optional.empty(), w.container());
        assertEquals(java.util.Optional.empty(), w.spot());
    }

    @Test
    void resourcesBuilderNullsAreProblems() {
        GantryException e = assertThrows(GantryException.class, () -> Resources.builder().gpuVendor(null)
                .interconnect(null).gpus(-1).build());
        assertEquals(List.of("gpuVendor: must not be null; leave it unset for any vendor",
                "interconnect: must not be null; leave it unset for any",
                "gpus: must be between 0 and 16, got -1"),
                e.problems().stream().map(Problem::toString).toList());
    }

    @Test
    void aPlanBuilderNamesEveryNullInOneException() {
        Workload w = Workload.builder("ok").phase(Phase.INFERENCE).model(ModelClass.SMALL).command("serve").build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Plan.builder(w, null)
                .region(null).reason(null, "x").reasons(null).alternatives(Arrays.asList((Alternative) null))
                .warning(null).image(null).boot(null).build());
        assertEquals("invalid plan: reasons[0]: a reason's rule and text must not be null; reasons: must not be null; "
                + "give an empty list for none; vmSize: must not be null; region: must not be null; image: must not "
                + "be null; boot: must not be null; alternatives[0]: must not be null; warnings[0]: must not be null",
                e.getMessage());
    }

    @Test
    void aCapabilitiesBuilderNamesEveryNullInOneException() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () ->
                dev.gantry.api.backend.Capabilities.builder().gpuVendors(java.util.Collections.singleton(null))
                        .evictions(null).build());
        assertEquals("invalid capabilities: gpuVendors: must not contain null; evictions: must not be null; leave it "
                + "unset for ENDS_PREEMPTED", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> dev.gantry.api.backend.Capabilities.builder()
                .gpuVendors(null).build());
    }
}
