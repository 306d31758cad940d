package dev.gantry.azure.compute;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.credential.AccessToken;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.azure.fakes.ArmFake;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** Resource SKUs and usages through the real SDK against the local Resource Manager. */
class ResourceSkusClientTest {
    static ArmFake arm;

    static final Map<String, String> CAPS = Map.of("vCPUs", "24", "MemoryGB", "220", "GPUs", "1");

    @BeforeAll
    static void startArm() throws Exception {
        arm = new ArmFake();
        arm.skus(
                // Zones 1 and 2 closed to this subscription: the size is still usable in the region's zone 3.
                "{\"resourceType\":\"virtualMachines\",\"name\":\"Standard_NC24ads_A100_v4\",\"tier\":\"Standard\","
                        + "\"size\":\"NC24ads_A100_v4\",\"family\":\"StandardNCADSA100v4Family\","
                        + "\"locations\":[\"EastUS\"],\"locationInfo\":[{\"location\":\"EastUS\","
                        + "\"zones\":[\"1\",\"2\",\"3\"]}],\"capabilities\":[{\"name\":\"vCPUs\",\"value\":\"24\"},"
                        + "{\"name\":\"MemoryGB\",\"value\":\"220\"},{\"name\":\"GPUs\",\"value\":\"1\"}],"
                        + "\"restrictions\":[{\"type\":\"Zone\",\"values\":[\"EastUS\"],\"restrictionInfo\":"
                        + "{\"locations\":[\"EastUS\"],\"zones\":[\"1\",\"2\"]},\"reasonCode\":"
                        + "\"NotAvailableForSubscription\"}]}",
                // The subscription's offer type (a free trial, say) may not use this size anywhere.
                ArmFake.sku("Standard_ND96isr_H100_v5", "standardNDSH100v5Family", "eastus", CAPS, "QuotaId"),
                ArmFake.sku("Standard_D2s_v5", "standardDSv5Family", "westus", CAPS, null),
                "{\"resourceType\":\"disks\",\"name\":\"Premium_LRS\",\"tier\":\"Premium\",\"size\":\"P1\","
                        + "\"locations\":[\"eastus\"],\"capabilities\":[],\"restrictions\":[]}",
                "{\"resourceType\":\"availabilitySets\",\"name\":\"Aligned\",\"locations\":[\"eastus\"],"
                        + "\"capabilities\":[{\"name\":\"MaximumPlatformFaultDomainCount\",\"value\":\"3\"}]}");
        arm.usages("eastus",
                "[" + ArmFake.usage("cores", "Total Regional vCPUs", 40, 350) + "]",
                "[" + ArmFake.usage("lowPriorityCores", "Total Regional Low-priority vCPUs", 0, 100) + "]",
                "[" + ArmFake.usage("standardNDSH100v5Family", "Standard NDSH100v5 Family vCPUs", 96, 200) + "]");
    }

    @AfterAll
    static void stopArm() {
        arm.close();
    }

    @Test
    void readsVmSkusOfTheRegionWithLocationRestrictionsAndWithoutZoneRestrictionsOrOtherResourceTypes() {
        arm.throttle("/skus", 1, "1");
        List<SkuOffer> offers = ResourceSkusClient.of(arm.connector(), ArmFake.SUBSCRIPTION)
                .vmSkus(List.of("eastus"));

        assertEquals(1, arm.throttled("/skus"), "the 429 was retried after its Retry-After");
        assertEquals(List.of("Standard_NC24ads_A100_v4", "Standard_ND96isr_H100_v5"),
                offers.stream().map(SkuOffer::name).toList(), "westus, disks and availability sets left out");
        assertEquals(Optional.empty(), offers.get(0).restriction(), "a zone restriction leaves the region usable");
        assertEquals("eastus", offers.get(0).region());
        assertEquals(Optional.of("QuotaId"), offers.get(1).restriction());
        assertTrue(arm.requests("GET", "/skus").stream().allMatch(r -> "location eq 'eastus'".equals(
                r.query().get("$filter"))), "the client filters by region, and the fake applies it");
    }

    @Test
    void followsUsagePagesAndRetriesThrottledReads() {
        arm.throttle("/usages", 1, "1");
        Map<String, ComputeUsage> usages = ResourceSkusClient.of(arm.connector(), ArmFake.SUBSCRIPTION)
                .usages("eastus");

        assertEquals(1, arm.throttled("/usages"));
        assertEquals(Map.of("cores", new ComputeUsage("cores", "Total Regional vCPUs", 40, 350),
                "lowprioritycores", new ComputeUsage("lowPriorityCores", "Total Regional Low-priority vCPUs", 0, 100),
                "standardndsh100v5family", new ComputeUsage("standardNDSH100v5Family",
                        "Standard NDSH100v5 Family vCPUs", 96, 200)), usages, "three pages joined by nextLink");
        assertEquals(104, usages.get("standardndsh100v5family").free());
    }

    @Test
    void refusedCredentialsAreReportedAsAuthFailures() {
        ResourceSkusClient unauthenticated = ResourceSkusClient.of(arm.connector(request -> Mono.just(
                new AccessToken("wrong", OffsetDateTime.now().plusHours(1)))), ArmFake.SUBSCRIPTION);
        GantryException error = assertThrows(GantryException.class, () -> unauthenticated.usages("eastus"));
        assertEquals(ErrorCode.AUTH_FAILED, error.code());
        assertTrue(error.getMessage().contains("eastus"), error.getMessage());
    }
}
