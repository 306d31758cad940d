package dev.gantry.core.advisor;

import dev.gantry.api.Reason;
import dev.gantry.core.quota.QuotaShortfall;
import dev.gantry.core.quota.QuotaUsage;
import dev.gantry.core.quota.RegionCapacity;
import dev.gantry.core.quota.SubscriptionCapacity;
import dev.gantry.model.Money;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The reasons for what the subscription allows: Q1 (whether quota and zones were checked, live or from the catalog,
 * and the quotas the plan draws on), Q2 (each region lost to quota, with its figures and what to request) and Z1 (the
 * plan's zones).
 */
final class CapacityReasons {
    /** Regions lost to quota named one by one; the others are counted. */
    static final int REGIONS_NAMED = 8;

    private final CatalogIndex index;
    private final Requirements req;
    private final PlanCapacity capacity;

    CapacityReasons(CatalogIndex index, Requirements req) {
        this.index = index;
        this.req = req;
        this.capacity = req.capacity();
    }

    /**
     * Q1, Q2 for the passes made (every region the spot pass that found nothing lost, then those of the last pass
     * whose candidate would have beaten the chosen one), then Z1.
     */
    void add(SearchPass search, Optional<SearchPass> failedSpotPass, List<Reason> out) {
        Candidate best = search.best();
        out.add(checked(best, search.spot()));
        failedSpotPass.ifPresent(pass -> lost(pass, Optional.empty(), out));
        lost(search, Optional.of(best), out);
        zones(best.row()).ifPresent(out::add);
    }

    /** Q2 for passes that found nothing: every region each lost to quota. */
    void lost(Optional<SearchPass> failedSpotPass, SearchPass last, List<Reason> out) {
        failedSpotPass.ifPresent(pass -> lost(pass, Optional.empty(), out));
        lost(last, Optional.empty(), out);
    }

    private Reason checked(Candidate best, boolean spot) {
        if (capacity.zonesFromCatalog()) {
            return new Reason("Q1", "quota not checked: no subscription to ask (set AZURE_SUBSCRIPTION_ID and sign in "
                    + "to Azure); zones from the catalog " + catalogRefresh() + ", not read live; the plan may name a "
                    + "region where the subscription lacks the vCPU quota, or a zone that has changed since");
        }
        if (!capacity.checked()) {
            return new Reason("Q1", "quota and zones not checked: no subscription to ask (set AZURE_SUBSCRIPTION_ID "
                    + "and sign in to Azure); the plan may name a region where the subscription lacks the vCPU quota "
                    + "or the size");
        }
        SubscriptionCapacity subscription = capacity.subscription().orElseThrow();
        int row = best.row();
        RegionCapacity region = capacity.region(row);
        int perVm = capacity.offer(row).map(QuotaShortfall::quotaVcpus).orElse(0);
        long needed = (long) best.nodes() * perVm;
        List<String> quotas = new ArrayList<>();
        List<String> names = spot ? List.of(QuotaShortfall.SPOT)
                : List.of(capacity.offer(row).orElseThrow().quotaFamily(), QuotaShortfall.REGIONAL);
        for (String name : names) {
            quotas.add(region.usage(name).map(CapacityReasons::usage)
                    .orElse(name + " not reported (not enforced)"));
        }
        return new Reason("Q1", "quota and zones checked for subscription " + subscription.subscription() + " in "
                + capacity.regionsRead() + (capacity.regionsRead() == 1 ? " region" : " regions")
                + " (Resource SKUs and Compute usages; usages kept " + SubscriptionCapacity.USAGES_KEPT.toSeconds()
                + " s across plans): " + best.nodes() + " × " + index.name(row) + " needs " + needed + " vCPUs ("
                + perVm + " per VM) of " + String.join(" and of ", quotas) + (spot
                ? "; Spot VMs draw on the region's Spot vCPUs only" : "; on-demand VMs draw on the family's and the "
                + "region's total vCPUs"));
    }

    /**
     * Which refresh recorded the catalog's zones, e.g. {@code Azure live refresh (eastus) of 2026-12-01 (subscription
     * 0000..., read 2026-12-01T08:00:00Z (Resource SKUs: ...))}.
     */
    private String catalogRefresh() {
        return index.catalog.info().source() + " of " + index.catalog.info().date()
                + index.catalog.zonesOrigin().map(origin -> " (" + origin + ")").orElse("");
    }

    private static String usage(QuotaUsage usage) {
        return usage.name() + " (limit " + usage.limit() + ", " + usage.inUse() + " in use, " + usage.free() + " free)";
    }

    /**
     * Q2: each region whose best candidate the quota removed, when that candidate would have beaten {@code chosen}
     * (a quota that removed only dearer candidates changed nothing).
     */
    private void lost(SearchPass pass, Optional<Candidate> chosen, List<Reason> out) {
        List<Candidate> regions = pass.quotaLost().stream().filter(lost -> chosen.isEmpty()
                || Candidate.ORDER.compare(lost, chosen.get()) < 0).toList();
        for (int i = 0; i < regions.size() && i < REGIONS_NAMED; i++) {
            Candidate lost = regions.get(i);
            int row = lost.row();
            String region = index.regionName(row);
            boolean elsewhere = chosen.isEmpty() || !chosen.get().region().equals(region);
            double total = lost.total();
            List<String> figures = new ArrayList<>();
            for (QuotaShortfall shortfall : capacity.shortfalls(row, lost.nodes(), pass.spot())) {
                figures.add(shortfall.describe());
            }
            out.add(new Reason("Q2", (elsewhere ? "region " + region + " lost to quota: " : "quota in " + region
                    + ": ") + lost.nodes() + " × " + index.name(row) + " (" + (pass.spot() ? "spot" : "on-demand")
                    + ", " + Money.perHour(total) + ") would " + (chosen.isPresent() ? "have been chosen" : "fit")
                    + "; " + String.join("; ", figures)));
        }
        if (regions.size() > REGIONS_NAMED) {
            out.add(new Reason("Q2", (regions.size() - REGIONS_NAMED) + " more region(s) lost to quota on "
                    + (pass.spot() ? "spot" : "on-demand") + " capacity"));
        }
    }

    /** Z1: where the plan's VMs may be placed, when zones were checked or asked. */
    private Optional<Reason> zones(int row) {
        Optional<List<String>> asked = capacity.asked(row);
        String where = index.name(row) + " in " + index.regionName(row);
        boolean fromCatalog = capacity.zonesFromCatalog() && capacity.catalogZones(row).isPresent();
        if (!capacity.checked() && !fromCatalog) {
            return asked.map(zones -> new Reason("Z1", "zones: " + Explanations.zoneList(zones) + " as "
                    + req.zones().source(index.regionName(row)) + " asks in " + index.regionName(row)
                    + " (not checked: no subscription to ask"
                    + (capacity.zonesFromCatalog() ? " and the catalog records none for the size there)" : ")")));
        }
        List<String> allocatable = capacity.allocatable(row);
        String offered = fromCatalog
                ? where + " could be allocated to the refreshing subscription in " + Explanations.zoneList(allocatable)
                + " (the catalog's zones, not read live)"
                : where + " can be allocated to the subscription in " + Explanations.zoneList(allocatable)
                + " (Resource SKUs: locationInfo zones less zone restrictions)";
        List<String> usable = capacity.planZones(row);
        if (asked.isEmpty()) {
            return Optional.of(new Reason("Z1", "zones: " + offered + (usable.isEmpty()
                    ? "; a regional placement" : "; the plan may use any of them")));
        }
        return Optional.of(new Reason("Z1", "zones: " + offered + "; " + req.zones().source(index.regionName(row))
                + " asks " + Explanations.zoneList(asked.get()) + ", so the plan uses "
                + Explanations.zoneList(usable)));
    }
}
