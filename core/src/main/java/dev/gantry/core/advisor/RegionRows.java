package dev.gantry.core.advisor;

import dev.gantry.core.catalog.refresh.SizeOffer;
import dev.gantry.core.quota.QuotaShortfall;
import dev.gantry.core.quota.QuotaUsage;
import dev.gantry.core.quota.RegionCapacity;
import java.util.List;
import java.util.Optional;

/**
 * One read region's capacity by the catalog's size ranks, so that the search checks a row with array reads: made once
 * per region read and catalog (kept with the {@link RegionCapacity}), not per plan. Planning with quotas already read
 * then costs a few array reads per row that passes every other constraint (docs/PERFORMANCE.md).
 */
final class RegionRows {
    /** Free vCPUs of a quota the region does not report: it is not enforced, so nothing exceeds it. */
    private static final long NOT_ENFORCED = Long.MAX_VALUE;
    private static final List<String> ZONE_NAMES = List.of("1", "2", "3");

    /** Per size rank: offered to the subscription here without a restriction. */
    private final boolean[] offered;
    /** Per size rank: the vCPUs one VM counts against quota. */
    private final int[] vcpus;
    /** Per size rank: the free vCPUs of its family's quota. */
    private final long[] familyFree;
    /** Per size rank: the zones 1-3 it can be allocated in, one bit each (bit 1 for zone 1). */
    private final byte[] zones;
    private final long regionalFree;
    private final long spotFree;

    RegionRows(CatalogIndex index, RegionCapacity region) {
        int sizes = index.sizeKeys.length;
        offered = new boolean[sizes];
        vcpus = new int[sizes];
        familyFree = new long[sizes];
        zones = new byte[sizes];
        for (int rank = 0; rank < sizes; rank++) {
            Optional<SizeOffer> offer = region.offer(index.sizeKeys[rank]);
            if (offer.isEmpty() || offer.get().restriction().isPresent()) {
                continue;
            }
            offered[rank] = true;
            vcpus[rank] = QuotaShortfall.quotaVcpus(offer.get());
            familyFree[rank] = free(region.usage(offer.get().quotaFamily()));
            zones[rank] = mask(offer.get().zones());
        }
        regionalFree = free(region.usage(QuotaShortfall.REGIONAL));
        spotFree = free(region.usage(QuotaShortfall.SPOT));
    }

    private static long free(Optional<QuotaUsage> usage) {
        return usage.map(QuotaUsage::free).orElse(NOT_ENFORCED);
    }

    /** Zones 1-3 as bits; other names are never asked (the workload allows only these), so they are left out. */
    static byte mask(List<String> names) {
        int mask = 0;
        for (String name : names) {
            int zone = ZONE_NAMES.indexOf(name);
            if (zone >= 0) {
                mask |= 1 << (zone + 1);
            }
        }
        return (byte) mask;
    }

    boolean offered(int rank) {
        return offered[rank];
    }

    /** Whether the size can be allocated in one of the zones of {@code asked} (a {@link #mask}). */
    boolean inZones(int rank, byte asked) {
        return (zones[rank] & asked) != 0;
    }

    /** Whether {@code nodes} VMs of an offered size fit the quotas they draw on (see {@link QuotaShortfall}). */
    boolean fits(int rank, int nodes, boolean spot) {
        long needed = (long) nodes * vcpus[rank];
        return spot ? needed <= spotFree : needed <= familyFree[rank] && needed <= regionalFree;
    }
}
