package dev.gantry.core.advisor;

import dev.gantry.model.Money;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Interconnect;
import dev.gantry.api.Resources;
import java.util.List;
import java.util.Locale;

/**
 * One hard constraint of the guidance: its check, its name in removal counts, and its explanation as the user asked
 * for it. {@link #ALL} lists them in the order the search evaluates them (rule 9): catalog exclusions first, then a
 * known price, region, GPU or CPU fit, the interconnect, the throughput an estimate needs, the budgets (per hour, then to completion), and last what
 * the subscription allows (the size offered, the zones asked, the quotas), which reads Azure and so runs only for rows
 * that pass every other constraint. A candidate
 * is counted against the first constraint it fails, so the last constraint with a count is the one that removed the
 * last candidates. A new rule of the guidance is one more record here, placed in {@link #ALL}, and its test.
 *
 * <p>A check that depends only on the catalog row and the capacity type ({@link OfRow}) is evaluated once per catalog
 * by the {@link CatalogIndex}; the others ({@link OfCandidate}) once per row and search.
 */
sealed interface Constraint {
    /** Every constraint, in evaluation order. */
    List<Constraint> ALL = List.of(new Family(), new Retired(), new Restricted(), new ExcludedKind(), new Price(),
            new Region(), new GpuCount(), new GpuMemory(), new GpuVendorMatch(), new Vcpus(), new Memory(),
            new RdmaInterconnect(), new Throughput(), new Budget(), new TotalBudget(), new Offered(), new Zones(),
            new Quota());

    /** Whether the constraint can reject anything for these requirements; a search skips those that cannot. */
    default boolean appliesTo(Requirements req) {
        return true;
    }

    /** Whether the check needs the row's price; such constraints are skipped for rows without one. */
    default boolean needsPrice() {
        return false;
    }

    /** The short name in removal counts, e.g. {@code GPU count 30}. */
    String label();

    /** The constraint as the user asked for it, for messages. */
    String describe(Requirements req, boolean spot);

    /** A constraint that depends only on the catalog row and the capacity type, whatever the workload asks. */
    sealed interface OfRow extends Constraint {
        /** True when {@code row} of the index does not satisfy the constraint on spot or on-demand capacity. */
        boolean rejects(CatalogIndex index, int row, boolean spot);
    }

    /** A constraint that depends on what the workload asks. */
    sealed interface OfCandidate extends Constraint {
        /**
         * True when {@code row} of the index, laid out as {@code layout} at {@code price} per node-hour (NaN when
         * the catalog has none for the capacity type), does not satisfy the constraint.
         */
        boolean rejects(Requirements req, CatalogIndex index, int row, Layout layout, double price);

        /** The same on spot or on-demand capacity, for the checks that depend on it (the quota). */
        default boolean rejects(Requirements req, CatalogIndex index, int row, Layout layout, double price,
                                boolean spot) {
            return rejects(req, index, row, layout, price);
        }
    }

    /** Rule 2: training falls back to NC only over Ethernet. */
    record Family() implements OfCandidate {
        @Override
        public boolean appliesTo(Requirements req) {
            return req.gpu() && req.training() && req.interconnect() == Interconnect.INFINIBAND;
        }

        @Override
        public boolean rejects(Requirements req, CatalogIndex index, int row, Layout layout, double price) {
            return index.group[row] == CatalogIndex.NC;
        }

        @Override
        public String label() {
            return "family";
        }

        @Override
        public String describe(Requirements req, boolean spot) {
            return "family (the NC fallback for training needs interconnect ethernet or any, got "
                    + lower(req.interconnect()) + ")";
        }
    }

    /** Sizes of retired series are never recommended. */
    record Retired() implements OfRow {
        @Override
        public boolean rejects(CatalogIndex index, int row, boolean spot) {
            return index.retiredSeries[row] != null;
        }

        @Override
        public String label() {
            return "retired";
        }

        @Override
        public String describe(Requirements req, boolean spot) {
            return "retired series (never recommended)";
        }
    }

    /** A size the subscription is not offered in a region. */
    record Restricted() implements OfRow {
        @Override
        public boolean rejects(CatalogIndex index, int row, boolean spot) {
            return index.restriction[row] != null;
        }

        @Override
        public String label() {
            return "restricted";
        }

        @Override
        public String describe(Requirements req, boolean spot) {
            return "restriction (the size is not offered to the subscription in the region)";
        }
    }

    /** Rule 5: Arm64, burstable and basic sizes are never chosen. */
    record ExcludedKind() implements OfRow {
        @Override
        public boolean rejects(CatalogIndex index, int row, boolean spot) {
            return index.excludedKind[row];
        }

        @Override
        public String label() {
            return "Arm64/burstable/basic";
        }

        @Override
        public String describe(Requirements req, boolean spot) {
            return "Arm64, burstable and basic sizes (excluded)";
        }
    }

    /** An unknown price is never taken as cheapest. */
    record Price() implements OfRow {
        @Override
        public boolean rejects(CatalogIndex index, int row, boolean spot) {
            return Double.isNaN(index.price(row, spot));
        }

        @Override
        public String label() {
            return "price unknown";
        }

        @Override
        public String describe(Requirements req, boolean spot) {
            return "price unknown (no " + (spot ? "spot" : "on-demand") + " price in the catalog)";
        }
    }

    /** Rule 7: the allowed regions. */
    record Region() implements OfCandidate {
        /** Without region names every region is allowed. */
        @Override
        public boolean appliesTo(Requirements req) {
            return !req.regions().names().isEmpty();
        }

        @Override
        public boolean rejects(Requirements req, CatalogIndex index, int row, Layout layout, double price) {
            return !req.regions().allowed().allows(index.region[row]);
        }

        @Override
        public String label() {
            return "region";
        }

        @Override
        public String describe(Requirements req, boolean spot) {
            List<String> names = req.regions().names();
            return "regions " + (names.isEmpty() ? "(all)" : names) + " (from " + req.regions().source() + ")";
        }
    }

    /** Rule 3: the GPU count per node, and at most {@link Resources#MAX_NODES} nodes of it. */
    record GpuCount() implements OfCandidate {
        @Override
        public boolean appliesTo(Requirements req) {
            return req.gpu();
        }

        @Override
        public boolean rejects(Requirements req, CatalogIndex index, int row, Layout layout, double price) {
            return index.gpuCount[row] != layout.gpus() || layout.nodes() > Resources.MAX_NODES;
        }

        @Override
        public String label() {
            return "GPU count";
        }

        @Override
        public String describe(Requirements req, boolean spot) {
            if (req.explicitGpus().isPresent()) {
                return "GPU count (resources.gpus = " + req.explicitGpus().getAsInt() + " per node)";
            }
            return req.modelNeedGib().isPresent() ? "GPU count (the smallest count per node that holds the model's "
                    + Money.gib(req.modelNeedGib().getAsDouble()) + " GiB)" : "GPU count (1 per node by default)";
        }
    }

    /** Rule 3: memory per GPU, a floor. */
    record GpuMemory() implements OfCandidate {
        @Override
        public boolean appliesTo(Requirements req) {
            return req.gpu() && req.minGpuMemory().isPresent();
        }

        @Override
        public boolean rejects(Requirements req, CatalogIndex index, int row, Layout layout, double price) {
            return index.gpuMemoryGib[row] < req.minGpuMemory().getAsDouble();
        }

        @Override
        public String label() {
            return "GPU memory";
        }

        @Override
        public String describe(Requirements req, boolean spot) {
            return "GPU memory (resources.gpuMemoryGib >= " + Money.format(req.minGpuMemory().orElse(0)) + ")";
        }
    }

    /** Rule 3: the GPU vendor asked. */
    record GpuVendorMatch() implements OfCandidate {
        @Override
        public boolean appliesTo(Requirements req) {
            return req.gpu() && req.vendor() != GpuVendor.ANY;
        }

        @Override
        public boolean rejects(Requirements req, CatalogIndex index, int row, Layout layout, double price) {
            return index.vendor[row] != req.vendor();
        }

        @Override
        public String label() {
            return "GPU vendor";
        }

        @Override
        public String describe(Requirements req, boolean spot) {
            return "GPU vendor (resources.gpuVendor = " + lower(req.vendor()) + ")";
        }
    }

    /** Usable vCPUs per node, a floor. */
    record Vcpus() implements OfCandidate {
        @Override
        public boolean rejects(Requirements req, CatalogIndex index, int row, Layout layout, double price) {
            return index.vcpus[row] < req.minVcpus();
        }

        @Override
        public String label() {
            return "vCPUs";
        }

        @Override
        public String describe(Requirements req, boolean spot) {
            return "vCPUs (resources.vcpus >= " + req.minVcpus() + ")";
        }
    }

    /** Memory per node, a floor. */
    record Memory() implements OfCandidate {
        @Override
        public boolean appliesTo(Requirements req) {
            return req.minMemory() > 0;
        }

        @Override
        public boolean rejects(Requirements req, CatalogIndex index, int row, Layout layout, double price) {
            return index.memoryGib[row] < req.minMemory();
        }

        @Override
        public String label() {
            return "memory";
        }

        @Override
        public String describe(Requirements req, boolean spot) {
            return "memory (resources.memoryGib >= " + Money.format(req.minMemory()) + ")";
        }
    }

    /** Rule 4: RDMA-capable sizes for infiniband and for multi-node GPU training. */
    record RdmaInterconnect() implements OfCandidate {
        /** Only infiniband and GPU training (multi-node, unless ethernet) ever require RDMA. */
        @Override
        public boolean appliesTo(Requirements req) {
            return req.interconnect() == Interconnect.INFINIBAND
                    || req.gpu() && req.training() && req.interconnect() != Interconnect.ETHERNET;
        }

        @Override
        public boolean rejects(Requirements req, CatalogIndex index, int row, Layout layout, double price) {
            return req.rdmaRequired(layout.nodes()) && !index.rdma[row];
        }

        @Override
        public String label() {
            return "interconnect";
        }

        @Override
        public String describe(Requirements req, boolean spot) {
            return req.interconnect() == Interconnect.INFINIBAND
                    ? "interconnect (infiniband asks for RDMA-capable sizes)"
                    : "interconnect (multi-node GPU training needs RDMA-capable sizes unless interconnect is "
                    + "ethernet)";
        }
    }

    /** Rule 8: a runtime estimate scales by the GPU's throughput, so the throughput must be known. */
    record Throughput() implements OfCandidate {
        @Override
        public boolean appliesTo(Requirements req) {
            return req.gpu() && req.estimate().isPresent();
        }

        @Override
        public boolean rejects(Requirements req, CatalogIndex index, int row, Layout layout, double price) {
            return Double.isNaN(index.tflops[row]);
        }

        @Override
        public String label() {
            return "throughput unknown";
        }

        @Override
        public String describe(Requirements req, boolean spot) {
            return "GPU throughput unknown (the runtime estimate needs it)";
        }
    }

    /** Rule 7: the budget for all nodes. */
    record Budget() implements OfCandidate {
        @Override
        public boolean appliesTo(Requirements req) {
            return req.maxPerHour().isPresent();
        }

        @Override
        public boolean needsPrice() {
            return true;
        }

        @Override
        public boolean rejects(Requirements req, CatalogIndex index, int row, Layout layout, double price) {
            return price * layout.nodes() > req.maxPerHour().getAsDouble();
        }

        @Override
        public String label() {
            return "budget";
        }

        @Override
        public String describe(Requirements req, boolean spot) {
            return "budget (budget.maxPerHour = " + Money.perHour(req.maxPerHour().orElse(Double.POSITIVE_INFINITY))
                    + ")";
        }
    }

    /**
     * Rule 7 over the whole run: the estimated cost to completion (all nodes' price per hour times the estimated hours
     * on the row) within {@code budget.maxTotal}. Without it, {@code optimize: time} would choose the fastest size and
     * refuse the plan when that size's cost passes the budget, though a slower one fits; with it the fastest size that
     * fits wins. Only an estimate gives a cost to completion, so the check needs one.
     */
    record TotalBudget() implements OfCandidate {
        @Override
        public boolean appliesTo(Requirements req) {
            return req.maxTotal().isPresent() && req.estimate().isPresent();
        }

        @Override
        public boolean needsPrice() {
            return true;
        }

        @Override
        public boolean rejects(Requirements req, CatalogIndex index, int row, Layout layout, double price) {
            return price * layout.nodes() * req.hoursOn(index, row).getAsDouble() > req.maxTotal().getAsDouble();
        }

        @Override
        public String label() {
            return "budget to completion";
        }

        @Override
        public String describe(Requirements req, boolean spot) {
            return "budget to completion (budget.maxTotal = $" + Money.format(req.maxTotal().orElse(0.0))
                    + " for the estimated hours on each size)";
        }
    }

    /**
     * The subscription's checks, last in {@link #ALL} and in this order (offered, zones, quota): the search runs them
     * together through {@link PlanCapacity#firstFailure} when it reaches the first.
     */
    sealed interface OfSubscription extends OfCandidate {
    }

    /** The subscription is offered the size in the region, unrestricted (Resource SKUs, read live). */
    record Offered() implements OfSubscription {
        @Override
        public boolean appliesTo(Requirements req) {
            return req.capacity().checked();
        }

        @Override
        public boolean rejects(Requirements req, CatalogIndex index, int row, Layout layout, double price) {
            return !req.capacity().offered(row);
        }

        @Override
        public String label() {
            return "not offered";
        }

        @Override
        public String describe(Requirements req, boolean spot) {
            return "the subscription's sizes (not offered to it in the region, or restricted, by the Resource SKUs "
                    + "API)";
        }
    }

    /**
     * The zones asked in a region (the workload's, else the configuration's): the size must be allocatable in one of
     * them (Resource SKUs, read live with a subscription, else as the catalog's refresh recorded them).
     */
    record Zones() implements OfSubscription {
        @Override
        public boolean appliesTo(Requirements req) {
            return req.capacity().zonesChecked() && req.capacity().zonesAsked();
        }

        @Override
        public boolean rejects(Requirements req, CatalogIndex index, int row, Layout layout, double price) {
            return !req.capacity().zonesAllow(row);
        }

        @Override
        public String label() {
            return "zones";
        }

        @Override
        public String describe(Requirements req, boolean spot) {
            return "zones asked (" + req.zones().describe() + "; the size must be allocatable to the subscription "
                    + "in one of them" + (req.capacity().zonesFromCatalog()
                    ? ", as the catalog's refresh recorded, not read live)" : ")");
        }
    }

    /**
     * The subscription's vCPU quotas, less what is in use, must hold the plan's nodes: the VM family's and the
     * region's total on on-demand capacity, the region's Spot vCPUs on spot (see {@code QuotaShortfall}).
     */
    record Quota() implements OfSubscription {
        @Override
        public boolean appliesTo(Requirements req) {
            return req.capacity().checked();
        }

        @Override
        public boolean rejects(Requirements req, CatalogIndex index, int row, Layout layout, double price) {
            return rejects(req, index, row, layout, price, false);
        }

        @Override
        public boolean rejects(Requirements req, CatalogIndex index, int row, Layout layout, double price,
                               boolean spot) {
            return !req.capacity().quotaFits(row, layout.nodes(), spot);
        }

        @Override
        public String label() {
            return "quota";
        }

        @Override
        public String describe(Requirements req, boolean spot) {
            return "vCPU quota (" + (spot ? "the region's Spot vCPUs, lowPriorityCores"
                    : "the VM family's and the region's total vCPUs") + ", less what is in use, for all nodes)";
        }
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
