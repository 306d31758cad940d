package dev.gantry.core.advisor;

import dev.gantry.api.Interconnect;
import java.util.Locale;

/**
 * The hard constraints, in the order the search evaluates them (rule 9): catalog exclusions first, then a known
 * price, region, GPU or CPU fit, the interconnect, the throughput an estimate needs, and the budget. A candidate is
 * counted against the first constraint it fails, so the last constraint with a count is the one that removed the
 * last candidates.
 */
enum Constraint {
    FAMILY,
    RETIRED,
    RESTRICTED,
    EXCLUDED_KIND,
    PRICE,
    REGION,
    GPU_COUNT,
    GPU_MEMORY,
    GPU_VENDOR,
    VCPUS,
    MEMORY,
    INTERCONNECT,
    THROUGHPUT,
    BUDGET;

    static final Constraint[] ALL = values();

    /** The constraint as the user asked for it, for messages. */
    String describe(Requirements req, boolean spot) {
        return switch (this) {
            case FAMILY -> "family (the NC fallback for training needs interconnect ethernet or any, got "
                    + lower(req.interconnect()) + ")";
            case RETIRED -> "retired series (never recommended)";
            case RESTRICTED -> "restriction (the size is not offered to the subscription in the region)";
            case EXCLUDED_KIND -> "Arm64, burstable and basic sizes (excluded)";
            case PRICE -> "price unknown (no " + (spot ? "spot" : "on-demand") + " price in the catalog)";
            case REGION -> "regions " + (req.regions().isEmpty() ? "(all)" : req.regions()) + " (from "
                    + req.regionSource() + ")";
            case GPU_COUNT -> req.explicitGpus() > 0
                    ? "GPU count (resources.gpus = " + req.explicitGpus() + " per node)"
                    : req.hasModelSize() ? "GPU count (the smallest count per node that holds the model's "
                    + Money.gib(req.modelNeedGib()) + " GiB)" : "GPU count (1 per node by default)";
            case GPU_MEMORY -> "GPU memory (resources.gpuMemoryGib >= " + Money.format(req.minGpuMemory()) + ")";
            case GPU_VENDOR -> "GPU vendor (resources.gpuVendor = " + lower(req.vendor()) + ")";
            case VCPUS -> "vCPUs (resources.vcpus >= " + req.minVcpus() + ")";
            case MEMORY -> "memory (resources.memoryGib >= " + Money.format(req.minMemory()) + ")";
            case INTERCONNECT -> req.interconnect() == Interconnect.INFINIBAND
                    ? "interconnect (infiniband asks for RDMA-capable sizes)"
                    : "interconnect (multi-node GPU training needs RDMA-capable sizes unless interconnect is "
                    + "ethernet)";
            case THROUGHPUT -> "GPU throughput unknown (the runtime estimate needs it)";
            case BUDGET -> "budget (budget.maxPerHour = " + Money.perHour(req.maxPerHour()) + ")";
        };
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
