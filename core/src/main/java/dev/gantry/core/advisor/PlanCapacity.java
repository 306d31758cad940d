package dev.gantry.core.advisor;

import dev.gantry.core.catalog.refresh.SizeOffer;
import dev.gantry.core.quota.QuotaShortfall;
import dev.gantry.core.quota.RegionCapacity;
import dev.gantry.core.quota.SubscriptionCapacity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The subscription's capacity and the workload's zones as one plan sees them: what the {@link Constraint.Offered},
 * {@link Constraint.Zones} and {@link Constraint.Quota} constraints check. A region is asked of the
 * {@link SubscriptionCapacity} the first time a row of it reaches a check and kept for the rest of the plan, so that a
 * plan reads each region at most once and only the regions of rows that pass every other constraint. One per plan,
 * used by one thread.
 *
 * <p>Without a subscription to ask, the zones are those the catalog records (a refresh with a subscription records
 * them, {@link CatalogIndex#catalogZones}): what was read live wins whenever there is a subscription, and the quota is
 * checked only live, since usages change by the minute.
 */
final class PlanCapacity {
    private final CatalogIndex index;
    private final Optional<SubscriptionCapacity> subscription;
    /** Per region id, the zones the workload allows there; null where it allows any. */
    private final List<String>[] asked;
    private final boolean anyAsked;
    /** Per region id, the zones asked as a {@link RegionRows#mask}; 0 where any zone is allowed. */
    private final byte[] askedMask;
    private final RegionCapacity[] read;
    private final RegionRows[] rows;
    private int regionsRead;

    @SuppressWarnings("unchecked")
    private PlanCapacity(CatalogIndex index, Optional<SubscriptionCapacity> subscription,
                         Map<String, List<String>> zones) {
        this.index = index;
        this.subscription = subscription;
        this.asked = new List[index.regionNames.length];
        this.askedMask = new byte[index.regionNames.length];
        zones.forEach((region, names) -> {
            Integer id = index.regionIds.get(region);
            if (id != null) {
                asked[id] = List.copyOf(names);
                askedMask[id] = RegionRows.mask(names);
            }
        });
        this.anyAsked = !zones.isEmpty();
        this.read = new RegionCapacity[index.regionNames.length];
        this.rows = new RegionRows[index.regionNames.length];
    }

    /** For a plan with a subscription to ask, or without one (nothing is checked), and the zones asked per region. */
    static PlanCapacity of(CatalogIndex index, Optional<SubscriptionCapacity> subscription,
                           Map<String, List<String>> zones) {
        return new PlanCapacity(index, subscription, zones);
    }

    /** Whether a subscription is asked: without one, quota is not checked, and zones only as the catalog records. */
    boolean checked() {
        return subscription.isPresent();
    }

    /** Whether the zones come from the catalog: no subscription is asked, and the catalog records zones. */
    boolean zonesFromCatalog() {
        return subscription.isEmpty() && index.recordsZones;
    }

    /** Whether the zones are checked, live or from the catalog. */
    boolean zonesChecked() {
        return subscription.isPresent() || index.recordsZones;
    }

    /** The zones the catalog records for the row; empty where it records none. */
    Optional<List<String>> catalogZones(int row) {
        return Optional.ofNullable(index.catalogZones[row]);
    }

    Optional<SubscriptionCapacity> subscription() {
        return subscription;
    }

    /** Whether the workload asks for zones in any region. */
    boolean zonesAsked() {
        return anyAsked;
    }

    /** The zones asked in the row's region, empty when any is allowed. */
    Optional<List<String>> asked(int row) {
        return Optional.ofNullable(asked[index.region[row]]);
    }

    /** How many regions the plan has read so far. */
    int regionsRead() {
        return regionsRead;
    }

    /** The row's size as the subscription is offered it in the row's region, unrestricted; empty when it is not. */
    Optional<SizeOffer> offer(int row) {
        return region(row).offer(index.sizeKeys[index.sizeRank[row]]).filter(offer -> offer.restriction().isEmpty());
    }

    /** Whether the subscription is offered the row's size in its region without a restriction (checked only). */
    boolean offered(int row) {
        return rows(row).offered(index.sizeRank[row]);
    }

    /**
     * Whether the size can be allocated in a zone the workload asks in the row's region: as read live with a
     * subscription, else as the catalog records (a row that records none is not checked).
     */
    boolean zonesAllow(int row) {
        int id = index.region[row];
        if (asked[id] == null) {
            return true;
        }
        if (!checked()) {
            return catalogZonesAllow(row, id);
        }
        return rows(row).offered(index.sizeRank[row]) && rows(row).inZones(index.sizeRank[row], askedMask[id]);
    }

    private boolean catalogZonesAllow(int row, int region) {
        return asked[region] == null || index.catalogZones[row] == null
                || (index.catalogZoneMask[row] & askedMask[region]) != 0;
    }

    /** Whether {@code nodes} VMs of the row's size fit the region's quotas on the capacity type (checked only). */
    boolean quotaFits(int row, int nodes, boolean spot) {
        RegionRows region = rows(row);
        int rank = index.sizeRank[row];
        return region.offered(rank) && region.fits(rank, nodes, spot);
    }

    /**
     * The subscription's checks of the row at once, in {@link Constraint#ALL}'s order, with one lookup of its region:
     * 0 when the size is not offered, then (when zones are asked) 1 when it is not allocatable in them, then the next
     * when the quotas cannot hold {@code nodes} VMs; -1 when it passes all. The search calls this rather than each
     * constraint, since it runs for every row that passes the others (docs/PERFORMANCE.md).
     */
    int firstFailure(int row, int nodes, boolean spot) {
        if (!checked()) {
            // Only the zones apply, from the catalog: the search asks only when they do (Constraint.Zones).
            return catalogZonesAllow(row, index.region[row]) ? -1 : 0;
        }
        RegionRows region = rows(row);
        int rank = index.sizeRank[row];
        if (!region.offered(rank)) {
            return 0;
        }
        if (!anyAsked) {
            return region.fits(rank, nodes, spot) ? -1 : 1;
        }
        int id = index.region[row];
        if (asked[id] != null && !region.inZones(rank, askedMask[id])) {
            return 1;
        }
        return region.fits(rank, nodes, spot) ? -1 : 2;
    }

    /** The quotas {@code nodes} VMs of the row would exceed (checked only; empty when they fit). */
    List<QuotaShortfall> shortfalls(int row, int nodes, boolean spot) {
        RegionCapacity region = region(row);
        return offer(row).map(offer -> region.shortfalls(offer, nodes, spot)).orElse(List.of());
    }

    /**
     * Where the subscription can allocate the row's size in its region, in order: as read live (checked), else as the
     * catalog records; none when neither says.
     */
    List<String> allocatable(int row) {
        if (!checked()) {
            return catalogZones(row).orElse(List.of());
        }
        return offer(row).map(SizeOffer::zones).orElse(List.of());
    }

    /**
     * The zones a plan on the row may use: where the size can be allocated (read live, else as the catalog records),
     * within the zones asked there; without either, the zones asked (unchecked), or none.
     */
    List<String> planZones(int row) {
        List<String> zones = asked[index.region[row]];
        if (!checked() && catalogZones(row).isEmpty()) {
            return zones == null ? List.of() : zones;
        }
        List<String> usable = new ArrayList<>();
        for (String zone : allocatable(row)) {
            if (zones == null || zones.contains(zone)) {
                usable.add(zone);
            }
        }
        return usable;
    }

    /** The row's region by size rank: made once per region read and catalog, shared by the plans that read it. */
    private RegionRows rows(int row) {
        int id = index.region[row];
        RegionRows region = rows[id];
        if (region == null) {
            region = region(row).derived(index, capacity -> new RegionRows(index, capacity));
            rows[id] = region;
        }
        return region;
    }

    RegionCapacity region(int row) {
        int id = index.region[row];
        RegionCapacity region = read[id];
        if (region == null) {
            region = subscription.orElseThrow(() -> new IllegalStateException("no subscription to check"))
                    .region(index.regionNames[id]);
            read[id] = region;
            regionsRead++;
        }
        return region;
    }
}
