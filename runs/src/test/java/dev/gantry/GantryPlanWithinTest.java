package dev.gantry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Interconnect;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.Workload;
import dev.gantry.azure.fakes.ArmFake;
import dev.gantry.core.FakeBackend;
import dev.gantry.model.JobRecord;
import dev.gantry.model.WorkflowPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Gantry#planWithin}: the plans made without a subscription of their own (a run's, a workflow run's) keep to
 * the subscription's quota as {@code gantry plan} does, share what was read, and fall back with a warning when Azure
 * cannot be read. The ARM fake gives eastus 100 vCPUs of the ND A100 v4 family (two nodes need 192) and westus2 400.
 */
class GantryPlanWithinTest {
    @TempDir
    Path temp;
    ArmFake arm;
    FakeBackend.Provider provider = new FakeBackend.Provider("fake");
    List<String> notChecked = new ArrayList<>();

    @BeforeEach
    void subscription() throws Exception {
        arm = new ArmFake();
        arm.ndA100QuotaShortInEastus();
    }

    @AfterEach
    void stopArm() {
        arm.close();
    }

    private Gantry gantry() {
        return Gantry.builder().environment(Map.of()).workingDirectory(temp).home(temp).discoverBackends(false)
                .addBackendProvider(provider).override("backend", "fake").override("state.dir",
                        temp.resolve("state").toString()).build();
    }

    private static Workload training() {
        return Workload.builder("train").phase(Phase.TRAINING).model(ModelClass.GENERATIVE).command("python", "train.py")
                .resources(Resources.builder().gpus(8).nodes(2).interconnect(Interconnect.INFINIBAND).build())
                .regions(List.of("eastus", "westus2")).build();
    }

    @Test
    void aRunWhoseCheapestRegionHasNoQuotaIsSubmittedToTheNextAndTheRegionsAreReadOnce() {
        try (Gantry gantry = gantry()) {
            assertTrue(gantry.plan(training()).region().equals("eastus"), "without a subscription: the cheapest");
            gantry.planWithin(ArmFake.SUBSCRIPTION, arm::connector, (name, why) -> notChecked.add(name + ": " + why));
            Plan plan = gantry.plan(training());
            assertEquals("westus2", plan.region(), plan.reasons().toString());
            JobRecord job = gantry.run(training());
            assertEquals("westus2", provider.backend.submitted.get(0).region(), job.placement());
            assertTrue(job.placement().contains("westus2"), job.placement());
        }
        assertEquals(List.of(), notChecked, "quota and zones were checked");
        assertEquals(1, arm.requests("GET", "/locations/eastus/usages").size(), "one read for both plans");
    }

    @Test
    void theRunEnginesPlansOfAWorkflowKeepToTheSubscription() throws Exception {
        Path spec = Files.writeString(temp.resolve("flow.yaml"), """
                apiVersion: gantry.dev/v1
                kind: Workflow
                metadata: {name: flow}
                spec:
                  steps:
                    - name: pretrain
                      workload:
                        phase: training
                        model: generative
                        command: [python, train.py]
                        resources: {gpus: 8, nodes: 2, interconnect: infiniband}
                        regions: [eastus, westus2]
                """);
        try (Gantry gantry = gantry()) {
            gantry.planWithin(ArmFake.SUBSCRIPTION, arm::connector, (name, why) -> notChecked.add(name + ": " + why));
            WorkflowPlan plan = gantry.runs().start(spec).plan();
            assertEquals("westus2", plan.steps().get(0).plan().region(), plan.steps().get(0).plan().reasons()
                    .toString());
        }
        assertEquals(List.of(), notChecked);
    }

    @Test
    void whenAzureCannotBeReadThePlanIsAsBeforeAndTheListenerHearsWhy() {
        try (Gantry gantry = gantry()) {
            gantry.planWithin(ArmFake.SUBSCRIPTION, () -> {
                throw new GantryException(ErrorCode.AUTH_FAILED, "no Azure sign-in\nrun 'az login'");
            }, (name, why) -> notChecked.add(name + ": " + why));
            Plan plan = gantry.plan(training());
            assertEquals("eastus", plan.region());
            assertTrue(plan.reasons().stream().anyMatch(r -> r.rule().equals("Q1")
                    && r.text().startsWith("quota and zones not checked")), plan.reasons().toString());
        }
        assertEquals(List.of("train: no Azure sign-in"), notChecked, "the first line of why, once per plan");
        assertTrue(arm.requests().isEmpty());
    }

    @Test
    void aBlankSubscriptionIsAUsageErrorNamingIt() {
        try (Gantry gantry = gantry()) {
            GantryException e = assertThrows(GantryException.class, () -> gantry.planWithin(" ", arm::connector,
                    (name, why) -> { }));
            assertEquals(ErrorCode.USAGE, e.code());
            assertTrue(e.getMessage().startsWith("subscription: must be an Azure subscription id, got ' '"),
                    e.getMessage());
        }
    }
}
