package dev.gantry.core.advisor;

import dev.gantry.model.Money;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Interconnect;
import dev.gantry.api.Reason;
import dev.gantry.api.VmSize;
import dev.gantry.core.catalog.GpuModel;
import java.util.List;
import java.util.Optional;

/** The reasons a search's result gives for rules 2-5, 8 and 9, and why each alternative lost. */
final class Explanations {
    private final CatalogIndex index;
    private final Requirements req;
    private final SearchPass search;

    Explanations(CatalogIndex index, Requirements req, SearchPass search) {
        this.index = index;
        this.req = req;
        this.search = search;
    }

    /** Rule 2 (GPU families) or rule 5 (CPU families), then rule 3 (GPU fit). */
    void hardware(List<Reason> out) {
        Candidate best = search.best();
        int row = best.row();
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
                        + "feasible (" + search.ndRemoved().text() + ")"));
            } else {
                out.add(new Reason("R2", "GPU training uses the ND family; the NV family (visualization, "
                        + "fractional GPUs) is never chosen"));
            }
        } else {
            out.add(new Reason("R2", "GPU inference uses the NC and ND families; the NV family (visualization, "
                    + "fractional GPUs) is never chosen"));
        }
        GpuSpec gpu = size.gpu().orElseThrow();
        int nodes = best.nodes();
        StringBuilder text = new StringBuilder();
        text.append(size.name()).append(" has ").append(gpu.count()).append(" × ").append(gpu.model())
                .append(" (").append(Money.format(gpu.memoryGib())).append(" GiB each, ")
                .append(Requirements.lower(gpu.vendor())).append(") per node; ");
        if (req.explicitGpus().isPresent()) {
            text.append("the count equals resources.gpus = ").append(req.explicitGpus().getAsInt());
        } else if (req.modelNeedGib().isPresent()) {
            text.append(gpu.count()).append(" GPUs × ").append(Money.format(gpu.memoryGib())).append(" GiB × ")
                    .append(nodes).append(nodes == 1 ? " node = " : " nodes = ")
                    .append(Money.gib(gpu.count() * gpu.memoryGib() * nodes)).append(" GiB >= ")
                    .append(Money.gib(req.modelNeedGib().getAsDouble())).append(" GiB needed, the smallest count that fits");
        } else {
            text.append("the count equals the default of 1 GPU per node");
        }
        req.minGpuMemory().ifPresent(floor -> text.append("; memory per GPU >= resources.gpuMemoryGib = ")
                .append(Money.format(floor)));
        if (req.vendor() != GpuVendor.ANY) {
            text.append("; vendor ").append(Requirements.lower(req.vendor())).append(" as asked");
        }
        out.add(new Reason("R3", text.toString()));
    }

    /** Rule 4. */
    Reason interconnect() {
        int row = search.best().row();
        int nodes = search.best().nodes();
        String name = index.name(row);
        if (req.interconnect() == Interconnect.INFINIBAND) {
            return new Reason("R4", "interconnect infiniband: RDMA-capable sizes only; " + name + " has RDMA");
        }
        if (req.rdmaRequired(nodes)) {
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
        Candidate best = search.best();
        int row = best.row();
        int nodes = best.nodes();
        double perNode = best.pricePerNode();
        String price = Money.format(perNode) + " USD/node-hour × " + nodes + (nodes == 1 ? " node" : " nodes")
                + " = " + Money.perHour(best.total());
        String ties = "; ties go to the newer GPU, then the size name, then the region name";
        if (req.estimate().isEmpty()) {
            return new Reason("R8", "lowest total price per hour: " + price + ties);
        }
        Requirements.Estimate estimate = req.estimate().get();
        double hours = best.hours().getAsDouble();
        String total = Money.perHour(best.total()) + " (" + Money.format(perNode) + " USD/node-hour × "
                + nodes + (nodes == 1 ? " node)" : " nodes)");
        String scaling = req.gpu()
                ? Money.format(hours) + " h (" + Money.format(estimate.hours()) + " h on "
                + estimate.referenceGpu() + " × " + Money.format(estimate.referenceTflops()) + " / "
                + Money.format(index.tflops[row]) + " TFLOPS of " + index.entries[row].gpuModel()
                .map(GpuModel::name).orElse("?") + ")"
                : Money.format(hours) + " h (as estimated; CPU sizes are not scaled)";
        String cost = Money.format(best.total() * hours) + " USD";
        if (estimate.minimizeTime()) {
            return new Reason("R8", "shortest estimated time (optimize: time): " + scaling + ", then lowest cost: "
                    + total + " × " + Money.format(hours) + " h = " + cost + ties);
        }
        return new Reason("R8", "lowest cost to completion: " + total + " × " + scaling + " = " + cost + ties);
    }

    /**
     * Rule 9: what the pass evaluated and what removed the rest.
     *
     * @param failedSpotPass the spot pass that found nothing before this on-demand pass, if one ran
     */
    Reason evaluation(Optional<SearchPass> failedSpotPass) {
        StringBuilder text = new StringBuilder();
        if (failedSpotPass.isPresent()) {
            text.append("spot prices first: no feasible candidate (")
                    .append(failedSpotPass.get().lastConstraint().describe(req, true))
                    .append(" removed the last), so on-demand prices: ");
        } else {
            text.append(search.spot() ? "spot prices: " : "on-demand prices: ");
        }
        text.append(search.considered()).append(" rows of the ").append(req.gpu() ? "ND and NC" : req.training()
                ? "E and M" : "F").append(" families considered, ").append(search.feasible()).append(" feasible");
        String removed = search.removed().text();
        if (!removed.isEmpty()) {
            text.append("; removed: ").append(removed);
        }
        text.append(examples(index, req, search));
        return new Reason("R9", text.toString());
    }

    /** "price unknown" when a row fitting everything else has no price and would have been preferred. */
    Optional<Reason> unpriced() {
        return search.unpriced().filter(rows -> rows.preference() <= search.best().preference()).map(rows -> {
            int row = rows.row();
            return new Reason("R9", "price unknown: " + rows.count() + " row(s) fit every other constraint "
                + "but have no " + (search.spot() ? "spot" : "on-demand") + " price, e.g. " + index.name(row) + " in "
                + index.regionName(row) + "; an unknown price is never taken as cheapest, so they are not candidates");
        });
    }

    /** Why the kept candidate in {@code slot} lost to the chosen one: the first step of the order that differs. */
    String lostBecause(int slot) {
        Candidate loser = search.ranked().get(slot);
        Candidate best = search.best();
        if (loser.preference() != best.preference()) {
            if (req.gpu() && req.training()) {
                return "NC family; the ND family is preferred for training and a feasible ND size exists (R2)";
            }
            return "RDMA (InfiniBand) size; non-RDMA sizes are preferred for inference (R4)";
        }
        double difference = loser.primary() - best.primary();
        if (difference != 0) {
            if (req.estimate().isPresent() && req.estimate().get().minimizeTime()) {
                return "estimated " + Money.format(difference) + " h slower (R8)";
            }
            if (req.estimate().isPresent()) {
                return "estimated cost to completion " + Money.format(difference) + " USD higher (R8)";
            }
            return "costs " + Money.perHour(difference) + " more (R8)";
        }
        double secondary = loser.secondary() - best.secondary();
        if (secondary != 0) {
            return "same estimated time, estimated cost " + Money.format(secondary) + " USD higher (R8)";
        }
        String same = "same " + (req.estimate().isPresent() ? "cost" : "price");
        if (loser.gpuReleaseYear() != best.gpuReleaseYear()) {
            return same + "; tie broken by the newer GPU (" + best.gpuReleaseYear() + " vs "
                    + loser.gpuReleaseYear() + ") (R8)";
        }
        if (loser.sizeRank() != best.sizeRank()) {
            return same + "; tie broken by size name (R8)";
        }
        return "same price; tie broken by region name (R8)";
    }

    /**
     * Which retired series, restriction, size the subscription is not offered and zone removed rows, e.g.
     * {@code ; retired series NCv3 (...)}.
     */
    static String examples(CatalogIndex index, Requirements req, SearchPass search) {
        StringBuilder text = new StringBuilder();
        search.retiredExample().ifPresent(row -> text.append("; retired series are never recommended (e.g. ").append(index.name(row)).append(", ")
                    .append(index.retiredSeries[row]).append(')'));
        search.restrictedExample().ifPresent(row -> text.append("; restricted: ").append(index.name(row)).append(" in ").append(index.regionName(row))
                    .append(" (").append(index.restriction[row]).append(')'));
        search.unofferedExample().ifPresent(row -> text.append("; not offered to the subscription (Resource SKUs): ")
                .append(index.name(row)).append(" in ").append(index.regionName(row)));
        search.zoneExample().ifPresent(row -> text.append("; not allocatable in the zones asked: ")
                .append(index.name(row)).append(" in ").append(index.regionName(row)).append(" (allocatable in ")
                .append(zoneList(req.capacity().allocatable(row)))
                .append(req.capacity().zonesFromCatalog() ? " as the catalog records" : "").append("; asked ")
                .append(zoneList(req.capacity().asked(row).orElse(List.of()))).append(" by ")
                .append(req.zones().source(index.regionName(row))).append(')'));
        return text.toString();
    }

    /** {@code zones 1, 2} or {@code no zone}. */
    static String zoneList(List<String> zones) {
        return zones.isEmpty() ? "no zone" : (zones.size() == 1 ? "zone " : "zones ") + String.join(", ", zones);
    }
}
