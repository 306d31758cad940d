package dev.gantry.core.advisor;

import dev.gantry.model.PlanJson;
import dev.gantry.model.PlanOverrides;
import static dev.gantry.core.advisor.TestCatalogs.NONE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Alternative;
import dev.gantry.api.Budget;
import dev.gantry.api.Checkpoint;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Interconnect;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Optimize;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Reason;
import dev.gantry.api.Resources;
import dev.gantry.api.RuntimeEstimate;
import dev.gantry.api.SpotPolicy;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.core.catalog.Catalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** One group of tests per sizing rule, over small synthetic catalogs whose right answers can be read off by hand. */
class AdvisorRulesTest {
    static final Checkpoint CHECKPOINT = new Checkpoint("/mnt/ckpt", Duration.ofMinutes(30));

    static Workload.Builder workload(Phase phase, ModelClass model) {
        return Workload.builder("w").phase(phase).model(model).command("python", "run.py");
    }

    static Resources.Builder resources() {
        return Resources.builder();
    }

    static Plan plan(Catalog catalog, Workload workload) {
        return plan(catalog, workload, AdvisorSettings.defaults(), PlanOverrides.none());
    }

    static Plan plan(Workload workload) {
        return plan(TestCatalogs.world(), workload);
    }

    static Plan plan(Catalog catalog, Workload workload, AdvisorSettings settings, PlanOverrides overrides) {
        return new Advisor(catalog, new FakeImages(), settings, GoldenPlansTest.CLOCK).plan(workload, overrides);
    }

    static GantryException failure(Catalog catalog, Workload workload) {
        return assertThrows(GantryException.class, () -> plan(catalog, workload));
    }

    static String reasons(Plan plan, String rule) {
        return plan.reasons().stream().filter(r -> r.rule().equals(rule)).map(Reason::text)
                .collect(Collectors.joining("\n"));
    }

    @Nested
    class R1HardwareClass {
        @Test
        void generativeAndComplexModelsUseGpus() {
            assertEquals("GPU", plan(workload(Phase.INFERENCE, ModelClass.GENERATIVE).build()).hardware());
            assertEquals("GPU", plan(workload(Phase.INFERENCE, ModelClass.COMPLEX).build()).hardware());
        }

        @Test
        void smallModelsUseCpus() {
            Plan plan = plan(workload(Phase.INFERENCE, ModelClass.SMALL).build());
            assertEquals("CPU", plan.hardware());
            assertFalse(reasons(plan, "R1").contains("departs"));
        }

        @Test
        void zeroGpusForcesCpuAndSaysItDepartsFromTheGuidance() {
            Plan plan = plan(workload(Phase.TRAINING, ModelClass.GENERATIVE).resources(resources().gpus(0).build())
                    .build());
            assertEquals("CPU", plan.hardware());
            assertEquals("Standard_E2as_v5", plan.vmSize().name());
            assertTrue(reasons(plan, "R1").contains("departs from the guidance"), reasons(plan, "R1"));
        }

        @Test
        void explicitGpusForceGpuForASmallModel() {
            Plan plan = plan(workload(Phase.INFERENCE, ModelClass.SMALL).resources(resources().gpus(1).build())
                    .build());
            assertEquals("Standard_NC4as_T4_v3", plan.vmSize().name());
            assertTrue(reasons(plan, "R1").contains("departs from the guidance"));
        }
    }

    @Nested
    class R2Families {
        @Test
        void trainingPrefersNdEvenWhenAnNcSizeIsCheaper() {
            VmSize nc8 = TestCatalogs.gpu("Standard_NC96ads_A100_v9", "NC", 96, 880, "A100-80GB", 8, true);
            Catalog catalog = TestCatalogs.builder()
                    .add(TestCatalogs.ND_A100_80, "eastus", 30, NONE)
                    .add(nc8, "eastus", 10, NONE)
                    .build();
            Plan plan = plan(catalog, workload(Phase.TRAINING, ModelClass.GENERATIVE)
                    .resources(resources().gpus(8).build()).build());
            assertEquals("Standard_ND96amsr_A100_v4", plan.vmSize().name());
            assertTrue(reasons(plan, "R2").contains("ND family"));
            Alternative nc = plan.alternatives().get(0);
            assertEquals("Standard_NC96ads_A100_v9", nc.vmSize());
            assertTrue(nc.lostBecause().contains("ND family is preferred"), nc.lostBecause());
        }

        @Test
        void trainingFallsBackToNcWithEthernetWhenNoNdFits() {
            Plan plan = plan(workload(Phase.TRAINING, ModelClass.COMPLEX).resources(resources().gpus(1).build())
                    .build());
            assertEquals("Standard_NC4as_T4_v3", plan.vmSize().name());
            assertTrue(reasons(plan, "R2").startsWith("NC family with Ethernet-interconnected VMs (fallback)"));
        }

        @Test
        void theNcFallbackIsNotAllowedWhenInfinibandIsAsked() {
            GantryException e = failure(TestCatalogs.world(), workload(Phase.TRAINING, ModelClass.COMPLEX)
                    .resources(resources().gpus(1).interconnect(Interconnect.INFINIBAND).build()).build());
            assertEquals(ErrorCode.NO_FEASIBLE_VM, e.code());
            assertTrue(e.getMessage().contains("allow interconnect ethernet: Standard_NC4as_T4_v3"), e.getMessage());
        }

        @Test
        void inferenceUsesNdWhenNoNcSizeHasTheCount() {
            Plan plan = plan(workload(Phase.INFERENCE, ModelClass.GENERATIVE).resources(resources().gpus(8).build())
                    .build());
            assertEquals("ND", plan.vmSize().family());
            assertTrue(reasons(plan, "R2").contains("NC and ND families"));
        }

        @Test
        void nvIsNeverChosenEvenWhenCheapest() {
            Plan plan = plan(workload(Phase.INFERENCE, ModelClass.GENERATIVE)
                    .resources(resources().gpus(1).gpuMemoryGib(24).build()).build());
            assertEquals("Standard_NC24ads_A100_v4", plan.vmSize().name());
            assertTrue(plan.alternatives().stream().noneMatch(a -> a.vmSize().startsWith("Standard_NV")));
        }
    }

    @Nested
    class R3GpuFit {
        @Test
        void gpuCountEqualsTheRequest() {
            Plan plan = plan(workload(Phase.INFERENCE, ModelClass.GENERATIVE).resources(resources().gpus(2).build())
                    .build());
            assertEquals("Standard_NC48ads_A100_v4", plan.vmSize().name());
            assertEquals(2, plan.gpusPerNode());
        }

        @Test
        void oneGpuByDefault() {
            Plan plan = plan(workload(Phase.INFERENCE, ModelClass.GENERATIVE).build());
            assertEquals(1, plan.gpusPerNode());
            assertTrue(reasons(plan, "R3").contains("default of 1 GPU"));
        }

        @Test
        void gpuMemoryIsAFloorPerGpu() {
            Plan plan = plan(workload(Phase.INFERENCE, ModelClass.GENERATIVE)
                    .resources(resources().gpus(1).gpuMemoryGib(40).build()).build());
            assertEquals("Standard_NC24ads_A100_v4", plan.vmSize().name());
            assertEquals("eastus", plan.region());
        }

        @Test
        void vendorMustMatch() {
            Plan amd = plan(workload(Phase.TRAINING, ModelClass.GENERATIVE)
                    .resources(resources().gpus(8).gpuVendor(GpuVendor.AMD).build()).build());
            assertEquals("Standard_ND96isr_MI300X_v5", amd.vmSize().name());
            Plan nvidia = plan(workload(Phase.TRAINING, ModelClass.GENERATIVE)
                    .resources(resources().gpus(8).gpuVendor(GpuVendor.NVIDIA).gpuMemoryGib(80).build()).build());
            assertEquals("Standard_ND96amsr_A100_v4", nvidia.vmSize().name());
        }
    }

    @Nested
    class R4Interconnect {
        @Test
        void multiNodeGpuTrainingNeedsRdma() {
            Plan plan = plan(workload(Phase.TRAINING, ModelClass.GENERATIVE)
                    .resources(resources().gpus(8).nodes(2).build()).build());
            assertEquals("Standard_ND96amsr_A100_v4", plan.vmSize().name());
            assertEquals(65.54, plan.pricePerHour().total(), 1e-9);
            assertTrue(reasons(plan, "R4").contains("RDMA"));
        }

        @Test
        void ethernetAllowsNonRdmaSizesForMultiNodeTraining() {
            Plan plan = plan(workload(Phase.TRAINING, ModelClass.GENERATIVE)
                    .resources(resources().gpus(8).nodes(2).interconnect(Interconnect.ETHERNET).build()).build());
            assertEquals("Standard_ND40s_v3", plan.vmSize().name());
            assertFalse(plan.vmSize().rdma());
        }

        @Test
        void infinibandAskedMeansRdmaForInferenceToo() {
            Plan plan = plan(workload(Phase.INFERENCE, ModelClass.GENERATIVE)
                    .resources(resources().gpus(8).interconnect(Interconnect.INFINIBAND).build()).build());
            assertTrue(plan.vmSize().rdma());
            assertEquals("Standard_ND96amsr_A100_v4", plan.vmSize().name());
        }

        @Test
        void inferenceAvoidsRdmaWhenANonRdmaSizeIsFeasible() {
            VmSize plain = TestCatalogs.gpu("Standard_ND96as_A100_v9", "ND", 96, 900, "A100-80GB", 8, false);
            Catalog catalog = TestCatalogs.builder()
                    .add(TestCatalogs.ND_A100_80, "eastus", 10, NONE)
                    .add(plain, "westus2", 20, NONE)
                    .build();
            Plan plan = plan(catalog, workload(Phase.INFERENCE, ModelClass.GENERATIVE)
                    .resources(resources().gpus(8).build()).build());
            assertEquals("Standard_ND96as_A100_v9", plan.vmSize().name());
            assertTrue(plan.alternatives().get(0).lostBecause().contains("non-RDMA sizes are preferred"));
            // Without the non-RDMA size in the allowed regions, the RDMA one is used and the plan says why.
            Plan onlyRdma = plan(catalog, workload(Phase.INFERENCE, ModelClass.GENERATIVE)
                    .resources(resources().gpus(8).build()).regions(List.of("eastus")).build());
            assertEquals("Standard_ND96amsr_A100_v4", onlyRdma.vmSize().name());
            assertTrue(reasons(onlyRdma, "R4").contains("no non-RDMA size is feasible"));
        }
    }

    @Nested
    class R5Cpu {
        @Test
        void smallTrainingUsesMemoryOptimizedSizesOnly() {
            // EC (confidential), Arm64, burstable and general-purpose D sizes are all cheaper and all excluded.
            Plan plan = plan(workload(Phase.TRAINING, ModelClass.SMALL).build());
            assertEquals("Standard_E2as_v5", plan.vmSize().name());
            assertTrue(reasons(plan, "R5").contains("memory-optimized"));
        }

        @Test
        void theMFamilyIsMemoryOptimizedToo() {
            Catalog catalog = TestCatalogs.builder().add(TestCatalogs.M8, "eastus", 2, NONE)
                    .add(TestCatalogs.EC2, "eastus", 0.05, NONE).build();
            assertEquals("Standard_M8ms", plan(catalog, workload(Phase.TRAINING, ModelClass.SMALL).build())
                    .vmSize().name());
        }

        @Test
        void smallInferenceUsesComputeOptimizedFNotFx() {
            assertEquals("Standard_F2s_v2", plan(workload(Phase.INFERENCE, ModelClass.SMALL).build()).vmSize().name());
            assertEquals("Standard_F4s_v2", plan(workload(Phase.INFERENCE, ModelClass.SMALL)
                    .resources(resources().vcpus(3).build()).build()).vmSize().name());
        }

        @Test
        void constrainedSizesCountTheirConstrainedVcpus() {
            // Standard_E32-16as_v5 is listed with 32 vCPUs but offers 16.
            Plan sixteen = plan(workload(Phase.TRAINING, ModelClass.SMALL).resources(resources().vcpus(16).build())
                    .build());
            assertEquals("Standard_E32-16as_v5", sixteen.vmSize().name());
            GantryException e = failure(TestCatalogs.world(), workload(Phase.TRAINING, ModelClass.SMALL)
                    .resources(resources().vcpus(17).build()).build());
            assertTrue(e.getMessage().contains("vCPUs (resources.vcpus >= 17)"), e.getMessage());
        }

        @Test
        void memoryIsAFloor() {
            Plan plan = plan(workload(Phase.TRAINING, ModelClass.SMALL).resources(resources().memoryGib(20).build())
                    .build());
            assertEquals("Standard_E4as_v5", plan.vmSize().name());
        }
    }

    @Nested
    class R6Capacity {
        @Test
        void neverUsesOnDemandPrices() {
            Plan plan = plan(workload(Phase.INFERENCE, ModelClass.SMALL).spot(SpotPolicy.NEVER).build());
            assertFalse(plan.spot());
            assertEquals(0.085, plan.pricePerHour().perNode(), 1e-12);
        }

        @Test
        void allowedUsesSpotForInference() {
            Plan plan = plan(workload(Phase.INFERENCE, ModelClass.SMALL).spot(SpotPolicy.ALLOWED).build());
            assertTrue(plan.spot());
            assertEquals(0.01, plan.pricePerHour().perNode(), 1e-12);
        }

        @Test
        void allowedTrainingWithoutCheckpointUsesOnDemandAndSaysWhy() {
            Plan plan = plan(workload(Phase.TRAINING, ModelClass.SMALL).spot(SpotPolicy.ALLOWED).build());
            assertFalse(plan.spot());
            assertTrue(reasons(plan, "R6").contains("without a checkpoint"), reasons(plan, "R6"));
        }

        @Test
        void allowedTrainingWithCheckpointUsesSpot() {
            Plan plan = plan(workload(Phase.TRAINING, ModelClass.SMALL).spot(SpotPolicy.ALLOWED)
                    .checkpoint(CHECKPOINT).build());
            assertTrue(plan.spot());
            assertEquals(0.02, plan.pricePerHour().perNode(), 1e-12);
        }

        @Test
        void preferredTrainingWithoutCheckpointIsAValidationErrorThatSaysWhy() {
            Workload noCheckpoint = workload(Phase.TRAINING, ModelClass.SMALL).build();
            GantryException e = assertThrows(GantryException.class, () -> plan(TestCatalogs.world(), noCheckpoint,
                    AdvisorSettings.defaults(), new PlanOverrides(List.of(), Optional.of(SpotPolicy.PREFERRED))));
            assertEquals(ErrorCode.SPEC_INVALID, e.code());
            assertEquals("spot", e.problems().get(0).path());
            assertTrue(e.getMessage().contains("loses all its work"), e.getMessage());
        }

        @Test
        void noSpotPriceFallsBackToOnDemandWithTheReason() {
            Plan plan = plan(workload(Phase.TRAINING, ModelClass.GENERATIVE).spot(SpotPolicy.PREFERRED)
                    .checkpoint(CHECKPOINT).resources(resources().gpus(8).gpuVendor(GpuVendor.AMD).build()).build());
            assertFalse(plan.spot());
            assertEquals(60, plan.pricePerHour().perNode(), 1e-12);
            assertTrue(reasons(plan, "R6").contains("no feasible candidate has a spot price"));
        }

        @Test
        void theConfigurationDefaultAppliesWhenTheWorkloadLeavesSpotAtNeverAndTheCommandLineWins() {
            AdvisorSettings allowed = new AdvisorSettings(List.of(), Optional.of(SpotPolicy.ALLOWED),
                    Optional.empty());
            Workload inference = workload(Phase.INFERENCE, ModelClass.SMALL).build();
            assertTrue(plan(TestCatalogs.world(), inference, allowed, PlanOverrides.none()).spot());
            assertFalse(plan(TestCatalogs.world(), inference, allowed,
                    new PlanOverrides(List.of(), Optional.of(SpotPolicy.NEVER))).spot());
        }
    }

    @Nested
    class R7RegionsAndBudget {
        @Test
        void workloadRegionsThenConfigurationThenCommandLine() {
            Workload anywhere = workload(Phase.INFERENCE, ModelClass.GENERATIVE).build();
            AdvisorSettings west = new AdvisorSettings(List.of("westus2"), Optional.empty(), Optional.empty());
            assertEquals("eastus", plan(anywhere).region());
            assertEquals("westus2", plan(TestCatalogs.world(), anywhere, west, PlanOverrides.none()).region());
            Workload east = anywhere.toBuilder().regions(List.of("eastus")).build();
            assertEquals("eastus", plan(TestCatalogs.world(), east, west, PlanOverrides.none()).region());
            assertEquals("westus2", plan(TestCatalogs.world(), east, west,
                    new PlanOverrides(List.of("westus2"), Optional.empty())).region());
        }

        @Test
        void budgetExcludesCandidatesAboveTheTotalPricePerHour() {
            Workload twoNodes = workload(Phase.TRAINING, ModelClass.GENERATIVE)
                    .resources(resources().gpus(8).nodes(2).gpuVendor(GpuVendor.NVIDIA).build()).build();
            assertEquals(65.54, plan(twoNodes).pricePerHour().total(), 1e-9);
            GantryException e = failure(TestCatalogs.world(), twoNodes.toBuilder().budget(new Budget(60)).build());
            assertTrue(e.getMessage().contains("budget (budget.maxPerHour = 60 USD/h) removed the last"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("raise the budget to 65.54 USD/h"), e.getMessage());
        }
    }

    @Nested
    class R8Objective {
        @Test
        void minimizesTheTotalPricePerHour() {
            Plan plan = plan(workload(Phase.TRAINING, ModelClass.GENERATIVE)
                    .resources(resources().gpus(8).interconnect(Interconnect.INFINIBAND).build()).build());
            assertEquals("Standard_ND96amsr_A100_v4", plan.vmSize().name());
            assertTrue(plan.estimatedCost().isEmpty());
        }

        @Test
        void withAnEstimateMinimizesTheCostToCompletionScaledByTflops() {
            Plan plan = plan(workload(Phase.TRAINING, ModelClass.GENERATIVE)
                    .resources(resources().gpus(8).interconnect(Interconnect.INFINIBAND).build())
                    .estimate(new RuntimeEstimate(100, "A100-80GB")).build());
            // MI300X: 60 × 100 × 312/1307 = 1432 < H100: 98.32 × 100 × 312/989 = 3102 < A100: 3277.
            assertEquals("Standard_ND96isr_MI300X_v5", plan.vmSize().name());
            assertEquals(100 * 312.0 / 1307, plan.estimatedHours().getAsDouble(), 1e-9);
            assertEquals(60 * 100 * 312.0 / 1307, plan.estimatedCost().getAsDouble(), 1e-9);
        }

        @Test
        void optimizeTimeMinimizesEstimatedHours() {
            Workload cost = workload(Phase.INFERENCE, ModelClass.GENERATIVE).resources(resources().gpus(1).build())
                    .estimate(new RuntimeEstimate(10, "A100-80GB")).build();
            // T4: 0.526 × 10 × 312/65 = 25.2 USD in 48 h; A100: 3.673 × 10 = 36.7 USD in 10 h.
            assertEquals("Standard_NC4as_T4_v3", plan(cost).vmSize().name());
            Plan time = plan(cost.toBuilder().optimize(Optimize.TIME).build());
            assertEquals("Standard_NC24ads_A100_v4", time.vmSize().name());
            assertEquals(10, time.estimatedHours().getAsDouble(), 1e-9);
        }

        @Test
        void tiesGoToTheNewerGpuThenSizeNameThenRegion() {
            VmSize a10 = TestCatalogs.gpu("Standard_NC9_A10_v9", "NC", 9, 50, "A10", 1, false);
            VmSize t4a = TestCatalogs.gpu("Standard_NC9a_T4_v9", "NC", 9, 50, "T4", 1, false);
            VmSize t4b = TestCatalogs.gpu("Standard_NC9b_T4_v9", "NC", 9, 50, "T4", 1, false);
            Catalog catalog = TestCatalogs.builder()
                    .add(t4a, "westus", 1, NONE).add(t4a, "eastus", 1, NONE)
                    .add(t4b, "centralus", 1, NONE)
                    .add(a10, "westus", 1, NONE)
                    .build();
            Workload inference = workload(Phase.INFERENCE, ModelClass.GENERATIVE).build();
            Plan plan = plan(catalog, inference);
            assertEquals("Standard_NC9_A10_v9", plan.vmSize().name());
            assertEquals(List.of("Standard_NC9a_T4_v9@eastus", "Standard_NC9b_T4_v9@centralus"),
                    plan.alternatives().stream().map(a -> a.vmSize() + "@" + a.region()).toList());
            assertTrue(plan.alternatives().get(0).lostBecause().contains("newer GPU"));
        }
    }

    @Nested
    class Validation {
        @Test
        void anUnknownReferenceGpuIsASpecErrorThatListsTheKnownOnes() {
            GantryException e = failure(TestCatalogs.world(), workload(Phase.TRAINING, ModelClass.GENERATIVE)
                    .estimate(new RuntimeEstimate(10, "TPUv5")).build());
            assertEquals(ErrorCode.SPEC_INVALID, e.code());
            assertEquals("estimate.gpu", e.problems().get(0).path());
            assertTrue(e.getMessage().contains("'TPUv5'") && e.getMessage().contains("A100-80GB"), e.getMessage());
        }

        @Test
        void optimizeTimeWithoutAnEstimateWarnsAndMinimizesPrice() {
            Plan plan = plan(workload(Phase.INFERENCE, ModelClass.GENERATIVE).optimize(Optimize.TIME).build());
            assertEquals("Standard_NC4as_T4_v3", plan.vmSize().name());
            assertTrue(plan.warnings().stream().anyMatch(w -> w.contains("optimize: time needs an estimate")));
        }

        @Test
        void gpuFieldsOnACpuPlanAreWarnedAboutNotSilentlyDropped() {
            Plan plan = plan(workload(Phase.INFERENCE, ModelClass.SMALL)
                    .resources(resources().gpuMemoryGib(16).build()).build());
            assertEquals("CPU", plan.hardware());
            assertTrue(plan.warnings().stream().anyMatch(w -> w.contains("gpuMemoryGib")), plan.warnings().toString());
        }
    }

    @Nested
    class R9OrderOfEvaluation {
        @Test
        void capacityComesBeforeFamilyPreference() {
            VmSize nc8 = TestCatalogs.gpu("Standard_NC96ads_A100_v9", "NC", 96, 880, "A100-80GB", 8, false);
            Catalog catalog = TestCatalogs.builder()
                    .add(TestCatalogs.ND_A100_80, "eastus", 30, NONE)
                    .add(nc8, "eastus", 40, 5)
                    .build();
            Plan plan = plan(catalog, workload(Phase.TRAINING, ModelClass.GENERATIVE).spot(SpotPolicy.ALLOWED)
                    .checkpoint(CHECKPOINT).resources(resources().gpus(8).build()).build());
            assertEquals("Standard_NC96ads_A100_v9", plan.vmSize().name());
            assertTrue(plan.spot());
            assertTrue(reasons(plan, "R9").startsWith("spot prices"));
        }

        @Test
        void preferencesComeBeforeTheObjective() {
            Plan plan = plan(workload(Phase.INFERENCE, ModelClass.GENERATIVE)
                    .resources(resources().gpus(8).gpuMemoryGib(80).build()).build());
            // Only RDMA sizes have 80 GiB GPUs here: the cheapest one, with the reason.
            assertEquals("Standard_ND96amsr_A100_v4", plan.vmSize().name());
            assertTrue(reasons(plan, "R9").contains("feasible"));
        }
    }

    @Nested
    class R10NoFeasibleVm {
        @Test
        void namesTheConstraintThatRemovedTheLastCandidatesAndTheNearestAlternatives() {
            Workload workload = workload(Phase.TRAINING, ModelClass.GENERATIVE)
                    .resources(resources().gpus(8).nodes(2).gpuMemoryGib(100).build())
                    .regions(List.of("westus2")).build();
            GantryException e = failure(TestCatalogs.world(), workload);
            assertEquals(ErrorCode.NO_FEASIBLE_VM, e.code());
            String message = e.getMessage();
            assertTrue(message.contains("GPU memory (resources.gpuMemoryGib >= 100) removed the last 1 candidate"),
                    message);
            assertTrue(message.contains("relax resources.gpuMemoryGib: Standard_ND96amsr_A100_v4 in westus2"),
                    message);
            assertTrue(message.contains("allow another region: Standard_ND96isr_MI300X_v5 in eastus"), message);
        }

        @Test
        void whenNoSingleRelaxationIsEnoughItSaysWhatRelaxingThemAllGives() {
            Workload workload = workload(Phase.TRAINING, ModelClass.GENERATIVE)
                    .resources(resources().gpus(8).gpuMemoryGib(100).gpuVendor(GpuVendor.NVIDIA).build())
                    .budget(new Budget(15)).build();
            GantryException e = failure(TestCatalogs.world(), workload);
            assertTrue(e.getMessage().contains("no single relaxation is enough; relaxing GPU memory, GPU vendor, "
                    + "regions, interconnect and budget together gives: Standard_ND40s_v3 in eastus"),
                    e.getMessage());
        }

        @Test
        void unknownRegionsAreNamed() {
            GantryException e = failure(TestCatalogs.world(), workload(Phase.INFERENCE, ModelClass.SMALL)
                    .regions(List.of("uksouth")).build());
            assertTrue(e.getMessage().contains("regions [uksouth]"), e.getMessage());
            assertTrue(e.getMessage().contains("allow another region: Standard_F2s_v2 in eastus"), e.getMessage());
        }
    }

    @Nested
    class CatalogExclusions {
        @Test
        void retiredSeriesAreNeverRecommendedEvenWhenCheapest() {
            // Standard_NC6s_v3 (NCv3, retired) costs 0.3; the T4 size 0.526.
            Plan plan = plan(workload(Phase.INFERENCE, ModelClass.GENERATIVE).build());
            assertEquals("Standard_NC4as_T4_v3", plan.vmSize().name());
            Catalog retiredOnly = TestCatalogs.builder().add(TestCatalogs.NC_RETIRED, "eastus", 0.3, 0.03).build();
            GantryException e = failure(retiredOnly, workload(Phase.INFERENCE, ModelClass.GENERATIVE).build());
            assertTrue(e.getMessage().contains("retired series"), e.getMessage());
            assertTrue(e.getMessage().contains("Standard_NC6s_v3, NCv3"), e.getMessage());
        }

        @Test
        void restrictedEntriesAreExcludedWithThatReason() {
            // Standard_NC24ads_A100_v4 costs 1.0 in westus3, where the subscription cannot use it.
            Plan plan = plan(workload(Phase.INFERENCE, ModelClass.GENERATIVE)
                    .resources(resources().gpus(1).gpuMemoryGib(40).build()).build());
            assertEquals("eastus", plan.region());
            GantryException e = failure(TestCatalogs.world(), workload(Phase.INFERENCE, ModelClass.GENERATIVE)
                    .resources(resources().gpus(1).gpuMemoryGib(40).build()).regions(List.of("westus3")).build());
            assertTrue(e.getMessage().contains("restricted 1"), e.getMessage());
            assertTrue(e.getMessage().contains("restricted: Standard_NC24ads_A100_v4 in westus3 "
                    + "(NotAvailableForSubscription)"), e.getMessage());
        }

        @Test
        void anUnknownPriceIsNeverCheapestAndThePlanSaysPriceUnknown() {
            Plan plan = plan(workload(Phase.INFERENCE, ModelClass.GENERATIVE)
                    .resources(resources().gpus(1).gpuMemoryGib(20).build()).build());
            assertEquals("Standard_NC24ads_A100_v4", plan.vmSize().name());
            assertTrue(reasons(plan, "R9").contains("price unknown: 1 row(s)"), reasons(plan, "R9"));
            assertTrue(reasons(plan, "R9").contains("Standard_NC8ads_A10_v4"));
        }
    }

    @Nested
    class CatalogAge {
        @Test
        void everyPlanSaysHowOldTheCatalogIs() {
            Plan plan = plan(workload(Phase.INFERENCE, ModelClass.SMALL).build());
            assertTrue(reasons(plan, "C1").contains("2026-11-01, 30 days old on 2026-12-01"), reasons(plan, "C1"));
            assertTrue(plan.warnings().isEmpty(), plan.warnings().toString());
        }

        @Test
        void aStaleCatalogIsAWarning() {
            Advisor advisor = new Advisor(TestCatalogs.world(), new FakeImages(), AdvisorSettings.defaults(),
                    java.time.Clock.fixed(java.time.Instant.parse("2027-06-01T00:00:00Z"), java.time.ZoneOffset.UTC));
            Plan plan = advisor.plan(workload(Phase.INFERENCE, ModelClass.SMALL).build(), PlanOverrides.none());
            assertTrue(plan.warnings().stream().anyMatch(w -> w.contains("212 days old")), plan.warnings().toString());
        }
    }

    @Nested
    class Alternatives {
        @Test
        void atMostFiveDistinctSizesEachWithWhyItLost() {
            Plan plan = plan(workload(Phase.TRAINING, ModelClass.SMALL).build());
            assertTrue(plan.alternatives().size() <= 5);
            assertEquals(plan.alternatives().size(), plan.alternatives().stream().map(Alternative::vmSize)
                    .distinct().count());
            assertTrue(plan.alternatives().stream().noneMatch(a -> a.vmSize().equals(plan.vmSize().name())));
            Alternative e4 = plan.alternatives().stream().filter(a -> a.vmSize().equals("Standard_E4as_v5"))
                    .findFirst().orElseThrow();
            assertEquals("costs 0.126 USD/h more (R8)", e4.lostBecause());
        }
    }

    @Test
    void oneAdvisorPlansFromSeveralThreadsAlike() throws Exception {
        Advisor advisor = new Advisor(TestCatalogs.world(), new FakeImages(), AdvisorSettings.defaults(),
                GoldenPlansTest.CLOCK);
        List<Workload> workloads = List.of(
                workload(Phase.TRAINING, ModelClass.GENERATIVE).resources(resources().gpus(8).nodes(2).build()).build(),
                workload(Phase.INFERENCE, ModelClass.GENERATIVE).build(),
                workload(Phase.TRAINING, ModelClass.SMALL).build());
        List<String> expected = workloads.stream()
                .map(w -> PlanJson.toJson(advisor.plan(w, PlanOverrides.none())).toString()).toList();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<String>> results = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                Workload w = workloads.get(i % workloads.size());
                results.add(pool.submit(() -> PlanJson.toJson(advisor.plan(w, PlanOverrides.none())).toString()));
            }
            for (int i = 0; i < results.size(); i++) {
                assertEquals(expected.get(i % workloads.size()), results.get(i).get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theImageComesFromTheImageChooser() {
        Plan rdma = plan(workload(Phase.TRAINING, ModelClass.GENERATIVE)
                .resources(resources().gpus(8).nodes(2).build()).build());
        assertEquals(FakeImages.HPC, rdma.image());
        assertTrue(reasons(rdma, "I1").contains("HPC image"));
    }
}
