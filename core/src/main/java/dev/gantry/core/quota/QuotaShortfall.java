package dev.gantry.core.quota;

import dev.gantry.core.catalog.refresh.SizeOffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One vCPU quota that a plan's VMs would exceed in a region, with the figures to request more.
 *
 * <p>Which quotas a VM draws on is Azure's rule ("Increase Spot vCPU quotas",
 * https://learn.microsoft.com/azure/quotas/spot-quota, and "Check vCPU quotas",
 * https://learn.microsoft.com/azure/virtual-machines/quotas): a pay-as-you-go (on-demand) VM draws on the region's
 * total vCPUs ({@code cores}) and on its VM family's vCPUs (the SKU's {@code family}, e.g.
 * {@code standardNDSH100v5Family}); a Spot VM draws on the region's Spot vCPUs ({@code lowPriorityCores}), one quota
 * across all families. A constrained-vCPU size counts its full vCPU count. A quota the region does not report is not
 * enforced and never short.
 *
 * @param region the region
 * @param quota the quota's name as Azure reports it, e.g. {@code cores}
 * @param localizedName what the portal shows, e.g. {@code Total Regional vCPUs}
 * @param limit the quota's limit in vCPUs
 * @param inUse the vCPUs of it in use
 * @param needed the vCPUs the plan's VMs need: nodes × vCPUs per VM
 * @param nodes the plan's VMs
 * @param size the VM size
 * @param vcpusPerVm what one VM counts against quota
 */
public record QuotaShortfall(String region, String quota, String localizedName, long limit, long inUse, long needed,
                             int nodes, String size, int vcpusPerVm) {
    /** The regional total of on-demand vCPUs. */
    public static final String REGIONAL = "cores";
    /** The regional pool of Spot (low-priority) vCPUs. */
    public static final String SPOT = "lowPriorityCores";

    public QuotaShortfall {
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(quota, "quota");
        Objects.requireNonNull(localizedName, "localizedName");
        Objects.requireNonNull(size, "size");
    }

    /** What is left under the limit (negative when more is in use than allowed). */
    public long free() {
        return limit - inUse;
    }

    /** The smallest limit that holds the plan beside what is in use: what to request. */
    public long limitToRequest() {
        return inUse + needed;
    }

    /** How much the limit must grow: {@link #limitToRequest()} less {@link #limit()}. */
    public long increase() {
        return limitToRequest() - limit;
    }

    /**
     * {@code standardNDSH100v5Family (Standard NDSH100v5 Family vCPUs): limit 100, 0 in use, needs 192 (2 × Standard_ND96isr_H100_v5
     * at 96 vCPUs); request a limit of at least 192 (+92)}.
     */
    public String describe() {
        return quota + (localizedName.isEmpty() || localizedName.equals(quota) ? "" : " (" + localizedName + ")")
                + ": limit " + limit + " vCPUs, " + inUse + " in use, needs " + needed + " (" + nodes + " × " + size
                + " at " + vcpusPerVm + " vCPUs); request a quota increase of " + quota + " in " + region
                + " to at least " + limitToRequest() + " vCPUs (+" + increase() + ")";
    }

    /**
     * Every quota that {@code nodes} VMs of {@code offer} would exceed in the region, empty when they fit.
     *
     * @param usages the region's quotas by name in lower case, as a {@link QuotaSource} reports them
     * @param offer the size as the subscription is offered it in the region
     * @param nodes the VMs, at least 1
     * @param spot whether they are Spot VMs
     */
    public static List<QuotaShortfall> of(Map<String, QuotaUsage> usages, SizeOffer offer, int nodes, boolean spot) {
        if (nodes < 1) {
            throw new IllegalArgumentException("nodes must be >= 1, got " + nodes);
        }
        int perVm = quotaVcpus(offer);
        long needed = (long) nodes * perVm;
        List<QuotaShortfall> out = new ArrayList<>(2);
        if (spot) {
            add(usages.get(SPOT.toLowerCase(Locale.ROOT)), offer, nodes, perVm, needed, out);
        } else {
            add(usages.get(offer.quotaFamily().toLowerCase(Locale.ROOT)), offer, nodes, perVm, needed, out);
            add(usages.get(REGIONAL), offer, nodes, perVm, needed, out);
        }
        return out;
    }

    /** What one VM of the size counts against quota: its full vCPU count, constrained or not. */
    public static int quotaVcpus(SizeOffer offer) {
        return offer.vcpus().orElse(offer.usableVcpus().orElse(0));
    }

    private static void add(QuotaUsage usage, SizeOffer offer, int nodes, int perVm, long needed,
                            List<QuotaShortfall> out) {
        if (usage != null && needed > usage.free()) {
            out.add(new QuotaShortfall(offer.region(), usage.name(), usage.localizedName(), usage.limit(),
                    usage.inUse(), needed, nodes, offer.name(), perVm));
        }
    }
}
