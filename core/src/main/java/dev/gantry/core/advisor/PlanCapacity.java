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
 */
final class PlanCapacity {
    private final CatalogIndex index;
    private final Optional<SubscriptionCapacity> subscription;
    /** Per region id, the zones the workload allows there; null where it allows any. */
    private final List<String>[] asked;
    private final boolean anyAsked;
    private final RegionCapacity[] read;
    private int regionsRead;

    @SuppressWarnings("unchecked")
    private PlanCapacity(CatalogIndex index, Optional<SubscriptionCapacity> subscription,
                         Map<String, List<String>> zones) {
        this.index = index;
        this.subscription = subscription;
        this.asked = new List[index.regionNames.length];
        zones.forEach((region, names) -> {
            Integer id = index.regionIds.get(region);
            if (id != null) {
                asked[id] = List.copyOf(names);
            }
        });
        this.anyAsked = !zones.isEmpty();
        this.read = new RegionCapacity[index.regionNames.length];
    }

    /** For a plan with a subscription to ask, or without one (nothing is checked), and the zones asked per region. */
    static PlanCapacity of(CatalogIndex index, Optional<SubscriptionCapacity> subscription,
                           Map<String, List<String>> zones) {
        return new PlanCapacity(index, subscription, zones);
    }

    /** Whether a subscription is asked: without one, quota and zones are not checked. */
    boolean checked() {
        return subscription.isPresent();
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
        return offer(row).isPresent();
    }

    /** Whether the size can be allocated in a zone the workload asks in the row's region (checked only). */
    boolean zonesAllow(int row) {
        List<String> zones = asked[index.region[row]];
        if (zones == null) {
            return true;
        }
        Optional<SizeOffer> offer = offer(row);
        if (offer.isEmpty()) {
            return false;
        }
        for (String zone : offer.get().zones()) {
            if (zones.contains(zone)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code nodes} VMs of the row's size fit the region's quotas on the capacity type (checked only). */
    boolean quotaFits(int row, int nodes, boolean spot) {
        return region(row).fits(index.sizeKeys[index.sizeRank[row]], nodes, spot);
    }

    /** The quotas {@code nodes} VMs of the row would exceed (checked only; empty when they fit). */
    List<QuotaShortfall> shortfalls(int row, int nodes, boolean spot) {
        RegionCapacity region = region(row);
        return offer(row).map(offer -> region.shortfalls(offer, nodes, spot)).orElse(List.of());
    }

    /** Where the subscription can allocate the row's size in its region (checked only), in order. */
    List<String> allocatable(int row) {
        return offer(row).map(SizeOffer::zones).orElse(List.of());
    }

    /**
     * The zones a plan on the row may use: with a subscription, where the size can be allocated, within the zones
     * asked there; without one, the zones asked (unchecked), or none.
     */
    List<String> planZones(int row) {
        List<String> zones = asked[index.region[row]];
        if (!checked()) {
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
