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
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks a plan's VMs against the subscription's vCPU quotas in a region (the Compute usages API in production,
 * through a {@link QuotaSource}; the sizes through a {@link SkuSource}). Quota is counted in vCPUs per VM family (the
 * size's {@code quotaFamily}, e.g. {@code standardNDSH100v5Family}) and in total per region ({@code cores}); spot VMs
 * count against the region's Spot quota ({@code lowPriorityCores}) alone, not against the family or regional quotas,
 * as Azure counts them. A constrained-vCPU size counts its full vCPU count, as quota does. The size list is read once
 * per region and kept; usages are read on every check, since they change as VMs start and stop.
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
        int perVm = offer.vcpus().orElse(offer.usableVcpus().orElse(0));
        long needed = (long) nodes * perVm;
        Map<String, QuotaUsage> usages = quotas.usages(region);
        List<Problem> problems = new ArrayList<>();
        if (spot) {
            // Spot VMs draw on the region's separate Spot quota only, not on the family or regional quotas.
            check(usages, "lowPriorityCores", region, size, nodes, perVm, needed).ifPresent(problems::add);
        } else {
            check(usages, offer.quotaFamily(), region, size, nodes, perVm, needed).ifPresent(problems::add);
            check(usages, "cores", region, size, nodes, perVm, needed).ifPresent(problems::add);
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

    private static Optional<Problem> check(Map<String, QuotaUsage> usages, String quota, String region, String size,
                                           int nodes, int perVm, long needed) {
        QuotaUsage usage = usages.get(quota.toLowerCase(Locale.ROOT));
        if (usage == null) {
            // No such quota reported: nothing to check against (Azure omits quotas it does not enforce).
            return Optional.empty();
        }
        long free = usage.free();
        if (needed <= free) {
            return Optional.empty();
        }
        return Optional.of(Problem.of("plan.size", "region " + region + ", quota " + quota + ": limit "
                + usage.limit() + " vCPUs, " + usage.inUse() + " in use, the plan needs " + needed + " ("
                + nodes + " × " + size + " at " + perVm + " vCPUs); request a quota increase of at least "
                + (needed - free) + " vCPUs for " + quota + " in " + region + ", or plan fewer nodes or another"
                + " region"));
    }
}
