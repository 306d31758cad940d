package dev.gantry.core.advisor;

import dev.gantry.model.Money;
import dev.gantry.model.PlanOverrides;
import dev.gantry.api.Alternative;
import dev.gantry.api.CatalogInfo;
import dev.gantry.api.HourlyPrice;
import dev.gantry.api.OrchestratorAdvice;
import dev.gantry.api.Plan;
import dev.gantry.api.Reason;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.quota.SubscriptionCapacity;
import dev.gantry.model.CatalogAge;
import dev.gantry.images.ImageChoice;
import dev.gantry.images.ImageChooser;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns a workload into a plan by Azure's guidance for AI workloads on IaaS: the VM size, region, node count and
 * capacity type by sizing rules R1-R10 (see docs/advisor.md), the image from the {@link ImageChooser}, and the
 * orchestrator advice; every decision carries its reason and the best rejected candidates say why they lost.
 *
 * <p>The catalog is indexed once, in the constructor; {@link #plan} is safe to call from several threads.
 */
public final class Advisor {
    /** Catalog prices older than this many days (or copied longer ago) are flagged in the plan's warnings. */
    static final long STALE_AFTER_DAYS = 90;

    private final CatalogIndex index;
    private final ImageChooser images;
    private final AdvisorSettings settings;
    private final Clock clock;

    public Advisor(Catalog catalog, ImageChooser images, AdvisorSettings settings) {
        this(catalog, images, settings, Clock.systemUTC());
    }

    /** With a clock, which dates the catalog's age in plans (reproducible in tests). */
    public Advisor(Catalog catalog, ImageChooser images, AdvisorSettings settings, Clock clock) {
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
        return plan(workload, overrides, Optional.empty());
    }

    /**
     * Plans one workload within what a subscription allows, when one is given: the sizes it is offered in each
     * region, the zones asked (the workload's, else the configuration's {@code defaults.zones}, per region), and its
     * vCPU quotas less what is in use, as constraints of the search (a
     * candidate that does not fit is lost, and the next best feasible one wins, in another region if need be; each
     * region lost to quota is a reason with its figures). Without one, quota is not checked, zones are checked only
     * as the catalog records them (a refresh with a subscription records them), and the plan says which.
     *
     * @param subscription what the subscription allows, read from Azure as the search needs it; empty for none
     * @throws dev.gantry.api.GantryException as {@link #plan(Workload, PlanOverrides)}, and AUTH_FAILED or
     *     REMOTE_ERROR when the subscription cannot be read
     */
    public Plan plan(Workload workload, PlanOverrides overrides, Optional<SubscriptionCapacity> subscription) {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(overrides, "overrides");
        Objects.requireNonNull(subscription, "subscription");
        Requirements req = Requirements.resolve(workload, overrides, settings, index, subscription);

        // Rule 9: spot first when wanted; on-demand only if spot finds nothing.
        Optional<SearchPass> spotPass = req.wantSpot()
                ? Optional.of(CandidateSearch.run(index, req, true)) : Optional.empty();
        Optional<SearchPass> failedSpotPass = spotPass.filter(pass -> !pass.found());
        SearchPass search = spotPass.isPresent() && spotPass.get().found() ? spotPass.get()
                : CandidateSearch.run(index, req, false);
        if (!search.found()) {
            throw NoFeasibleVm.explain(index, req, spotPass, search);
        }

        Candidate best = search.best();
        VmSize size = index.entries[best.row()].size();
        Explanations explain = new Explanations(index, req, search);

        List<Reason> reasons = new ArrayList<>();
        List<String> warnings = new ArrayList<>(req.warnings());
        copy(req.reasons(), "R1", reasons);
        copy(req.reasons(), "M1", reasons);
        explain.hardware(reasons);
        reasons.add(explain.interconnect());
        copy(req.reasons(), "R6", reasons);
        if (failedSpotPass.isPresent()) {
            reasons.add(new Reason("R6", "no feasible candidate has a spot price, so on-demand capacity"));
        }
        copy(req.reasons(), "R7", reasons);
        reasons.add(explain.objective());
        reasons.add(explain.evaluation(failedSpotPass));
        explain.unpriced().ifPresent(reasons::add);
        new CapacityReasons(index, req).add(search, failedSpotPass, reasons);
        reasons.add(catalogAge(warnings));
        modelSizeWarning(req, best, index.gpuMemoryGib[best.row()], warnings);

        ImageChoice image = images.choose(size, workload);
        reasons.addAll(image.reasons());
        if (image.reasons().isEmpty()) {
            reasons.add(new Reason("I1", "image " + image.image().name() + " (" + image.image().id() + ")"));
        }
        warnings.addAll(image.warnings());

        List<Alternative> alternatives = new ArrayList<>(CandidateSearch.KEEP - 1);
        for (int slot = 1; slot < search.ranked().size(); slot++) {
            Candidate other = search.ranked().get(slot);
            alternatives.add(new Alternative(other.size(), other.region(), search.spot(), other.total(),
                    explain.lostBecause(slot)));
        }
        if (search.spot() && alternatives.size() < CandidateSearch.KEEP - 1) {
            // Spot won by rule 9's order; the on-demand candidates are what the user would get without spot.
            SearchPass onDemand = CandidateSearch.run(index, req, false);
            for (Candidate other : onDemand.ranked()) {
                if (alternatives.size() >= CandidateSearch.KEEP - 1) {
                    break;
                }
                alternatives.add(new Alternative(other.size(), other.region(), false, other.total(),
                        "on-demand capacity: spot prices come first when the work tolerates eviction and spot is "
                        + "wanted (R6, R9)"));
            }
        }
        OrchestratorAdvice orchestrator = OrchestratorAdvisor.advise(workload, best.nodes(), size.rdma(), settings);
        // The planned workload carries the configuration's zones too: placing the VMs reads the zones asked there.
        Plan.Builder plan = Plan.builder(req.zones().appliedTo(workload), size)
                .region(best.region())
                .zones(req.capacity().planZones(best.row()))
                .nodes(best.nodes())
                .spot(search.spot())
                .pricePerHour(new HourlyPrice(best.pricePerNode(), best.total(), "USD"))
                .image(image.image())
                .orchestrator(orchestrator)
                .reasons(reasons)
                .alternatives(alternatives)
                .catalog(index.catalog.info());
        if (req.estimate().isPresent()) {
            double hours = best.hours().getAsDouble();
            plan.estimatedHours(hours).estimatedCost(best.total() * hours);
        }
        warnings.forEach(plan::warning);
        return plan.build();
    }

    private Reason catalogAge(List<String> warnings) {
        CatalogInfo info = index.catalog.info();
        LocalDate today = LocalDate.now(clock);
        String stale = CatalogAge.staleWarning(info, today, STALE_AFTER_DAYS);
        if (stale != null) {
            warnings.add(stale);
        }
        return new Reason("C1", CatalogAge.reason(info, today));
    }

    /** M1: an explicit GPU request far from what the model needs. */
    private static void modelSizeWarning(Requirements req, Candidate best, double memoryPerGpu,
                                         List<String> warnings) {
        if (req.modelNeedGib().isEmpty() || req.explicitGpus().isEmpty()) {
            return;
        }
        double need = req.modelNeedGib().getAsDouble();
        int gpus = best.gpus();
        int nodes = best.nodes();
        double memory = gpus * nodes * memoryPerGpu;
        String given = gpus + " GPUs × " + nodes + (nodes == 1 ? " node" : " nodes") + " give "
                + Money.gib(memory) + " GiB of GPU memory";
        if (memory < need) {
            warnings.add("resources.gpus is below what the model needs: " + given + ", the model needs about "
                    + Money.gib(need) + " GiB (M1)");
        } else if (memory > 4 * need) {
            warnings.add("resources.gpus is far above what the model needs: " + given + ", the model needs about "
                    + Money.gib(need) + " GiB (M1); fewer GPUs would cost less");
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
