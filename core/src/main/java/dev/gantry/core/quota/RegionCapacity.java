package dev.gantry.core.quota;

import dev.gantry.core.catalog.refresh.SizeOffer;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What a subscription can start in one region, as read at one moment: the sizes it is offered (with their quota
 * family, vCPUs, restriction and allocatable zones) and its vCPU quotas with what is in use. Immutable, but for the
 * facts callers derive from it ({@link #derived}).
 */
public final class RegionCapacity {
    private final String region;
    private final Map<String, SizeOffer> offers;
    private final Map<String, QuotaUsage> usages;
    private final Instant usagesReadAt;
    private final Map<Object, Object> derived = new ConcurrentHashMap<>();

    /**
     * @param region the region
     * @param offers the sizes offered in the region (others are not offered to the subscription there)
     * @param usages the region's quotas by name in lower case, as a {@link QuotaSource} reports them
     * @param usagesReadAt when the usages were read
     */
    public RegionCapacity(String region, List<SizeOffer> offers, Map<String, QuotaUsage> usages,
                          Instant usagesReadAt) {
        this.region = Objects.requireNonNull(region, "region");
        this.usages = Map.copyOf(usages);
        Map<String, SizeOffer> byName = new HashMap<>();
        for (SizeOffer offer : offers) {
            byName.put(offer.name().toLowerCase(Locale.ROOT), offer);
        }
        this.offers = Map.copyOf(byName);
        this.usagesReadAt = Objects.requireNonNull(usagesReadAt, "usagesReadAt");
    }

    public String region() {
        return region;
    }

    /**
     * Facts a caller derives from this capacity, made once per key and kept with it, since the capacity does not
     * change: the advisor keeps its lookup by catalog row here, so that plans sharing a read region share it too.
     *
     * @param key whose facts: the same key gives the same value
     * @param make derives them, called at most once per key
     */
    @SuppressWarnings("unchecked")
    public <T> T derived(Object key, Function<RegionCapacity, T> make) {
        return (T) derived.computeIfAbsent(key, k -> make.apply(this));
    }

    /** When the usages were read. */
    public Instant usagesReadAt() {
        return usagesReadAt;
    }

    /** The size as offered here, by its name in lower case; empty when the subscription is not offered it here. */
    public Optional<SizeOffer> offer(String lowerCaseName) {
        return Optional.ofNullable(offers.get(lowerCaseName));
    }

    /** The quota of that name (any case), if the region reports it. */
    public Optional<QuotaUsage> usage(String quota) {
        return Optional.ofNullable(usages.get(quota.toLowerCase(Locale.ROOT)));
    }

    /** Every quota that {@code nodes} VMs of the offered size would exceed here (see {@link QuotaShortfall#of}). */
    public List<QuotaShortfall> shortfalls(SizeOffer offer, int nodes, boolean spot) {
        return QuotaShortfall.of(usages, offer, nodes, spot);
    }
}
