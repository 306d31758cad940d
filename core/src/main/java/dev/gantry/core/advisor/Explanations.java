package dev.gantry.core.advisor;

import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Interconnect;
import dev.gantry.api.Reason;
import dev.gantry.api.VmSize;
import dev.gantry.core.catalog.GpuModel;
import java.util.List;

/** The reasons a search's result gives for rules 2-5, 8 and 9, and why each alternative lost. */
final class Explanations {
    private final CatalogIndex index;
    private final Requirements req;
    private final CandidateSearch search;

    Explanations(CatalogIndex index, Requirements req, CandidateSearch search) {
        this.index = index;
        this.req = req;
        this.search = search;
    }

    /** Rule 2 (GPU families) or rule 5 (CPU families), then rule 3 (GPU fit). */
    void hardware(List<Reason> out) {
        int row = search.top[0];
        VmSize size = index.entries[row].size();
        if (!req.gpu()) {
            String kind = req.training() ? "memory-optimized families E and M (the confidential EC family is not "
                    + "chosen)" : "compute-optimized family F (not FX)";
            out.add(new Reason("R5", "CPU " + (req.training() ? "training" : "inference") + " uses the " + kind
                    + "; " + size.name() + " offers " + index.vcpus[row] + " usable vCPUs >= " + req.minVcpus()
                    + " and " + Money.format(index.memoryGib[row]) + " GiB >= " + Money.format(req.minMemory())
                    + " GiB; burstable, basic and Arm64 sizes are excluded"));
            return;
        }
        if (req.training()) {
            if (index.group[row] == CatalogIndex.NC) {
                out.add(new Reason("R2", "NC family with Ethernet-interconnected VMs (fallback): no ND size is "
                        + "feasible (" + removals(search.ndFailedFirst) + ")"));
            } else {
                out.add(new Reason("R2", "GPU training uses the ND family; the NV family (visualization, "
                        + "fractional GPUs) is never chosen"));
            }
        } else {
            out.add(new Reason("R2", "GPU inference uses the NC and ND families; the NV family (visualization, "
                    + "fractional GPUs) is never chosen"));
        }
        GpuSpec gpu = size.gpu().orElseThrow();
        int nodes = search.topNodes[0];
        StringBuilder text = new StringBuilder();
        text.append(size.name()).append(" has ").append(gpu.count()).append(" × ").append(gpu.model())
                .append(" (").append(Money.format(gpu.memoryGib())).append(" GiB each, ")
                .append(Requirements.lower(gpu.vendor())).append(") per node; ");
        if (req.explicitGpus() > 0) {
            text.append("the count equals resources.gpus = ").append(req.explicitGpus());
        } else if (req.hasModelSize()) {
            text.append(gpu.count()).append(" GPUs × ").append(Money.format(gpu.memoryGib())).append(" GiB × ")
                    .append(nodes).append(nodes == 1 ? " node = " : " nodes = ")
                    .append(Money.gib(gpu.count() * gpu.memoryGib() * nodes)).append(" GiB >= ")
                    .append(Money.gib(req.modelNeedGib())).append(" GiB needed, the smallest count that fits");
        } else {
            text.append("the count equals the default of 1 GPU per node");
        }
        if (req.minGpuMemory() > 0) {
            text.append("; memory per GPU >= resources.gpuMemoryGib = ").append(Money.format(req.minGpuMemory()));
        }
        if (req.vendor() != GpuVendor.ANY) {
            text.append("; vendor ").append(Requirements.lower(req.vendor())).append(" as asked");
        }
        out.add(new Reason("R3", text.toString()));
    }

    /** Rule 4. */
    Reason interconnect() {
        int row = search.top[0];
        int nodes = search.topNodes[0];
        String name = index.name(row);
        if (req.interconnect() == Interconnect.INFINIBAND) {
            return new Reason("R4", "interconnect infiniband: RDMA-capable sizes only; " + name + " has RDMA");
        }
        if (search.rdmaRequired(nodes)) {
            return new Reason("R4", "multi-node GPU training (" + nodes + " nodes): RDMA-capable (InfiniBand) "
                    + "sizes only; " + name + " has RDMA");
        }
        if (!req.training() && req.interconnect() == Interconnect.ANY) {
            return new Reason("R4", "inference with interconnect any: non-RDMA sizes are preferred (avoid SKUs "
                    + "with InfiniBand for inference)" + (index.rdma[row]
                    ? "; no non-RDMA size is feasible, so " + name + " (RDMA) is used" : ""));
        }
        if (req.interconnect() == Interconnect.ETHERNET) {
            return new Reason("R4", "interconnect ethernet: RDMA is not required");
        }
        return new Reason("R4", nodes == 1 ? "one node: no interconnect requirement"
                : nodes + " CPU nodes: no interconnect requirement");
    }

    /** Rule 8. */
    Reason objective() {
        int row = search.top[0];
        int nodes = search.topNodes[0];
        double perNode = index.price(row, search.spot);
        String price = Money.format(perNode) + " USD/node-hour × " + nodes + (nodes == 1 ? " node" : " nodes")
                + " = " + Money.perHour(search.topTotal[0]);
        String ties = "; ties go to the newer GPU, then the size name, then the region name";
        if (!req.hasEstimate()) {
            return new Reason("R8", "lowest total price per hour: " + price + ties);
        }
        double hours = search.topHours[0];
        String total = Money.perHour(search.topTotal[0]) + " (" + Money.format(perNode) + " USD/node-hour × "
                + nodes + (nodes == 1 ? " node)" : " nodes)");
        String scaling = req.gpu()
                ? Money.format(hours) + " h (" + Money.format(req.estimateHours()) + " h on "
                + req.workload().estimate().get().gpu() + " × " + Money.format(req.referenceTflops()) + " / "
                + Money.format(index.tflops[row]) + " TFLOPS of " + index.entries[row].gpuModel()
                .map(GpuModel::name).orElse("?") + ")"
                : Money.format(hours) + " h (as estimated; CPU sizes are not scaled)";
        String cost = Money.format(search.topTotal[0] * hours) + " USD";
        if (req.minimizeTime()) {
            return new Reason("R8", "shortest estimated time (optimize: time): " + scaling + ", then lowest cost: "
                    + total + " × " + Money.format(hours) + " h = " + cost + ties);
        }
        return new Reason("R8", "lowest cost to completion: " + total + " × " + scaling + " = " + cost + ties);
    }

    /** Rule 9: what the pass evaluated and what removed the rest. */
    Reason evaluation(CandidateSearch spotPass) {
        StringBuilder text = new StringBuilder();
        if (spotPass != null && spotPass != search) {
            text.append("spot prices first: no feasible candidate (")
                    .append(spotPass.lastConstraint().describe(req, true))
                    .append(" removed the last), so on-demand prices: ");
        } else {
            text.append(search.spot ? "spot prices: " : "on-demand prices: ");
        }
        text.append(search.considered).append(" rows of the ").append(req.gpu() ? "ND and NC" : req.training()
                ? "E and M" : "F").append(" families considered, ").append(search.feasible).append(" feasible");
        String removed = removals(search.failedFirst);
        if (!removed.isEmpty()) {
            text.append("; removed: ").append(removed);
        }
        text.append(examples(index, search));
        return new Reason("R9", text.toString());
    }

    /** "price unknown" when a row fitting everything else has no price and would have been preferred. */
    Reason unpriced() {
        if (search.unpricedRow < 0 || search.unpricedPreference > search.topPreference[0]) {
            return null;
        }
        int row = search.unpricedRow;
        return new Reason("R9", "price unknown: " + search.unpricedCount + " row(s) fit every other constraint "
                + "but have no " + (search.spot ? "spot" : "on-demand") + " price, e.g. " + index.name(row) + " in "
                + index.regionName(row) + "; an unknown price is never taken as cheapest, so they are not candidates");
    }

    /** Why the kept row in {@code slot} lost to the chosen one. */
    String lostBecause(int slot) {
        int row = search.top[slot];
        int best = search.top[0];
        if (search.topPreference[slot] != search.topPreference[0]) {
            if (req.gpu() && req.training()) {
                return "NC family; the ND family is preferred for training and a feasible ND size exists (R2)";
            }
            return "RDMA (InfiniBand) size; non-RDMA sizes are preferred for inference (R4)";
        }
        double difference = search.topPrimary[slot] - search.topPrimary[0];
        if (difference != 0) {
            if (req.minimizeTime()) {
                return "estimated " + Money.format(difference) + " h slower (R8)";
            }
            if (req.hasEstimate()) {
                return "estimated cost to completion " + Money.format(difference) + " USD higher (R8)";
            }
            return "costs " + Money.perHour(difference) + " more (R8)";
        }
        double secondary = search.topSecondary[slot] - search.topSecondary[0];
        if (secondary != 0) {
            return "same estimated time, estimated cost " + Money.format(secondary) + " USD higher (R8)";
        }
        if (index.releaseYear[row] != index.releaseYear[best]) {
            return "same " + (req.hasEstimate() ? "cost" : "price") + "; tie broken by the newer GPU ("
                    + index.releaseYear[best] + " vs " + index.releaseYear[row] + ") (R8)";
        }
        if (index.sizeRank[row] != index.sizeRank[best]) {
            return "same " + (req.hasEstimate() ? "cost" : "price") + "; tie broken by size name (R8)";
        }
        return "same price; tie broken by region name (R8)";
    }

    /** Which retired series and which restriction removed rows, e.g. {@code ; retired series NCv3 (...)}. */
    static String examples(CatalogIndex index, CandidateSearch search) {
        StringBuilder text = new StringBuilder();
        if (search.retiredExample >= 0) {
            int row = search.retiredExample;
            text.append("; retired series are never recommended (e.g. ").append(index.name(row)).append(", ")
                    .append(index.retiredSeries[row]).append(')');
        }
        if (search.restrictedExample >= 0) {
            int row = search.restrictedExample;
            text.append("; restricted: ").append(index.name(row)).append(" in ").append(index.regionName(row))
                    .append(" (").append(index.restriction[row]).append(')');
        }
        return text.toString();
    }

    /** {@code region 12, GPU count 30}: what removed how many rows, in evaluation order. */
    static String removals(int[] counts) {
        StringBuilder text = new StringBuilder();
        for (Constraint constraint : Constraint.ALL) {
            int count = counts[constraint.ordinal()];
            if (count > 0) {
                if (text.length() > 0) {
                    text.append(", ");
                }
                text.append(label(constraint)).append(' ').append(count);
            }
        }
        return text.toString();
    }

    static String label(Constraint constraint) {
        return switch (constraint) {
            case FAMILY -> "family";
            case RETIRED -> "retired";
            case RESTRICTED -> "restricted";
            case EXCLUDED_KIND -> "Arm64/burstable/basic";
            case PRICE -> "price unknown";
            case REGION -> "region";
            case GPU_COUNT -> "GPU count";
            case GPU_MEMORY -> "GPU memory";
            case GPU_VENDOR -> "GPU vendor";
            case VCPUS -> "vCPUs";
            case MEMORY -> "memory";
            case INTERCONNECT -> "interconnect";
            case THROUGHPUT -> "throughput unknown";
            case BUDGET -> "budget";
        };
    }
}
