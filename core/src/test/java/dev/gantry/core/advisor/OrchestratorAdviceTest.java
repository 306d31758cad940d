package dev.gantry.core.advisor;

import dev.gantry.model.PlanOverrides;
import static dev.gantry.core.advisor.AdvisorRulesTest.plan;
import static dev.gantry.core.advisor.AdvisorRulesTest.resources;
import static dev.gantry.core.advisor.AdvisorRulesTest.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Interconnect;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Orchestrator;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Scheduler;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The orchestrator advice, one test per line of the guidance. */
class OrchestratorAdviceTest {
    @Test
    void anOpenSourceSchedulerMeansCycleCloud() {
        AdvisorSettings slurm = new AdvisorSettings(List.of(), Optional.empty(), Optional.of(Scheduler.SLURM));
        Plan plan = plan(TestCatalogs.world(), workload(Phase.INFERENCE, ModelClass.SMALL).build(), slurm,
                PlanOverrides.none());
        assertEquals(Orchestrator.CYCLECLOUD, plan.orchestrator().recommended());
        assertTrue(plan.orchestrator().reason().contains("slurm"));
    }

    @Test
    void multiNodeRdmaTrainingMeansCycleCloud() {
        Plan plan = plan(workload(Phase.TRAINING, ModelClass.GENERATIVE)
                .resources(resources().gpus(8).nodes(2).build()).build());
        assertEquals(Orchestrator.CYCLECLOUD, plan.orchestrator().recommended());
    }

    @Test
    void inferenceMeansAks() {
        assertEquals(Orchestrator.AKS, plan(workload(Phase.INFERENCE, ModelClass.GENERATIVE).build())
                .orchestrator().recommended());
    }

    @Test
    void containerizedBatchWorkMeansBatch() {
        assertEquals(Orchestrator.BATCH, plan(workload(Phase.TRAINING, ModelClass.SMALL)
                .container("python:3.12-slim").build()).orchestrator().recommended());
    }

    @Test
    void oneNodeWithoutContainerMeansManualVms() {
        assertEquals(Orchestrator.MANUAL, plan(workload(Phase.TRAINING, ModelClass.SMALL).build())
                .orchestrator().recommended());
    }

    @Test
    void severalEthernetNodesWithoutContainerMeanBatch() {
        Plan plan = plan(workload(Phase.TRAINING, ModelClass.GENERATIVE)
                .resources(resources().gpus(8).nodes(2).interconnect(Interconnect.ETHERNET).build()).build());
        assertEquals(Orchestrator.BATCH, plan.orchestrator().recommended());
    }
}
