package dev.gantry.core.advisor;

import dev.gantry.api.GpuVendor;
import dev.gantry.api.Interconnect;
import dev.gantry.api.Resources;

/**
 * One pass of rules 2-8 over one capacity type (rule 9): the hard constraints decide which rows are feasible, the
 * preferences rank them (ND before NC for training, non-RDMA before RDMA for inference with interconnect any), then
 * the objective, then the tie-breaks (newer GPU, size name, region name). Keeps the best few distinct sizes for the
 * alternatives and counts why the others failed; allocates nothing per row.
 */
final class CandidateSearch {
    /** The chosen size and the five alternatives, one row per size. */
    static final int KEEP = 6;

    private final CatalogIndex index;
    private final Requirements req;
    final boolean spot;

    /** Rows counted against the first constraint they failed, by {@link Constraint#ordinal()}. */
    final int[] failedFirst = new int[Constraint.ALL.length];
    /** The same counts for ND rows only, to explain an NC fallback. */
    final int[] ndFailedFirst = new int[Constraint.ALL.length];
    int considered;
    int feasible;
    int feasibleNd;

    // The best rows, best first, one per size.
    final int[] top = new int[KEEP];
    final int[] topPreference = new int[KEEP];
    final int[] topGpus = new int[KEEP];
    final int[] topNodes = new int[KEEP];
    final double[] topPrimary = new double[KEEP];
    final double[] topSecondary = new double[KEEP];
    final double[] topTotal = new double[KEEP];
    final double[] topHours = new double[KEEP];
    int topCount;

    /** A retired and a restricted row (the first by size name, then region), to name them in the reasons. */
    int retiredExample = -1;
    int restrictedExample = -1;

    /** A row that fits every constraint but has no price, with the best preference seen. */
    int unpricedRow = -1;
    int unpricedPreference = Integer.MAX_VALUE;
    int unpricedCount;

    // Scratch values of the row being evaluated.
    private int gpus;
    private int nodes;

    CandidateSearch(CatalogIndex index, Requirements req, boolean spot) {
        this.index = index;
        this.req = req;
        this.spot = spot;
    }

    CandidateSearch run() {
        int[] rows = req.gpu() ? index.gpuRows
                : req.training() ? index.memoryOptimizedRows : index.computeOptimizedRows;
        for (int row : rows) {
            considered++;
            layout(row);
            double price = index.price(row, spot);
            int failed = firstFailure(row, price);
            if (failed >= 0) {
                failedFirst[failed]++;
                if (failed == Constraint.RETIRED.ordinal() && earlier(row, retiredExample)) {
                    retiredExample = row;
                } else if (failed == Constraint.RESTRICTED.ordinal() && earlier(row, restrictedExample)) {
                    restrictedExample = row;
                }
                if (index.group[row] == CatalogIndex.ND) {
                    ndFailedFirst[failed]++;
                }
                if (failed == Constraint.PRICE.ordinal() && firstFailureAfterPrice(row) < 0) {
                    unpricedCount++;
                    int preference = preference(row);
                    if (preference < unpricedPreference
                            || preference == unpricedPreference && earlier(row, unpricedRow)) {
                        unpricedPreference = preference;
                        unpricedRow = row;
                    }
                }
                continue;
            }
            feasible++;
            if (index.group[row] == CatalogIndex.ND) {
                feasibleNd++;
            }
            offer(row, price);
        }
        return this;
    }

    /** True when {@code row} comes before {@code other} by size name, then region; any row before none (-1). */
    private boolean earlier(int row, int other) {
        if (other < 0) {
            return true;
        }
        int c = Integer.compare(index.sizeRank[row], index.sizeRank[other]);
        return c != 0 ? c < 0 : index.region[row] < index.region[other];
    }

    /** Memory per GPU of the chosen row, GiB. */
    double topGpuMemory() {
        return index.gpuMemoryGib[top[0]];
    }

    boolean found() {
        return topCount > 0;
    }

    /** The constraint that removed the last candidates: the last one, in evaluation order, that removed any. */
    Constraint lastConstraint() {
        for (int i = failedFirst.length - 1; i >= 0; i--) {
            if (failedFirst[i] > 0) {
                return Constraint.ALL[i];
            }
        }
        return Constraint.FAMILY;
    }

    /** GPUs per node and nodes for a row: explicit, from the model size (M1), or one GPU. */
    private void layout(int row) {
        nodes = req.baseNodes();
        if (!req.gpu()) {
            gpus = 0;
        } else if (req.explicitGpus() > 0) {
            gpus = req.explicitGpus();
        } else if (req.hasModelSize()) {
            double memory = index.gpuMemoryGib[row];
            gpus = ModelSizing.gpusPerNode(req.modelNeedGib(), memory, nodes);
            nodes = ModelSizing.nodesFor(req.modelNeedGib(), memory, gpus, nodes);
        } else {
            gpus = 1;
        }
    }

    private int firstFailure(int row, double price) {
        boolean nc = index.group[row] == CatalogIndex.NC;
        if (req.gpu() && req.training() && nc && req.interconnect() == Interconnect.INFINIBAND) {
            return Constraint.FAMILY.ordinal();
        }
        if (index.retiredSeries[row] != null) {
            return Constraint.RETIRED.ordinal();
        }
        if (index.restriction[row] != null) {
            return Constraint.RESTRICTED.ordinal();
        }
        if (index.excludedKind[row]) {
            return Constraint.EXCLUDED_KIND.ordinal();
        }
        if (Double.isNaN(price)) {
            return Constraint.PRICE.ordinal();
        }
        int after = firstFailureAfterPrice(row);
        if (after >= 0) {
            return after;
        }
        if (price * nodes > req.maxPerHour()) {
            return Constraint.BUDGET.ordinal();
        }
        return -1;
    }

    /** The constraints after the price, except the budget (which needs one). */
    private int firstFailureAfterPrice(int row) {
        if (!req.allowedRegions()[index.region[row]]) {
            return Constraint.REGION.ordinal();
        }
        if (req.gpu()) {
            if (index.gpuCount[row] != gpus || nodes > Resources.MAX_NODES) {
                return Constraint.GPU_COUNT.ordinal();
            }
            if (index.gpuMemoryGib[row] < req.minGpuMemory()) {
                return Constraint.GPU_MEMORY.ordinal();
            }
            if (req.vendor() != GpuVendor.ANY && index.vendor[row] != req.vendor()) {
                return Constraint.GPU_VENDOR.ordinal();
            }
        }
        if (index.vcpus[row] < req.minVcpus()) {
            return Constraint.VCPUS.ordinal();
        }
        if (index.memoryGib[row] < req.minMemory()) {
            return Constraint.MEMORY.ordinal();
        }
        if (rdmaRequired(nodes) && !index.rdma[row]) {
            return Constraint.INTERCONNECT.ordinal();
        }
        if (req.hasEstimate() && req.gpu() && Double.isNaN(index.tflops[row])) {
            return Constraint.THROUGHPUT.ordinal();
        }
        return -1;
    }

    /** Rule 4 as a hard constraint. */
    boolean rdmaRequired(int nodeCount) {
        return req.interconnect() == Interconnect.INFINIBAND
                || req.gpu() && req.training() && nodeCount > 1 && req.interconnect() != Interconnect.ETHERNET;
    }

    /** Rule 9's preferences: 0 is preferred. */
    int preference(int row) {
        if (req.gpu() && req.training()) {
            return index.group[row] == CatalogIndex.NC ? 1 : 0;
        }
        if (!req.training() && req.interconnect() == Interconnect.ANY) {
            return index.rdma[row] ? 1 : 0;
        }
        return 0;
    }

    /** Estimated hours on a row (rule 8), NaN without an estimate. */
    double hours(int row) {
        if (!req.hasEstimate()) {
            return Double.NaN;
        }
        return req.gpu() ? req.estimateHours() * req.referenceTflops() / index.tflops[row] : req.estimateHours();
    }

    private void offer(int row, double price) {
        int preference = preference(row);
        double total = price * nodes;
        double hours = hours(row);
        double primary;
        double secondary = 0;
        if (req.minimizeTime()) {
            primary = hours;
            secondary = total * hours;
        } else if (req.hasEstimate()) {
            primary = total * hours;
        } else {
            primary = total;
        }
        int same = -1;
        for (int i = 0; i < topCount; i++) {
            if (index.sizeRank[top[i]] == index.sizeRank[row]) {
                same = i;
                break;
            }
        }
        int limit = same >= 0 ? same : topCount == KEEP ? KEEP - 1 : topCount;
        if (same >= 0 || topCount == KEEP) {
            if (compare(row, preference, primary, secondary, limit) >= 0) {
                return;
            }
        }
        // Remove the slot being replaced, then insert in order.
        int end = same >= 0 || topCount == KEEP ? limit : topCount;
        if (end == topCount) {
            topCount++;
        }
        int at = end;
        while (at > 0 && compare(row, preference, primary, secondary, at - 1) < 0) {
            copy(at - 1, at);
            at--;
        }
        top[at] = row;
        topPreference[at] = preference;
        topGpus[at] = gpus;
        topNodes[at] = nodes;
        topPrimary[at] = primary;
        topSecondary[at] = secondary;
        topTotal[at] = total;
        topHours[at] = hours;
    }

    private void copy(int from, int to) {
        top[to] = top[from];
        topPreference[to] = topPreference[from];
        topGpus[to] = topGpus[from];
        topNodes[to] = topNodes[from];
        topPrimary[to] = topPrimary[from];
        topSecondary[to] = topSecondary[from];
        topTotal[to] = topTotal[from];
        topHours[to] = topHours[from];
    }

    /** Negative when the row ranks before the kept row in slot {@code slot}. */
    private int compare(int row, int preference, double primary, double secondary, int slot) {
        int other = top[slot];
        int c = Integer.compare(preference, topPreference[slot]);
        if (c == 0) {
            c = Double.compare(primary, topPrimary[slot]);
        }
        if (c == 0) {
            c = Double.compare(secondary, topSecondary[slot]);
        }
        if (c == 0) {
            c = Integer.compare(index.releaseYear[other], index.releaseYear[row]);
        }
        if (c == 0) {
            c = Integer.compare(index.sizeRank[row], index.sizeRank[other]);
        }
        if (c == 0) {
            c = Integer.compare(index.region[row], index.region[other]);
        }
        return c;
    }
}
