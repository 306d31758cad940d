package dev.gantry.core.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.gantry.core.catalog.refresh.SizeOffer;
import dev.gantry.core.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What one invocation reads of a subscription, and when it reads again. */
class SubscriptionCapacityTest {
    final List<Collection<String>> skuReads = new ArrayList<>();
    final List<String> usageReads = new ArrayList<>();
    final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T10:00:00Z"));

    SubscriptionCapacity capacity() {
        return new SubscriptionCapacity("sub", regions -> {
            skuReads.add(List.copyOf(regions));
            return List.of(QuotaCheckerTest.offer(QuotaCheckerTest.H100, "standardNDSH100v5Family", 96, 96, null));
        }, region -> {
            usageReads.add(region);
            return Map.of("cores", new QuotaUsage("cores", "Total Regional vCPUs", 40, 350),
                    "standardndsh100v5family", new QuotaUsage("standardNDSH100v5Family", "", 96, 200));
        }, clock);
    }

    @Test
    void sizesAreReadOncePerRegionAndUsagesAgainAfterAMinute() {
        SubscriptionCapacity capacity = capacity();
        RegionCapacity first = capacity.region("EastUS");
        clock.advance(SubscriptionCapacity.USAGES_KEPT.minusSeconds(1));
        assertSame(first, capacity.region("eastus"), "usages kept for " + SubscriptionCapacity.USAGES_KEPT);
        clock.advance(Duration.ofSeconds(1));
        RegionCapacity second = capacity.region("eastus");
        assertEquals(clock.instant(), second.usagesReadAt());
        assertEquals(List.of("eastus", "eastus"), usageReads, "read again once a minute old");
        assertEquals(List.of(List.of("eastus")), skuReads, "the sizes offered are read once");
        assertEquals(Duration.ofSeconds(60), SubscriptionCapacity.USAGES_KEPT);
    }

    @Test
    void aRegionFitsWhatItsFreeQuotasHold() {
        RegionCapacity region = capacity().region("eastus");
        String h100 = QuotaCheckerTest.H100.toLowerCase(java.util.Locale.ROOT);
        SizeOffer offer = region.offer(h100).orElseThrow();
        assertEquals(List.of(), region.shortfalls(offer, 1, false), "96 of 104 free family vCPUs, 96 of 310 regional");
        assertEquals(List.of(), region.shortfalls(offer, 100, true), "no Spot quota reported: not enforced");
        assertFalse(region.offer("standard_q1_v1").isPresent(), "a size not offered");
        assertEquals(List.of(new QuotaShortfall("eastus", "standardNDSH100v5Family", "", 200, 96, 192, 2,
                QuotaCheckerTest.H100, 96)), region.shortfalls(offer, 2, false));
        assertEquals("standardNDSH100v5Family: limit 200 vCPUs, 96 in use, needs 192 (2 × Standard_ND96isr_H100_v5 at"
                + " 96 vCPUs); request a quota increase of standardNDSH100v5Family in eastus to at least 288 vCPUs"
                + " (+88)", region.shortfalls(offer, 2, false).get(0).describe());
    }
}
