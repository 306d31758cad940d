package dev.gantry.core.advisor;

import dev.gantry.api.Workload;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.CatalogEntry;
import dev.gantry.core.catalog.refresh.SizeOffer;
import dev.gantry.core.quota.QuotaUsage;
import dev.gantry.core.quota.SubscriptionCapacity;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * A random subscription over a catalog's regions and sizes: some sizes not offered or restricted, zones restricted at
 * random, and quotas with usage at random (some not reported, so not enforced). {@link #allows} is Azure's rule
 * written here from its documentation, sharing no code with core's quota classes, for the brute force to compare with.
 */
final class FakeSubscription {
    private static final int[] REGIONAL_LIMITS = {0, 24, 100, 350, 1000, 5000};
    private static final int[] FAMILY_LIMITS = {0, 8, 48, 96, 192, 400, 1000};

    /** Per region, the sizes offered, by name in lower case. */
    private final Map<String, Map<String, SizeOffer>> offers;
    /** Per region, the quotas by name in lower case. */
    private final Map<String, Map<String, QuotaUsage>> usages;
    /** How often each region's usages were read since the last clear. */
    final Map<String, Integer> usageReads = new TreeMap<>();

    private FakeSubscription(Map<String, Map<String, SizeOffer>> offers, Map<String, Map<String, QuotaUsage>> usages) {
        this.offers = offers;
        this.usages = usages;
    }

    static FakeSubscription random(Random random, Catalog catalog) {
        Map<String, Map<String, SizeOffer>> offers = new HashMap<>();
        Map<String, Map<String, QuotaUsage>> usages = new HashMap<>();
        for (CatalogEntry entry : catalog.entries()) {
            Map<String, SizeOffer> region = offers.computeIfAbsent(entry.region(), r -> new HashMap<>());
            String key = entry.size().name().toLowerCase(Locale.ROOT);
            if (region.containsKey(key) || random.nextInt(100) < 5) {
                continue; // one offer per size and region; about 5% are not offered at all
            }
            List<String> zones = new ArrayList<>();
            for (String zone : List.of("1", "2", "3")) {
                if (random.nextInt(100) < 70) {
                    zones.add(zone);
                }
            }
            Optional<String> restriction = random.nextInt(100) < 5 ? Optional.of("NotAvailableForSubscription")
                    : Optional.empty();
            region.put(key, new SizeOffer(entry.size().name(), quotaFamily(entry), entry.region(),
                    OptionalInt.of(entry.size().vcpus()), OptionalInt.empty(), OptionalDouble.empty(),
                    OptionalInt.empty(), Set.of(), Optional.empty(), Optional.empty(), restriction, zones));
        }
        for (String region : catalog.regions()) {
            Map<String, QuotaUsage> quotas = new HashMap<>();
            maybe(random, quotas, "cores", REGIONAL_LIMITS);
            maybe(random, quotas, "lowPriorityCores", REGIONAL_LIMITS);
            for (SizeOffer offer : offers.getOrDefault(region, Map.of()).values()) {
                if (!quotas.containsKey(offer.quotaFamily().toLowerCase(Locale.ROOT))) {
                    maybe(random, quotas, offer.quotaFamily(), FAMILY_LIMITS);
                }
            }
            usages.put(region, quotas);
        }
        return new FakeSubscription(offers, usages);
    }

    /** About 85% of quotas are reported, with a limit from the list and up to all of it in use. */
    private static void maybe(Random random, Map<String, QuotaUsage> quotas, String name, int[] limits) {
        if (random.nextInt(100) < 85) {
            int limit = limits[random.nextInt(limits.length)];
            quotas.put(name.toLowerCase(Locale.ROOT), new QuotaUsage(name, name, random.nextInt(limit + 1), limit));
        } else {
            quotas.put(name.toLowerCase(Locale.ROOT), null); // marks the family as decided: not reported
        }
    }

    /** {@code standardNDv5Family} for {@code Standard_ND96isr_H100_v5}: the size family and its version. */
    private static String quotaFamily(CatalogEntry entry) {
        String name = entry.size().name();
        return "standard" + entry.size().family() + name.substring(name.lastIndexOf('_') + 1) + "Family";
    }

    /** The same sizes and zones, every quota unlimited. */
    FakeSubscription unlimited() {
        return new FakeSubscription(offers, Map.of());
    }

    /** A fresh capacity over this subscription, as one invocation would make it, with a clock that stands still. */
    SubscriptionCapacity capacity() {
        Clock clock = Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC);
        return new SubscriptionCapacity("00000000-0000-0000-0000-000000000000",
                regions -> regions.stream().flatMap(r -> offers.getOrDefault(r, Map.of()).values().stream()).toList(),
                region -> {
                    usageReads.merge(region, 1, Integer::sum);
                    Map<String, QuotaUsage> reported = new HashMap<>();
                    usages.getOrDefault(region, Map.of()).forEach((name, usage) -> {
                        if (usage != null) {
                            reported.put(name, usage);
                        }
                    });
                    return reported;
                }, clock);
    }

    /**
     * Whether {@code nodes} VMs of the row may start: the size offered unrestricted, allocatable in a zone asked in
     * its region, and, for Spot, nodes × vCPUs within the region's free Spot vCPUs, else within the family's and the
     * region's free vCPUs; a quota not reported does not limit.
     */
    boolean allows(Workload workload, CatalogEntry entry, int nodes, boolean spot) {
        SizeOffer offer = offers.getOrDefault(entry.region(), Map.of())
                .get(entry.size().name().toLowerCase(Locale.ROOT));
        if (offer == null || offer.restriction().isPresent()) {
            return false;
        }
        List<String> asked = workload.zones().get(entry.region());
        if (asked != null && offer.zones().stream().noneMatch(asked::contains)) {
            return false;
        }
        long needed = (long) nodes * entry.size().vcpus();
        Map<String, QuotaUsage> quotas = usages.getOrDefault(entry.region(), Map.of());
        if (spot) {
            return within(quotas.get("lowprioritycores"), needed);
        }
        return within(quotas.get(offer.quotaFamily().toLowerCase(Locale.ROOT)), needed)
                && within(quotas.get("cores"), needed);
    }

    private static boolean within(QuotaUsage usage, long needed) {
        return usage == null || usage.inUse() + needed <= usage.limit();
    }

    /** The zones a plan on the row may use: those offered, within those asked in its region. */
    List<String> zones(Workload workload, CatalogEntry entry) {
        SizeOffer offer = offers.get(entry.region()).get(entry.size().name().toLowerCase(Locale.ROOT));
        List<String> asked = workload.zones().get(entry.region());
        return offer.zones().stream().filter(zone -> asked == null || asked.contains(zone)).toList();
    }
}
