package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.credential.AccessToken;
import dev.gantry.azure.fakes.ArmFake;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

/**
 * {@code gantry plan} with a subscription to ask (AZURE_SUBSCRIPTION_ID): the search keeps to what the ARM fake's
 * Resource SKUs and usages allow; without one, or when Azure refuses, the plan is as before and says it was not
 * checked.
 */
class PlanCapacityTest {
    @TempDir
    Path home;
    Path work;
    ArmFake arm;

    @BeforeEach
    void subscription() throws Exception {
        work = Files.createDirectories(home.resolve("work"));
        Files.writeString(work.resolve("train.yaml"), infinibandTraining("train", "  zones: {westus2: [2]}\n"));
        arm = new ArmFake();
        arm.ndA100QuotaShortInEastus();
    }

    @AfterEach
    void stopArm() {
        arm.close();
    }

    @Test
    void aRegionWithoutQuotaIsLostAndTheNextWinsInTheZoneAsked() {
        CliRun run = CliRun.run(home, work, arm.connector(), Map.of("AZURE_SUBSCRIPTION_ID", ArmFake.SUBSCRIPTION),
                "plan", "train.yaml");
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.startsWith("train: 2 x Standard_ND96asr_v4 in westus2, on-demand"), run.toString());
        assertTrue(run.out.contains("Q2  region eastus lost to quota: 2 × Standard_ND96asr_v4 (on-demand, "),
                run.toString());
        assertTrue(run.out.contains("request a quota increase of standardNDASv4_A100Family in eastus to at least 192"
                + " vCPUs (+92)"), run.toString());
        assertTrue(run.out.contains("\nzones         2\n"), "the zone asked in westus2, allocatable: " + run);
        assertEquals("", run.err, "no warning: quota and zones were checked");
        assertEquals(1, arm.requests("GET", "/locations/eastus/usages").size());
    }

    /** A workload that asks no zones, in the regions of {@code train.yaml}. */
    void trainAnywhere() throws IOException {
        Files.writeString(work.resolve("anywhere.yaml"), infinibandTraining("anywhere", ""));
    }

    /**
     * A two-node, 8-GPU InfiniBand training workload in eastus and westus2, the capacity tests' subject.
     *
     * @param name the workload's name
     * @param more further lines of its spec (each indented two spaces and ended by a newline), or none
     */
    static String infinibandTraining(String name, String more) {
        return "apiVersion: gantry.dev/v1\nkind: Workload\nmetadata: {name: " + name + "}\nspec:\n  phase: training\n"
                + "  model: generative\n  command: [python, train.py]\n"
                + "  resources: {gpus: 8, nodes: 2, interconnect: infiniband}\n  regions: [eastus, westus2]\n" + more;
    }

    @Test
    void theConfigurationsZonesAreAskedWhereTheWorkloadAsksNoneAndThePlanSaysSo() throws IOException {
        trainAnywhere();
        Files.writeString(work.resolve("gantry.yaml"), "defaults:\n  zones: {westus2: [1]}\n");
        CliRun run = CliRun.run(home, work, arm.connector(), Map.of("AZURE_SUBSCRIPTION_ID", ArmFake.SUBSCRIPTION),
                "plan", "anywhere.yaml");
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.startsWith("anywhere: 2 x Standard_ND96asr_v4 in westus2, on-demand"), run.toString());
        assertTrue(run.out.contains("\nzones         1\n"), "the configuration's zone: " + run);
        assertTrue(run.out.contains("the configuration's defaults.zones asks zone 1, so the plan uses zone 1"),
                run.toString());
    }

    @Test
    void theWorkloadsZonesWinOverTheConfigurationsForItsRegion() throws IOException {
        Files.writeString(work.resolve("gantry.yaml"), "defaults:\n  zones: {westus2: [1], eastus: [1]}\n");
        CliRun run = CliRun.run(home, work, arm.connector(), Map.of("AZURE_SUBSCRIPTION_ID", ArmFake.SUBSCRIPTION),
                "plan", "train.yaml");
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.startsWith("train: 2 x Standard_ND96asr_v4 in westus2, on-demand"), run.toString());
        assertTrue(run.out.contains("\nzones         2\n"), "spec.zones' zone 2, not the configuration's 1: " + run);
        assertTrue(run.out.contains("the workload asks zone 2, so the plan uses zone 2"), run.toString());
    }

    @Test
    void zonesTheConfigurationAsksThatNoRegionHasAreNamedInTheError() throws IOException {
        trainAnywhere();
        Files.writeString(work.resolve("gantry.yaml"), "defaults:\n  zones: {westus2: [3]}\n");
        CliRun run = CliRun.run(home, work, arm.connector(), Map.of("AZURE_SUBSCRIPTION_ID", ArmFake.SUBSCRIPTION),
                "plan", "anywhere.yaml");
        assertEquals(1, run.exitCode, run.toString());
        assertTrue(run.err.contains("not allocatable in the zones asked: Standard_ND96asr_v4 in westus2 (allocatable in"
                + " zones 1, 2; asked zone 3 by the configuration's defaults.zones)"), run.toString());
        assertTrue(run.err.contains("region eastus lost to quota"), run.toString());
    }

    @Test
    void withNoQuotaOrWhenAzureRefusesThePlanIsAsBeforeAndSaysSo() throws IOException {
        CliRun skipped = CliRun.run(home, work, arm.connector(), Map.of("AZURE_SUBSCRIPTION_ID",
                ArmFake.SUBSCRIPTION), "plan", "train.yaml", "--no-quota");
        assertEquals(0, skipped.exitCode, skipped.toString());
        assertTrue(skipped.out.contains("Q1  quota and zones not checked: no subscription to ask"), skipped.toString());
        assertTrue(skipped.out.startsWith("train: 2 x Standard_ND96asr_v4 in eastus, on-demand"), skipped.toString());
        assertTrue(skipped.out.contains("\nzones         - (regional placement)\n"), "eastus asks none: " + skipped);
        assertTrue(arm.requests().isEmpty(), "nothing read");

        CliRun refused = CliRun.run(home, work, arm.connector(request -> Mono.just(new AccessToken("wrong",
                OffsetDateTime.now().plusHours(1)))), Map.of("AZURE_SUBSCRIPTION_ID", ArmFake.SUBSCRIPTION),
                "plan", "train.yaml");
        assertEquals(0, refused.exitCode, refused.toString());
        assertTrue(refused.err.startsWith("gantry: warning: train: quota and zones not checked: "), refused.toString());
        assertTrue(refused.out.startsWith("train: 2 x Standard_ND96asr_v4 in eastus, on-demand"), refused.toString());
        assertFalse(refused.out.contains("Q2"), refused.toString());
    }

    /**
     * A job the local machine can run, on the one size the fake offers: eastus has 1 vCPU of its family left, so
     * {@code gantry run} submits what the plan chose in westus2, as {@code gantry plan} shows.
     */
    @Test
    void runSubmitsToTheRegionThePlanWithinTheSubscriptionChose() throws IOException {
        Files.writeString(work.resolve("hello.yaml"), "apiVersion: gantry.dev/v1\nkind: Workload\n"
                + "metadata: {name: hello}\nspec:\n  phase: training\n  model: small\n"
                + "  command: [sh, -c, 'echo hello']\n  regions: [eastus, westus2]\n");
        Map<String, String> caps = Map.of("vCPUs", "2", "MemoryGB", "16");
        arm.skus(ArmFake.sku("Standard_E2as_v5", "standardEASv5Family", "eastus", caps, null),
                ArmFake.sku("Standard_E2as_v5", "standardEASv5Family", "westus2", caps, null));
        arm.usages("eastus", "[" + ArmFake.usage("standardEASv5Family", "Standard EASv5 Family vCPUs", 9, 10) + "]");
        arm.usages("westus2", "[" + ArmFake.usage("standardEASv5Family", "Standard EASv5 Family vCPUs", 0, 10) + "]");

        CliRun run = CliRun.run(home, work, arm.connector(), Map.of("AZURE_SUBSCRIPTION_ID", ArmFake.SUBSCRIPTION),
                "run", "hello.yaml");
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.err.contains("(plan: 1 x Standard_E2as_v5 in westus2"), run.toString());
        assertTrue(run.out.startsWith("hello\n"), "it ran: " + run);
        assertEquals(1, arm.requests("GET", "/locations/eastus/usages").size(), run.toString());
    }

    @Test
    void runWithNoQuotaPlansAsBeforeAndReadsNothing() throws IOException {
        Files.writeString(work.resolve("hello.yaml"), "apiVersion: gantry.dev/v1\nkind: Workload\n"
                + "metadata: {name: hello}\nspec:\n  phase: training\n  model: small\n"
                + "  command: [sh, -c, 'echo hello']\n  regions: [eastus, westus2]\n");
        CliRun run = CliRun.run(home, work, arm.connector(), Map.of("AZURE_SUBSCRIPTION_ID", ArmFake.SUBSCRIPTION),
                "run", "hello.yaml", "--no-quota");
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.err.contains("(plan: 1 x Standard_E2as_v5 in eastus ("), "the cheapest: " + run);
        assertTrue(arm.requests().isEmpty(), "nothing read");
    }
}
