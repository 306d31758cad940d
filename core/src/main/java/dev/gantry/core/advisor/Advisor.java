package dev.gantry.core.advisor;

import dev.gantry.api.Alternative;
import dev.gantry.api.CatalogInfo;
import dev.gantry.api.HourlyPrice;
import dev.gantry.api.OrchestratorAdvice;
import dev.gantry.api.Plan;
import dev.gantry.api.Reason;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.images.ImageChoice;
import dev.gantry.images.ImageChooser;
import java.time.Clock;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Turns a workload into a plan by Azure's guidance for AI workloads on IaaS: the VM size, region, node count and
 * capacity type by sizing rules R1-R10 (see docs/advisor.md), the image from the {@link ImageChooser}, and the
 * orchestrator advice; every decision carries its reason and the best rejected candidates say why they lost.
 *
 * <p>The catalog is indexed once, in the constructor; {@link #plan} is safe to call from several threads.
 */
public final class Advisor {
    /** Catalog prices older than this many days are flagged in the plan's warnings. */
    static final long STALE_AFTER_DAYS = 90;

    private final CatalogIndex index;
    private final ImageChooser images;
    private final AdvisorSettings settings;
    private final Clock clock;

    public Advisor(Catalog catalog, ImageChooser images, AdvisorSettings settings) {
        this(catalog, images, settings, Clock.systemUTC());
    }

    /** With a clock, so that the catalog's age in a plan is reproducible in tests. */
    Advisor(Catalog catalog, ImageChooser images, AdvisorSettings settings, Clock clock) {
        this.index = new CatalogIndex(Objects.requireNonNull(catalog, "catalog"));
        this.images = Objects.requireNonNull(images, "images");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Plans one workload.
     *
     * @throws dev.gantry.api.GantryException SPEC_INVALID when the workload, with the overrides and defaults, asks
     *     for something inconsistent (every problem listed); NO_FEASIBLE_VM when no catalog row satisfies it
     */
    public Plan plan(Workload workload, PlanOverrides overrides) {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(overrides, "overrides");
        Requirements req = Requirements.resolve(workload, overrides, settings, index);

        // Rule 9: spot first when wanted; on-demand only if spot finds nothing.
        CandidateSearch spotPass = req.wantSpot() ? new CandidateSearch(index, req, true).run() : null;
        CandidateSearch search = spotPass != null && spotPass.found() ? spotPass
                : new CandidateSearch(index, req, false).run();
        if (!search.found()) {
            throw NoFeasibleVm.explain(index, req, spotPass, search);
        }

        int row = search.top[0];
        VmSize size = index.entries[row].size();
        int nodes = search.topNodes[0];
        double perNode = index.price(row, search.spot);
        Explanations explain = new Explanations(index, req, search);

        List<Reason> reasons = new ArrayList<>();
        List<String> warnings = new ArrayList<>(req.warnings());
        copy(req.reasons(), "R1", reasons);
        copy(req.reasons(), "M1", reasons);
        explain.hardware(reasons);
        reasons.add(explain.interconnect());
        copy(req.reasons(), "R6", reasons);
        if (spotPass != null && spotPass != search) {
            reasons.add(new Reason("R6", "no feasible candidate has a spot price, so on-demand capacity"));
        }
        copy(req.reasons(), "R7", reasons);
        reasons.add(explain.objective());
        reasons.add(explain.evaluation(spotPass));
        Reason unpriced = explain.unpriced();
        if (unpriced != null) {
            reasons.add(unpriced);
        }
        reasons.add(catalogAge(warnings));
        modelSizeWarning(req, search, warnings);

        ImageChoice image = images.choose(size, workload);
        reasons.addAll(image.reasons());
        if (image.reasons().isEmpty()) {
            reasons.add(new Reason("I1", "image " + image.image().name() + " (" + image.image().id() + ")"));
        }
        warnings.addAll(image.warnings());

        List<Alternative> alternatives = new ArrayList<>(search.topCount - 1);
        for (int slot = 1; slot < search.topCount; slot++) {
            int other = search.top[slot];
            alternatives.add(new Alternative(index.name(other), index.regionName(other), search.spot,
                    search.topTotal[slot], explain.lostBecause(slot)));
        }
        if (search.spot && alternatives.size() < CandidateSearch.KEEP - 1) {
            // Spot won by rule 9's order; the on-demand candidates are what the user would get without spot.
            CandidateSearch onDemand = new CandidateSearch(index, req, false).run();
            for (int slot = 0; slot < onDemand.topCount && alternatives.size() < CandidateSearch.KEEP - 1; slot++) {
                int other = onDemand.top[slot];
                alternatives.add(new Alternative(index.name(other), index.regionName(other), false,
                        onDemand.topTotal[slot], "on-demand capacity: spot prices come first when the work "
                        + "tolerates eviction and spot is wanted (R6, R9)"));
            }
        }
        OrchestratorAdvice orchestrator = OrchestratorAdvisor.advise(workload, nodes, size.rdma(), settings);
        Plan.Builder plan = Plan.builder(workload, size)
                .region(index.regionName(row))
                .nodes(nodes)
                .spot(search.spot)
                .pricePerHour(new HourlyPrice(perNode, search.topTotal[0], "USD"))
                .image(image.image())
                .orchestrator(orchestrator)
                .reasons(reasons)
                .alternatives(alternatives)
                .catalog(index.catalog.info());
        if (req.hasEstimate()) {
            double hours = search.topHours[0];
            plan.estimatedHours(hours).estimatedCost(search.topTotal[0] * hours);
        }
        warnings.forEach(plan::warning);
        return plan.build();
    }

    private Reason catalogAge(List<String> warnings) {
        CatalogInfo info = index.catalog.info();
        LocalDate today = LocalDate.now(clock);
        long days = ChronoUnit.DAYS.between(info.date(), today);
        if (days > STALE_AFTER_DAYS) {
            warnings.add("the catalog's prices are " + days + " days old (" + info.date() + "); refresh the "
                    + "catalog or check current prices before relying on them");
        }
        return new Reason("C1", "catalog " + info.source() + " with prices of " + info.date() + ", " + days
                + (days == 1 ? " day" : " days") + " old on " + today);
    }

    /** M1: an explicit GPU request far from what the model needs. */
    private static void modelSizeWarning(Requirements req, CandidateSearch search, List<String> warnings) {
        if (!req.hasModelSize() || req.explicitGpus() < 1) {
            return;
        }
        int gpus = search.topGpus[0];
        int nodes = search.topNodes[0];
        double memory = gpus * nodes * search.topGpuMemory();
        String given = gpus + " GPUs × " + nodes + (nodes == 1 ? " node" : " nodes") + " give "
                + Money.gib(memory) + " GiB of GPU memory";
        if (memory < req.modelNeedGib()) {
            warnings.add("resources.gpus is below what the model needs: " + given + ", the model needs about "
                    + Money.gib(req.modelNeedGib()) + " GiB (M1)");
        } else if (memory > 4 * req.modelNeedGib()) {
            warnings.add("resources.gpus is far above what the model needs: " + given + ", the model needs about "
                    + Money.gib(req.modelNeedGib()) + " GiB (M1); fewer GPUs would cost less");
        }
    }

    private static void copy(List<Reason> from, String rule, List<Reason> to) {
        for (Reason reason : from) {
            if (reason.rule().equals(rule)) {
                to.add(reason);
            }
        }
    }
}
