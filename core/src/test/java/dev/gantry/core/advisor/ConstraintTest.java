package dev.gantry.core.advisor;

import dev.gantry.model.PlanOverrides;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Budget;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Interconnect;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Resources;
import dev.gantry.api.RuntimeEstimate;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.core.catalog.Catalog;
import java.util.Optional;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each constraint's check (a row it rejects, one it admits), when it applies, and how it explains itself. */
class ConstraintTest {
    private static final Catalog WORLD = TestCatalogs.builder()
            .add(TestCatalogs.ND_A100_80, "eastus", 32.77, 3.6)
            .add(TestCatalogs.ND_MI300X, "eastus", 60, TestCatalogs.NONE)
            .add(TestCatalogs.ND_RETIRED, "eastus", 5, 0.5)
            .add(TestCatalogs.ND_V100, "eastus", 20, 2.0)
            .add(TestCatalogs.NC_A100_1, "eastus", 3.673, 0.444)
            .add(TestCatalogs.NC_A100_1, "westus3", 1.0, 0.1, "NotAvailableForSubscription")
            .add(TestCatalogs.NC_A100_2, "eastus", 7.346, 0.888)
            .add(TestCatalogs.NC_T4, "eastus", 0.526, 0.0627)
            .add(TestCatalogs.NC_T4, "westus2", 0.526, 0.0627)
            .add(TestCatalogs.E2, "eastus", 0.126, 0.02)
            .add(TestCatalogs.E4, "eastus", 0.252, 0.04)
            .add(TestCatalogs.E2_ARM, "eastus", 0.1, 0.01)
            .add(TestCatalogs.B2, "eastus", 0.08, 0.01)
            .build();
    private static final CatalogIndex INDEX = new CatalogIndex(WORLD);

    private static Workload.Builder gpu(Phase phase) {
        return Workload.builder("w").phase(phase).model(ModelClass.GENERATIVE).command("run");
    }

    private static Workload.Builder cpu() {
        return Workload.builder("w").phase(Phase.TRAINING).model(ModelClass.SMALL).command("run");
    }

    private static Requirements req(Workload workload) {
        return Requirements.resolve(workload, PlanOverrides.none(), AdvisorSettings.defaults(), INDEX, Optional.empty());
    }

    private static int row(VmSize size, String region) {
        for (int row = 0; row < INDEX.size(); row++) {
            if (INDEX.name(row).equals(size.name()) && INDEX.regionName(row).equals(region)) {
                return row;
            }
        }
        throw new AssertionError(size.name() + " in " + region + " is not in the test catalog");
    }

    private static boolean rejects(Constraint constraint, Requirements req, int row, Layout layout, boolean spot) {
        if (constraint instanceof Constraint.OfRow check) {
            return check.rejects(INDEX, row, spot);
        }
        return ((Constraint.OfCandidate) constraint).rejects(req, INDEX, row, layout, INDEX.price(row, spot));
    }

    static Stream<Arguments> cases() {
        Layout one = new Layout(1, 1);
        Layout eight = new Layout(8, 1);
        Layout twoNodes = new Layout(8, 2);
        Layout cpu = new Layout(0, 1);
        return Stream.of(
                Arguments.of(new Constraint.Family(), req(gpu(Phase.TRAINING).resources(Resources.builder().gpus(1)
                                .interconnect(Interconnect.INFINIBAND).build()).build()),
                        TestCatalogs.NC_A100_1, TestCatalogs.ND_A100_80, one, false,
                        "family (the NC fallback for training needs interconnect ethernet or any, got infiniband)"),
                Arguments.of(new Constraint.Retired(), req(gpu(Phase.TRAINING).build()), TestCatalogs.ND_RETIRED,
                        TestCatalogs.ND_A100_80, eight, false, "retired series (never recommended)"),
                Arguments.of(new Constraint.ExcludedKind(), req(cpu().build()), TestCatalogs.E2_ARM,
                        TestCatalogs.E2, cpu, false, "Arm64, burstable and basic sizes (excluded)"),
                Arguments.of(new Constraint.Price(), req(gpu(Phase.INFERENCE).build()), TestCatalogs.ND_MI300X,
                        TestCatalogs.ND_A100_80, eight, true, "price unknown (no spot price in the catalog)"),
                Arguments.of(new Constraint.Region(), req(gpu(Phase.INFERENCE).regions(List.of("westus2"))
                                .build()), TestCatalogs.NC_A100_1, TestCatalogs.NC_T4, one, false,
                        "regions [westus2] (from the workload)"),
                Arguments.of(new Constraint.GpuCount(), req(gpu(Phase.INFERENCE).resources(Resources.builder()
                                .gpus(2).build()).build()), TestCatalogs.NC_A100_1, TestCatalogs.NC_A100_2,
                        new Layout(2, 1), false, "GPU count (resources.gpus = 2 per node)"),
                Arguments.of(new Constraint.GpuMemory(), req(gpu(Phase.INFERENCE).resources(Resources.builder()
                                .gpuMemoryGib(40).build()).build()), TestCatalogs.NC_T4, TestCatalogs.NC_A100_1, one,
                        false, "GPU memory (resources.gpuMemoryGib >= 40)"),
                Arguments.of(new Constraint.GpuVendorMatch(), req(gpu(Phase.TRAINING).resources(Resources.builder()
                                .gpus(8).gpuVendor(GpuVendor.AMD).build()).build()), TestCatalogs.ND_A100_80,
                        TestCatalogs.ND_MI300X, eight, false, "GPU vendor (resources.gpuVendor = amd)"),
                Arguments.of(new Constraint.Vcpus(), req(cpu().resources(Resources.builder().vcpus(4).build())
                                .build()), TestCatalogs.E2, TestCatalogs.E4, cpu, false,
                        "vCPUs (resources.vcpus >= 4)"),
                Arguments.of(new Constraint.Memory(), req(cpu().resources(Resources.builder().memoryGib(20).build())
                                .build()), TestCatalogs.E2, TestCatalogs.E4, cpu, false,
                        "memory (resources.memoryGib >= 20)"),
                Arguments.of(new Constraint.RdmaInterconnect(), req(gpu(Phase.TRAINING).resources(Resources.builder()
                                .gpus(8).nodes(2).build()).build()), TestCatalogs.ND_V100, TestCatalogs.ND_A100_80,
                        twoNodes, false, "interconnect (multi-node GPU training needs RDMA-capable sizes unless "
                                + "interconnect is ethernet)"),
                Arguments.of(new Constraint.Budget(), req(gpu(Phase.INFERENCE).budget(new Budget(1)).build()),
                        TestCatalogs.NC_A100_1, TestCatalogs.NC_T4, one, false,
                        "budget (budget.maxPerHour = 1 USD/h)"),
                // 10 h on an A100: 10 h x 3.673 USD/h = $36.73 on the A100 size, 48 h x 0.526 = $25.25 on the T4.
                Arguments.of(new Constraint.TotalBudget(), req(gpu(Phase.INFERENCE).budget(Budget.total(30))
                                .estimate(new RuntimeEstimate(10, "A100-80GB")).build()),
                        TestCatalogs.NC_A100_1, TestCatalogs.NC_T4, one, false,
                        "budget to completion (budget.maxTotal = $30 for the estimated hours on each size)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void rejectsOneRowAdmitsAnotherAndSaysWhatWasAsked(Constraint constraint, Requirements req, VmSize rejected,
                                                       VmSize admitted, Layout layout, boolean spot, String text) {
        assertTrue(rejects(constraint, req, row(rejected, "eastus"), layout, spot), rejected.name());
        assertFalse(rejects(constraint, req, row(admitted, admitted == TestCatalogs.NC_T4
                && constraint instanceof Constraint.Region ? "westus2" : "eastus"), layout, spot), admitted.name());
        assertTrue(constraint.appliesTo(req));
        assertEquals(text, constraint.describe(req, spot));
    }

    @Test
    void restrictedRowsAreRejectedWhereverTheSubscriptionIsNotOfferedThem() {
        Constraint.OfRow restricted = new Constraint.Restricted();
        assertTrue(restricted.rejects(INDEX, row(TestCatalogs.NC_A100_1, "westus3"), false));
        assertFalse(restricted.rejects(INDEX, row(TestCatalogs.NC_A100_1, "eastus"), false));
        assertEquals("restriction (the size is not offered to the subscription in the region)",
                restricted.describe(req(cpu().build()), false));
    }

    @Test
    void oneNodeNeedsNoRdmaUnlessInfinibandIsAsked() {
        Constraint.OfCandidate rdma = new Constraint.RdmaInterconnect();
        int v100 = row(TestCatalogs.ND_V100, "eastus");
        Requirements training = req(gpu(Phase.TRAINING).resources(Resources.builder().gpus(8).build()).build());
        assertFalse(rdma.rejects(training, INDEX, v100, new Layout(8, 1), 20));
        Requirements infiniband = req(gpu(Phase.INFERENCE).resources(Resources.builder().gpus(8)
                .interconnect(Interconnect.INFINIBAND).build()).build());
        assertTrue(rdma.rejects(infiniband, INDEX, v100, new Layout(8, 1), 20));
        assertEquals("interconnect (infiniband asks for RDMA-capable sizes)", rdma.describe(infiniband, false));
    }

    @Test
    void throughputIsNeededOnlyWithAnEstimateOnGpus() {
        Constraint throughput = new Constraint.Throughput();
        assertTrue(throughput.appliesTo(req(gpu(Phase.TRAINING).estimate(new RuntimeEstimate(5, "T4")).build())));
        assertFalse(throughput.appliesTo(req(gpu(Phase.TRAINING).build())));
        assertFalse(throughput.appliesTo(req(cpu().estimate(new RuntimeEstimate(5, "T4")).build())));
    }

    @Test
    void constraintsThatCannotRejectAnythingDoNotApply() {
        Requirements plain = req(cpu().build());
        assertFalse(new Constraint.Family().appliesTo(plain));
        assertFalse(new Constraint.Region().appliesTo(plain), "no regions named: every region");
        assertFalse(new Constraint.Memory().appliesTo(plain), "no memory floor");
        assertFalse(new Constraint.RdmaInterconnect().appliesTo(plain), "CPU with interconnect any");
        assertFalse(new Constraint.Budget().appliesTo(plain));
        assertFalse(new Constraint.TotalBudget().appliesTo(plain));
        assertFalse(new Constraint.TotalBudget().appliesTo(req(gpu(Phase.INFERENCE).budget(Budget.total(30)).build())),
                "without an estimate there is no cost to completion");
        assertFalse(new Constraint.GpuCount().appliesTo(plain));
        assertFalse(new Constraint.Offered().appliesTo(plain), "no subscription to ask");
        assertFalse(new Constraint.Zones().appliesTo(plain), "no subscription to ask");
        assertFalse(new Constraint.Quota().appliesTo(plain), "no subscription to ask");
    }

    @Test
    void everyConstraintHasItsOwnLabelInEvaluationOrder() {
        assertEquals(List.of("family", "retired", "restricted", "Arm64/burstable/basic", "price unknown", "region",
                        "GPU count", "GPU memory", "GPU vendor", "vCPUs", "memory", "interconnect",
                        "throughput unknown", "budget", "budget to completion", "not offered", "zones", "quota"),
                Constraint.ALL.stream().map(Constraint::label).toList());
    }
}
