package dev.gantry.azure.compute;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.azure.fakes.ArmFake;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The published example responses of {@code ResourceSkus_List} and {@code Usage_List} (test resources
 * {@code azure-rest/}, copied unchanged from the Azure REST API specs) served as they are and read through the SDK
 * and this module's parsers.
 */
class ExampleReplayTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    static ArmFake arm;

    @BeforeAll
    static void startArm() throws Exception {
        arm = new ArmFake();
    }

    @AfterAll
    static void stopArm() {
        arm.close();
    }

    static ResourceSkusClient client() {
        return ResourceSkusClient.of(arm.connector(), ArmFake.SUBSCRIPTION);
    }

    /** The example's 200 body, as text. */
    static JsonNode body(String example) throws IOException {
        try (InputStream in = ExampleReplayTest.class.getResourceAsStream("/azure-rest/compute/" + example)) {
            return JSON.readTree(in).path("responses").path("200").path("body");
        }
    }

    static SkuOffer a0 = new SkuOffer("Standard_A0", "standardA0_A7Family", "westus", OptionalInt.of(1),
            OptionalInt.of(1), OptionalDouble.of(0.75), OptionalInt.empty(), Set.of("V1"), Optional.of(false),
            Optional.empty(), Optional.empty(), List.of("1", "2"));
    static SkuOffer a1 = new SkuOffer("Standard_A1", "standardA0_A7Family", "westus", OptionalInt.of(1),
            OptionalInt.of(1), OptionalDouble.of(1.75), OptionalInt.empty(), Set.of("V1"), Optional.of(false),
            Optional.empty(), Optional.empty(), List.of("1", "2", "3"));

    /** The examples' zones are A0's "2", "1" and A1's "1", "2", "3": read in order, whatever order Azure lists. */
    @Test
    void theRegionsSkuListReadsAsItsTwoVmSizes() throws Exception {
        arm.replay("/providers/Microsoft.Compute/skus",
                body("skus/2021-07-01/examples/ListAvailableResourceSkusForARegion.json").toString());
        assertEquals(List.of(a0, a1), client().vmSkus(List.of("westus")));
    }

    @Test
    void theSubscriptionsSkuListKeepsOnlyTheAskedRegion() throws Exception {
        arm.replay("/providers/Microsoft.Compute/skus",
                body("skus/2021-07-01/examples/ListAvailableResourceSkus.json").toString());
        assertEquals(List.of(a0, a1), client().vmSkus(List.of("westus")));
        assertEquals(List.of(), client().vmSkus(List.of("eastus")), "the example's SKUs are all in westus");
    }

    /**
     * The published example with one restriction added at replay (in the shape the 2021-07-01 spec gives
     * {@code restrictions}): A1 closed in zone 3 for the subscription is allocatable in zones 1 and 2, and still
     * usable in the region.
     */
    @Test
    void aZoneRestrictionRemovesItsZonesOnly() throws Exception {
        ObjectNode body = (ObjectNode) body("skus/2021-07-01/examples/ListAvailableResourceSkusForARegion.json");
        ((ObjectNode) body.path("value").get(1)).set("restrictions", JSON.readTree("[{\"type\":\"Zone\","
                + "\"values\":[\"westus\"],\"restrictionInfo\":{\"locations\":[\"westus\"],\"zones\":[\"3\"]},"
                + "\"reasonCode\":\"NotAvailableForSubscription\"}]"));
        arm.replay("/providers/Microsoft.Compute/skus", body.toString());
        SkuOffer restricted = client().vmSkus(List.of("westus")).get(1);
        assertEquals(List.of("1", "2"), restricted.zones());
        assertEquals(Optional.empty(), restricted.restriction(), "a zone restriction leaves the region usable");
    }

    @Test
    void theMaximumUsageExampleReadsAsOneQuotaWithoutItsPlaceholderNextLink() throws Exception {
        ObjectNode body = (ObjectNode) body("usages/2025-11-01/examples/Usage_List_MaximumSet_Gen.json");
        assertEquals("a://example.com/aaaaaaaaaaaaaaaaaaaaaaaaaaa", body.path("nextLink").asText(),
                "the placeholder this test removes");
        body.remove("nextLink");
        arm.replay("/locations/westus/usages", body.toString());
        assertEquals(Map.of("aaaaaaaaaaaaaaaaaa", new ComputeUsage("aaaaaaaaaaaaaaaaaa", "aaaaaaaaaaaaaa", 17, 19)),
                client().usages("westus"));
    }

    @Test
    void theMinimumUsageExampleHasNoNamedQuota() throws Exception {
        arm.replay("/locations/centralus/usages",
                body("usages/2025-04-01/examples/Usage_List_MinimumSet_Gen.json").toString());
        assertEquals(Map.of(), client().usages("centralus"), "a usage without a name is no quota to check");
    }
}
