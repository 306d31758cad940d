package dev.gantry.core.advisor;

import dev.gantry.model.Money;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Interconnect;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Rule 10: the NO_FEASIBLE_VM error. It names the constraint that removed the last candidates and, for each
 * constraint the user could relax (GPU memory, GPU vendor, regions, interconnect, budget), the best plan that relaxing
 * only that constraint would give.
 */
final class NoFeasibleVm {
    private NoFeasibleVm() {
    }

    /**
     * @param spotPass the spot pass that found nothing, if one ran
     * @param lastPass the on-demand pass that found nothing
     */
    static GantryException explain(CatalogIndex index, Requirements req, Optional<SearchPass> spotPass,
                                   SearchPass lastPass) {
        StringBuilder message = new StringBuilder();
        message.append("no VM size fits workload '").append(req.workload().name()).append("' (")
                .append(req.gpu() ? "GPU " : "CPU ").append(req.training() ? "training" : "inference").append("): ");
        if (lastPass.considered() == 0) {
            message.append("the catalog has no ").append(req.gpu() ? "ND or NC" : req.training() ? "E or M" : "F")
                    .append(" sizes");
        } else {
            Constraint last = lastPass.lastConstraint();
            message.append(last.describe(req, lastPass.spot())).append(" removed the last ")
                    .append(lastPass.removed().count(last)).append(" candidate(s) of ")
                    .append(lastPass.considered());
            spotPass.ifPresent(spot -> message.append(" on on-demand prices (spot prices: ")
                    .append(spot.lastConstraint().describe(req, true)).append(" removed the last)"));
            message.append("; removed in order: ").append(lastPass.removed().text())
                    .append(Explanations.examples(index, req, lastPass));
            quota(index, req, spotPass, lastPass, message);
        }
        List<String> nearest = new ArrayList<>();
        if (req.gpu() && req.minGpuMemory().isPresent()) {
            relax(index, req, Requirements::anyGpuMemory, "relax resources.gpuMemoryGib", nearest);
        }
        if (req.gpu() && req.vendor() != GpuVendor.ANY) {
            relax(index, req, Requirements::anyVendor, "allow gpuVendor any", nearest);
        }
        if (!req.regions().names().isEmpty()) {
            relax(index, req, Requirements::anyRegion, "allow another region", nearest);
        }
        if (req.interconnect() != Interconnect.ETHERNET && (req.gpu() || req.interconnect() == Interconnect.INFINIBAND)) {
            relax(index, req, Requirements::ethernet, "allow interconnect ethernet", nearest);
        }
        if (req.maxPerHour().isPresent() || req.maxTotal().isPresent() && req.estimate().isPresent()) {
            relax(index, req, Requirements::noBudget, "raise the budget", nearest);
        }
        List<UnaryOperator<Requirements>> all = List.of(Requirements::anyGpuMemory, Requirements::anyVendor,
                Requirements::anyRegion, Requirements::ethernet, Requirements::noBudget);
        if (nearest.isEmpty()) {
            // No single relaxation is enough: say what relaxing all of them together would give.
            relax(index, req, r -> {
                Requirements relaxed = r;
                for (UnaryOperator<Requirements> relaxation : all) {
                    relaxed = relaxation.apply(relaxed);
                }
                return relaxed;
            }, "no single relaxation is enough; relaxing GPU memory, GPU vendor, regions, interconnect and budget "
                    + "together gives", nearest);
        }
        message.append(". Nearest alternatives: ");
        message.append(nearest.isEmpty()
                ? "none, even with GPU memory, GPU vendor, regions, interconnect and budget relaxed; check the GPU "
                + "count, vCPUs and memory per node against the sizes in the catalog"
                : String.join("; ", nearest));
        return new GantryException(ErrorCode.NO_FEASIBLE_VM, message.toString());
    }

    /** The quotas that removed candidates, region by region, with what to request. */
    private static void quota(CatalogIndex index, Requirements req, Optional<SearchPass> spotPass, SearchPass lastPass,
                              StringBuilder message) {
        List<dev.gantry.api.Reason> lost = new ArrayList<>();
        new CapacityReasons(index, req).lost(spotPass, lastPass, lost);
        for (dev.gantry.api.Reason reason : lost) {
            message.append("; ").append(reason.text());
        }
    }

    private static void relax(CatalogIndex index, Requirements req, UnaryOperator<Requirements> relaxation,
                              String label, List<String> out) {
        Requirements relaxed = relaxation.apply(req);
        SearchPass found = null;
        if (relaxed.wantSpot()) {
            found = CandidateSearch.run(index, relaxed, true);
        }
        if (found == null || !found.found()) {
            found = CandidateSearch.run(index, relaxed, false);
        }
        if (!found.found()) {
            return;
        }
        Candidate best = found.best();
        int row = best.row();
        StringBuilder text = new StringBuilder(label);
        if (label.startsWith("raise the budget")) {
            List<String> raises = new ArrayList<>();
            if (req.maxPerHour().isPresent()) {
                raises.add(Money.perHour(best.total()));
            }
            if (req.maxTotal().isPresent() && best.hours().isPresent()) {
                raises.add("$" + Money.format(best.total() * best.hours().getAsDouble()) + " to completion ("
                        + Money.format(best.hours().getAsDouble()) + " h estimated)");
            }
            text.append(" to ").append(String.join(" and ", raises));
        }
        text.append(": ").append(index.name(row)).append(" in ").append(index.regionName(row));
        if (index.gpuCount[row] > 0) {
            text.append(" (").append(index.gpuCount[row]).append(" × ")
                    .append(Money.format(index.gpuMemoryGib[row])).append(" GiB, ")
                    .append(Requirements.lower(index.vendor[row])).append(index.rdma[row] ? ", RDMA" : "")
                    .append(')');
        }
        text.append(" at ").append(Money.perHour(best.total())).append(found.spot() ? " spot" : " on-demand");
        out.add(text.toString());
    }
}
