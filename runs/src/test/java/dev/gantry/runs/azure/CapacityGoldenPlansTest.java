package dev.gantry.runs.azure;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.gantry.api.Checkpoint;
import dev.gantry.api.Interconnect;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.SpotPolicy;
import dev.gantry.api.Workload;
import dev.gantry.azure.fakes.ArmFake;
import dev.gantry.core.advisor.Advisor;
import dev.gantry.core.advisor.AdvisorSettings;
import dev.gantry.core.catalog.CatalogLoader;
import dev.gantry.core.quota.SubscriptionCapacity;
import dev.gantry.images.ImageCatalog;
import dev.gantry.model.PlanJson;
import dev.gantry.model.PlanOverrides;
import dev.gantry.testing.GoldenFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Golden plans for a quota-limited and a zone-restricted subscription: the Resource SKUs and Compute usages bodies
 * under {@code azure-rest/capacity} served by the ARM fake, read through the real SDK, the azure module's client and
 * {@link AzureSources}, and planned over the embedded catalog. After an intended change, rewrite them with
 * {@code -Dgantry.golden.update=true} and review the diff.
 */
class CapacityGoldenPlansTest {
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T08:00:00Z"), ZoneOffset.UTC);
    static final GoldenFiles GOLDEN = GoldenFiles.in("golden/capacity");
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    static final Advisor ADVISOR = new Advisor(CatalogLoader.embedded(), ImageCatalog.builtIn(),
            AdvisorSettings.defaults(), CLOCK);

    ArmFake arm;

    @BeforeEach
    void startArm() throws Exception {
        arm = new ArmFake();
        arm.replay("/locations/eastus/usages", body("usages-eastus.json"));
        arm.replay("/locations/westus2/usages", body("usages-westus2.json"));
    }

    @AfterEach
    void stopArm() {
        arm.close();
    }

    static String body(String file) throws IOException {
        try (InputStream in = CapacityGoldenPlansTest.class.getResourceAsStream("/azure-rest/capacity/" + file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    SubscriptionCapacity subscription(String skus) throws IOException {
        arm.replay("/providers/Microsoft.Compute/skus", body(skus));
        return AzureSources.capacity(arm.connector(), ArmFake.SUBSCRIPTION, CLOCK);
    }

    /** Two nodes of 8 GPUs over InfiniBand, in eastus or westus2. */
    static Workload.Builder training() {
        return Workload.builder("train").phase(Phase.TRAINING).model(ModelClass.GENERATIVE).command("python", "train.py")
                .resources(Resources.builder().gpus(8).nodes(2).interconnect(Interconnect.INFINIBAND).build())
                .regions(List.of("eastus", "westus2"));
    }

    void assertGolden(String name, Plan plan) throws IOException {
        GOLDEN.assertMatches(name + ".json", JSON.writeValueAsString(PlanJson.toJson(plan)) + "\n");
    }

    @Test
    void quotaLimitedOnDemand() throws IOException {
        SubscriptionCapacity subscription = subscription("skus.json");
        Plan plan = ADVISOR.plan(training().build(), PlanOverrides.none(), Optional.of(subscription));
        assertEquals("Standard_ND96asr_v4@westus2", plan.vmSize().name() + "@" + plan.region(),
                "eastus's NDASv4_A100 family holds 100 vCPUs, the plan needs 192: the same size in westus2 wins");
        assertEquals(List.of("1", "2", "3"), plan.zones());
        assertGolden("quota-limited-on-demand", plan);
        // The same invocation plans again: the usages read a moment ago are used, not read again.
        ADVISOR.plan(training().build(), PlanOverrides.none(), Optional.of(subscription));
        assertEquals(1, arm.requests("GET", "/locations/eastus/usages").size());
        assertEquals(1, arm.requests("GET", "/locations/westus2/usages").size());
    }

    @Test
    void quotaLimitedSpot() throws IOException {
        Workload spot = training().spot(SpotPolicy.PREFERRED)
                .checkpoint(new Checkpoint("/mnt/checkpoints", Duration.ofMinutes(30))).build();
        Plan plan = ADVISOR.plan(spot, PlanOverrides.none(), Optional.of(subscription("skus.json")));
        assertEquals("Standard_ND96asr_v4@westus2 spot", plan.vmSize().name() + "@" + plan.region()
                + (plan.spot() ? " spot" : " on-demand"), "eastus has 100 Spot vCPUs, westus2 500");
        assertGolden("quota-limited-spot", plan);
    }

    @Test
    void zoneRestricted() throws IOException {
        Workload zoned = training().regions(List.of("eastus")).zones("eastus", List.of("1", "2")).build();
        Plan plan = ADVISOR.plan(zoned, PlanOverrides.none(), Optional.of(subscription("skus-zone-restricted.json")));
        assertEquals("Standard_ND96amsr_A100_v4@eastus", plan.vmSize().name() + "@" + plan.region(),
                "ND96asr_v4 is closed in zones 1 and 2; ND96amsr_A100_v4 only in zone 1");
        assertEquals(List.of("2"), plan.zones());
        assertGolden("zone-restricted", plan);
    }
}
