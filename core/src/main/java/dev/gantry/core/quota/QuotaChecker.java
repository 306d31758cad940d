package dev.gantry.core.quota;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.core.catalog.refresh.SizeOffer;
import dev.gantry.core.catalog.refresh.SkuSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks a chosen plan's VMs against the subscription's vCPU quotas in a region (the Compute usages API in
 * production, through a {@link QuotaSource}; the sizes through a {@link SkuSource}), by the arithmetic of
 * {@link QuotaShortfall}. The size list is read once per region and kept; usages are read on every check, since they
 * change as VMs start and stop. The advisor's own check, inside the search, is {@link SubscriptionCapacity}.
 */
public final class QuotaChecker {
    private final SkuSource skus;
    private final QuotaSource quotas;
    private final Map<String, Map<String, SizeOffer>> skusByRegion = new ConcurrentHashMap<>();

    public QuotaChecker(SkuSource skus, QuotaSource quotas) {
        this.skus = Objects.requireNonNull(skus, "skus");
        this.quotas = Objects.requireNonNull(quotas, "quotas");
    }

    /**
     * Every quota the plan would exceed, empty when it fits.
     *
     * @param region the plan's region
     * @param size the plan's VM size
     * @param nodes how many VMs the plan starts
     * @param spot whether they are spot VMs
     */
    public List<Problem> check(String region, String size, int nodes, boolean spot) {
        if (nodes < 1) {
            throw new IllegalArgumentException("nodes must be >= 1, got " + nodes);
        }
        Map<String, SizeOffer> offers = skusByRegion.computeIfAbsent(region.toLowerCase(Locale.ROOT), r -> {
            Map<String, SizeOffer> byName = new HashMap<>();
            for (SizeOffer offer : skus.vmSkus(List.of(region))) {
                byName.put(offer.name().toLowerCase(Locale.ROOT), offer);
            }
            return byName;
        });
        SizeOffer offer = offers.get(size.toLowerCase(Locale.ROOT));
        if (offer == null) {
            return List.of(Problem.of("plan.size", size + " is not offered to this subscription in region " + region
                    + "; choose another region or size"));
        }
        if (offer.restriction().isPresent()) {
            return List.of(Problem.of("plan.size", size + " is restricted in region " + region + " ("
                    + offer.restriction().get() + "); choose another region or ask Azure support to enable it"));
        }
        List<Problem> problems = new ArrayList<>();
        for (QuotaShortfall shortfall : QuotaShortfall.of(quotas.usages(region), offer, nodes, spot)) {
            problems.add(Problem.of("plan.size", "region " + region + ", quota " + shortfall.quota() + ": limit "
                    + shortfall.limit() + " vCPUs, " + shortfall.inUse() + " in use, the plan needs "
                    + shortfall.needed() + " (" + nodes + " × " + size + " at " + shortfall.vcpusPerVm()
                    + " vCPUs); request a quota increase of at least " + shortfall.increase() + " vCPUs for "
                    + shortfall.quota() + " in " + region + ", or plan fewer nodes or another region"));
        }
        return problems;
    }

    /** Fails with {@link ErrorCode#QUOTA_EXCEEDED} listing every quota the plan would exceed. */
    public void require(String region, String size, int nodes, boolean spot) {
        List<Problem> problems = check(region, size, nodes, spot);
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.QUOTA_EXCEEDED, problems);
        }
    }

}
