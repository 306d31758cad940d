package dev.gantry.core.advisor;

import dev.gantry.model.PlanOverrides;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.core.catalog.CatalogLoader;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One row per cell of the guidance's compute table (training/inference × generative/complex/small), planned with
 * nothing but the phase and model class over the embedded catalog: the hardware and family the guidance names.
 */
class GuidanceTableTest {
    @ParameterizedTest(name = "{0} {1}: {2} {3}")
    @CsvSource({
            // phase,    model,      hardware, families the guidance allows
            "TRAINING,  GENERATIVE, GPU, ND|NC",
            "TRAINING,  COMPLEX,    GPU, ND|NC",
            "TRAINING,  SMALL,      CPU, E|M",
            "INFERENCE, GENERATIVE, GPU, NC|ND",
            "INFERENCE, COMPLEX,    GPU, NC|ND",
            "INFERENCE, SMALL,      CPU, F",
    })
    void guidanceCell(Phase phase, ModelClass model, String hardware, String families) {
        Advisor advisor = new Advisor(CatalogLoader.embedded(), new FakeImages(), AdvisorSettings.defaults(),
                GoldenPlansTest.CLOCK);
        Plan plan = advisor.plan(AdvisorRulesTest.workload(phase, model).build(), PlanOverrides.none());
        assertEquals(hardware, plan.hardware());
        String family = plan.vmSize().family();
        assertTrue(List.of(families.split("\\|")).contains(family),
                plan.vmSize().name() + " is not in " + families);
        // One GPU per node by default; training with one GPU has no ND size, so it must say it fell back to NC.
        if (phase == Phase.TRAINING && hardware.equals("GPU")) {
            assertEquals("NC", family);
            assertTrue(plan.reasons().stream().anyMatch(r -> r.rule().equals("R2")
                    && r.text().startsWith("NC family with Ethernet-interconnected VMs (fallback)")));
            // With a count that ND sizes have, training gets the ND family the guidance names.
            Plan eight = advisor.plan(AdvisorRulesTest.workload(phase, model)
                    .resources(AdvisorRulesTest.resources().gpus(8).build()).build(), PlanOverrides.none());
            assertEquals("ND", eight.vmSize().family(), eight.vmSize().name());
        }
    }
}
