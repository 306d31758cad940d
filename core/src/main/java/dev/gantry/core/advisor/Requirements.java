package dev.gantry.core.advisor;

import dev.gantry.model.Money;
import dev.gantry.model.PlanOverrides;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Interconnect;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Optimize;
import dev.gantry.api.Phase;
import dev.gantry.api.Problem;
import dev.gantry.api.Reason;
import dev.gantry.api.Resources;
import dev.gantry.api.SpotPolicy;
import dev.gantry.api.Workload;
import dev.gantry.core.catalog.GpuModel;
import dev.gantry.core.quota.SubscriptionCapacity;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * What one workload asks of a VM, resolved from the workload, the caller's overrides and the configuration's defaults
 * (rules 1, 3, 5, 6, 7 and M1), with the reasons for each resolution. The search reads only these fields; what the
 * workload leaves to the advisor is empty, never a sentinel value.
 *
 * @param workload the workload
 * @param gpu true for GPU hardware (rule 1)
 * @param training true for the training phase
 * @param explicitGpus GPUs per node asked explicitly (at least 1); empty when the advisor decides
 * @param modelNeedGib total GPU memory the model needs (M1); empty without a model size
 * @param baseNodes nodes asked
 * @param minGpuMemory minimum memory per GPU; empty when not asked
 * @param vendor wanted GPU vendor ({@link GpuVendor#ANY} for any)
 * @param minVcpus minimum usable vCPUs per node
 * @param minMemory minimum memory per node, GiB (0 when not asked: every size has memory)
 * @param interconnect network between nodes
 * @param regions the regions allowed and where they came from
 * @param maxPerHour budget for all nodes; empty without a budget
 * @param maxTotal budget to completion ({@code budget.maxTotal}, USD); empty without one
 * @param estimate the runtime estimate (rule 8); empty without one
 * @param policy the effective spot policy
 * @param wantSpot whether spot prices are tried first (rule 6)
 * @param reasons the reasons decided while resolving
 * @param warnings the warnings found while resolving
 * @param capacity the subscription's capacity and the zones asked, as this plan checks them
 * @param zones the zones asked per region and who asked them (the workload, else the configuration)
 */
record Requirements(
        Workload workload,
        boolean gpu,
        boolean training,
        OptionalInt explicitGpus,
        OptionalDouble modelNeedGib,
        int baseNodes,
        OptionalDouble minGpuMemory,
        GpuVendor vendor,
        int minVcpus,
        double minMemory,
        Interconnect interconnect,
        Regions regions,
        OptionalDouble maxPerHour,
        OptionalDouble maxTotal,
        Optional<Estimate> estimate,
        SpotPolicy policy,
        boolean wantSpot,
        List<Reason> reasons,
        List<String> warnings,
        PlanCapacity capacity,
        AskedZones zones) {

    /**
     * The regions a plan may use.
     *
     * @param names the region names asked (empty: every region)
     * @param source where the names came from, for the reasons
     * @param allowed which catalog regions are allowed, by region id
     */
    record Regions(List<String> names, String source, AllowedRegions allowed) {
        Regions {
            names = List.copyOf(names);
        }
    }

    /**
     * A runtime estimate (rule 8) on a reference GPU whose throughput the catalog knows.
     *
     * @param hours hours on the reference GPU
     * @param referenceGpu the reference GPU model
     * @param referenceTflops the reference GPU's tensor TFLOPS
     * @param minimizeTime {@code optimize: time}: the estimated hours come before the cost
     */
    record Estimate(double hours, String referenceGpu, double referenceTflops, boolean minimizeTime) {
    }

    static final int DEFAULT_VCPUS = 2;

    /**
     * Estimated hours to completion on a row (rule 8): the estimate's hours scaled by the reference GPU's throughput
     * over the row's on GPU, the estimate's hours on CPU; empty without an estimate.
     */
    OptionalDouble hoursOn(CatalogIndex index, int row) {
        if (estimate.isEmpty()) {
            return OptionalDouble.empty();
        }
        Estimate e = estimate.get();
        return OptionalDouble.of(gpu ? e.hours() * e.referenceTflops() / index.tflops[row] : e.hours());
    }

    /** How {@code budget.maxTotal} bears on the candidates, for reason R7; empty without one. */
    private static String totalBudgetNote(Workload workload, OptionalDouble maxTotal) {
        if (maxTotal.isEmpty()) {
            return "";
        }
        String budget = "; budget.maxTotal = $" + Money.format(maxTotal.getAsDouble());
        return workload.estimate().isPresent()
                ? budget + " excludes candidates whose estimated cost to completion is higher, and bounds the run's "
                + "spend"
                : budget + " bounds the run's spend; without an estimate it excludes no candidate";
    }


    static Requirements resolve(Workload workload, PlanOverrides overrides, AdvisorSettings settings,
                                CatalogIndex index, Optional<SubscriptionCapacity> subscription) {
        List<Reason> reasons = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        Resources resources = workload.resources();
        boolean training = workload.phase() == Phase.TRAINING;
        String phase = lower(workload.phase());
        String model = lower(workload.model());

        // Rule 1: hardware class.
        boolean classGpu = workload.model() != ModelClass.SMALL;
        boolean gpu = resources.gpus().isPresent() ? resources.gpus().getAsInt() > 0 : classGpu;
        String guidance = model + " models use " + (classGpu ? "GPUs" : "CPUs") + " by Azure's guidance";
        if (gpu != classGpu) {
            reasons.add(new Reason("R1", guidance + "; resources.gpus = " + resources.gpus().getAsInt()
                    + " asks for " + (gpu ? "GPUs" : "CPUs only") + ", so this plan departs from the guidance"));
        } else {
            reasons.add(new Reason("R1", guidance + (resources.gpus().isPresent()
                    ? " (resources.gpus = " + resources.gpus().getAsInt() + " agrees)" : "")));
        }
        if (!gpu && (resources.gpuMemoryGib().isPresent() || resources.gpuVendor() != GpuVendor.ANY)) {
            warnings.add("resources.gpuMemoryGib and resources.gpuVendor are ignored: the plan uses CPUs only");
        }

        // Rule 3 and M1: GPUs per node and memory.
        OptionalInt explicitGpus = gpu ? resources.gpus() : OptionalInt.empty();
        OptionalDouble need = OptionalDouble.empty();
        if (workload.modelSize().isPresent()) {
            if (gpu) {
                need = OptionalDouble.of(ModelSizing.neededGib(workload.modelSize().get(), workload.phase()));
                String arithmetic = ModelSizing.arithmetic(workload.modelSize().get(), workload.phase());
                reasons.add(new Reason("M1", explicitGpus.isPresent()
                        ? arithmetic + "; resources.gpus = " + explicitGpus.getAsInt() + " is explicit, so the plan keeps it "
                        + "and compares the GPU memory it gives with this figure"
                        : arithmetic + "; each size must have the smallest GPU count per node (1, 2, 4 or 8) "
                        + "whose memory holds it, with more nodes of 8 GPUs when 8 are not enough"));
            } else {
                reasons.add(new Reason("M1", "modelSize sizes GPU memory only; the plan uses CPUs, so it is "
                        + "not used"));
            }
        }

        // Rule 7: regions.
        List<String> regions;
        String regionSource;
        if (!overrides.regions().isEmpty()) {
            regions = overrides.regions();
            regionSource = "the command line";
        } else if (!workload.regions().isEmpty()) {
            regions = workload.regions();
            regionSource = "the workload";
        } else if (!settings.defaultRegions().isEmpty()) {
            regions = settings.defaultRegions();
            regionSource = "the configuration";
        } else {
            regions = List.of();
            regionSource = "every region in the catalog";
        }
        AllowedRegions allowed = AllowedRegions.all(index.regionNames.length);
        if (!regions.isEmpty()) {
            List<String> unknown = new ArrayList<>();
            List<Integer> known = new ArrayList<>();
            for (String name : regions) {
                Integer id = index.regionIds.get(name);
                if (id == null) {
                    unknown.add(name);
                } else {
                    known.add(id);
                }
            }
            allowed = AllowedRegions.only(index.regionNames.length, known);
            if (!unknown.isEmpty()) {
                warnings.add("regions " + unknown + " are not in the catalog (it has " + index.catalog.regions()
                        + "); they offer no candidates");
            }
        }
        OptionalDouble maxPerHour = workload.budget().map(dev.gantry.api.Budget::maxPerHour)
                .orElse(OptionalDouble.empty());
        OptionalDouble maxTotal = workload.budget().map(dev.gantry.api.Budget::maxTotal)
                .orElse(OptionalDouble.empty());
        reasons.add(new Reason("R7", (regions.isEmpty()
                ? "every region in the catalog " + index.catalog.regions() + " (no regions named by the command line, "
                + "the workload or the configuration)"
                : "regions " + regions + " from " + regionSource) + (maxPerHour.isPresent()
                ? "; budget.maxPerHour = " + Money.perHour(maxPerHour.getAsDouble()) + " for all nodes excludes dearer candidates"
                : workload.budget().isPresent() ? "; no budget per hour" : "; no budget")
                + totalBudgetNote(workload, maxTotal)));

        // Rule 8 inputs: the runtime estimate.
        Optional<Estimate> estimate = Optional.empty();
        boolean minimizeTime = workload.optimize() == Optimize.TIME;
        if (workload.estimate().isPresent()) {
            String reference = workload.estimate().get().gpu();
            Optional<GpuModel> facts = index.catalog.gpuModel(reference);
            if (facts.isEmpty() || !(facts.get().tensorTflops() > 0)) {
                problems.add(Problem.of("estimate.gpu", "'" + reference + "' is not a GPU model the catalog knows "
                        + "the throughput of; use one of " + knownModels(index)));
            } else {
                estimate = Optional.of(new Estimate(workload.estimate().get().hours(), reference,
                        facts.get().tensorTflops(), minimizeTime));
            }
        }
        if (workload.optimize() == Optimize.TIME && workload.estimate().isEmpty()) {
            warnings.add("optimize: time needs an estimate (estimate: {hours: ..., gpu: ...}); without one the plan "
                    + "minimizes the price per hour");
        }

        // Rule 6: capacity type.
        SpotPolicy policy;
        String policySource;
        if (overrides.spot().isPresent()) {
            policy = overrides.spot().get();
            policySource = "the command line";
        } else if (workload.spot().isPresent()) {
            policy = workload.spot().get();
            policySource = "the workload";
        } else if (settings.defaultSpot().isPresent()) {
            policy = settings.defaultSpot().get();
            policySource = "the configuration's default (the workload does not set spot)";
        } else {
            policy = SpotPolicy.NEVER;
            policySource = "the default (neither the workload nor the configuration sets spot)";
        }
        boolean wantSpot;
        String spotName = lower(policy);
        switch (policy) {
            case NEVER -> {
                wantSpot = false;
                reasons.add(new Reason("R6", "spot: never from " + policySource + ": on-demand prices only"));
            }
            case ALLOWED -> {
                wantSpot = workload.toleratesEviction();
                reasons.add(new Reason("R6", wantSpot
                        ? "spot: allowed from " + policySource + " and the work tolerates eviction ("
                        + (training ? "training with checkpoints" : "inference") + "): spot prices first"
                        : "spot: allowed from " + policySource + ", but training without a checkpoint loses its "
                        + "work when evicted: on-demand prices"));
            }
            default -> {
                wantSpot = true;
                if (training && workload.checkpoint().isEmpty()) {
                    problems.add(Problem.of("spot", spotName + " (from " + policySource + ") needs checkpoint for "
                            + "training: an evicted training run without checkpoints loses all its work; add "
                            + "checkpoint: {path: ..., every: 30m} or use spot: allowed"));
                }
                reasons.add(new Reason("R6", "spot: preferred from " + policySource + ": spot prices first"));
            }
        }
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.SPEC_INVALID, problems);
        }

        AskedZones zones = AskedZones.of(workload, settings.defaultZones());
        return new Requirements(workload, gpu, training, explicitGpus, need, resources.nodes(),
                gpu ? resources.gpuMemoryGib() : OptionalDouble.empty(), gpu ? resources.gpuVendor() : GpuVendor.ANY,
                resources.vcpus().orElse(DEFAULT_VCPUS), resources.memoryGib().orElse(0), resources.interconnect(),
                new Regions(regions, regionSource, allowed), maxPerHour, maxTotal, estimate, policy, wantSpot,
                List.copyOf(reasons), List.copyOf(warnings), PlanCapacity.of(index, subscription, zones.byRegion()),
                zones);
    }

    /** Rule 4 as a hard constraint: RDMA-capable sizes only, for infiniband and for multi-node GPU training. */
    boolean rdmaRequired(int nodeCount) {
        return interconnect == Interconnect.INFINIBAND
                || gpu && training && nodeCount > 1 && interconnect != Interconnect.ETHERNET;
    }

    /** Every catalog region allowed: the "allow another region" relaxation. */
    Requirements anyRegion() {
        return new Requirements(workload, gpu, training, explicitGpus, modelNeedGib, baseNodes, minGpuMemory, vendor,
                minVcpus, minMemory, interconnect,
                new Regions(List.of(), "every region", AllowedRegions.all(regions.allowed().size())), maxPerHour,
                maxTotal, estimate, policy, wantSpot, reasons, warnings, capacity, zones);
    }

    Requirements anyGpuMemory() {
        return new Requirements(workload, gpu, training, explicitGpus, modelNeedGib, baseNodes, OptionalDouble.empty(),
                vendor, minVcpus, minMemory, interconnect, regions, maxPerHour, maxTotal, estimate, policy, wantSpot,
                reasons, warnings, capacity, zones);
    }

    Requirements anyVendor() {
        return new Requirements(workload, gpu, training, explicitGpus, modelNeedGib, baseNodes, minGpuMemory,
                GpuVendor.ANY, minVcpus, minMemory, interconnect, regions, maxPerHour, maxTotal, estimate, policy,
                wantSpot, reasons, warnings, capacity, zones);
    }

    Requirements ethernet() {
        return new Requirements(workload, gpu, training, explicitGpus, modelNeedGib, baseNodes, minGpuMemory, vendor,
                minVcpus, minMemory, Interconnect.ETHERNET, regions, maxPerHour, maxTotal, estimate, policy, wantSpot,
                reasons, warnings, capacity, zones);
    }

    /** Neither budget: the "raise the budget" relaxation. */
    Requirements noBudget() {
        return new Requirements(workload, gpu, training, explicitGpus, modelNeedGib, baseNodes, minGpuMemory, vendor,
                minVcpus, minMemory, interconnect, regions, OptionalDouble.empty(), OptionalDouble.empty(), estimate,
                policy, wantSpot, reasons, warnings, capacity, zones);
    }

    private static String knownModels(CatalogIndex index) {
        List<String> names = new ArrayList<>();
        index.catalog.gpuModels().forEach((name, facts) -> {
            if (facts.tensorTflops() > 0) {
                names.add(name);
            }
        });
        return String.join(", ", names);
    }

    static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
