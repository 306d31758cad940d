package dev.gantry.core.quota;

import dev.gantry.core.catalog.refresh.SizeOffer;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a subscription can start in one region, as read at one moment: the sizes it is offered (with their quota
 * family, vCPUs, restriction and allocatable zones) and its vCPU quotas with what is in use. Immutable.
 */
public final class RegionCapacity {
    private final String region;
    private final Map<String, Offered> offers;
    private final Map<String, QuotaUsage> usages;
    private final Instant usagesReadAt;

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
        Map<String, Offered> byName = new HashMap<>();
        for (SizeOffer offer : offers) {
            byName.put(offer.name().toLowerCase(Locale.ROOT), new Offered(offer,
                    this.usages.get(offer.quotaFamily().toLowerCase(Locale.ROOT)), QuotaShortfall.quotaVcpus(offer)));
        }
        this.offers = Map.copyOf(byName);
        this.usagesReadAt = Objects.requireNonNull(usagesReadAt, "usagesReadAt");
    }

    public String region() {
        return region;
    }

    /** When the usages were read. */
    public Instant usagesReadAt() {
        return usagesReadAt;
    }

    /** The size as offered here, by its name in lower case; empty when the subscription is not offered it here. */
    public Optional<SizeOffer> offer(String lowerCaseName) {
        Offered offered = offers.get(lowerCaseName);
        return offered == null ? Optional.empty() : Optional.of(offered.offer);
    }

    /** The quota of that name (any case), if the region reports it. */
    public Optional<QuotaUsage> usage(String quota) {
        return Optional.ofNullable(usages.get(quota.toLowerCase(Locale.ROOT)));
    }

    /** Every quota that {@code nodes} VMs of the offered size would exceed here (see {@link QuotaShortfall#of}). */
    public List<QuotaShortfall> shortfalls(SizeOffer offer, int nodes, boolean spot) {
        return QuotaShortfall.of(usages, offer, nodes, spot);
    }

    /**
     * Whether {@code nodes} VMs of the size (by its name in lower case, offered here) fit every quota they draw on:
     * the arithmetic of {@link QuotaShortfall#of} without making the shortfalls, since the advisor asks it for every
     * candidate row; a size not offered here fits nothing.
     */
    public boolean fits(String lowerCaseName, int nodes, boolean spot) {
        Offered offered = offers.get(lowerCaseName);
        if (offered == null) {
            return false;
        }
        long needed = (long) nodes * offered.vcpus;
        return spot ? fits(usages.get(SPOT_KEY), needed)
                : fits(offered.family, needed) && fits(usages.get(QuotaShortfall.REGIONAL), needed);
    }

    private static final String SPOT_KEY = QuotaShortfall.SPOT.toLowerCase(Locale.ROOT);

    private static boolean fits(QuotaUsage usage, long needed) {
        return usage == null || needed <= usage.free();
    }

    /** An offered size with its family's quota (null when the region reports none) and its quota vCPUs. */
    private record Offered(SizeOffer offer, QuotaUsage family, int vcpus) {
    }
}
