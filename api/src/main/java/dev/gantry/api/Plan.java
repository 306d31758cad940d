package dev.gantry.api;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * Where and how a workload runs: everything a backend needs to place it, so that backends never decide hardware.
 * The advisor fills a plan with the reasons for each decision and the alternatives it rejected; code may also build
 * one directly.
 *
 * @param workload what runs
 * @param vmSize the chosen VM size
 * @param region the Azure region
 * @param nodes number of VMs
 * @param spot whether the plan uses Spot capacity
 * @param pricePerHour price per node-hour and in total
 * @param estimatedHours estimated hours to completion on this size (only with a runtime estimate)
 * @param estimatedCost estimated cost to completion (only with a runtime estimate)
 * @param image the VM image to boot
 * @param orchestrator the orchestrator the guidance recommends (information; the configured backend runs)
 * @param reasons the ordered reasons, each naming the rule it applies
 * @param alternatives candidates considered and why each lost
 * @param warnings things the user should know (e.g. a request far above what the model needs)
 * @param catalog the catalog the plan was made from
 * @param boot what each node runs at boot for the image (SPI v2); {@link NodeBoot#none()} when nothing
 * @param zones the availability zones of the region its VMs may be placed in, in order: those where the subscription
 *     can allocate the VM size (when it was checked), within those the workload allows there; empty for a regional
 *     placement (no zones asked, and none known for the size there)
 */
public record Plan(
        Workload workload,
        VmSize vmSize,
        String region,
        int nodes,
        boolean spot,
        HourlyPrice pricePerHour,
        OptionalDouble estimatedHours,
        OptionalDouble estimatedCost,
        ImageRef image,
        OrchestratorAdvice orchestrator,
        List<Reason> reasons,
        List<Alternative> alternatives,
        List<String> warnings,
        CatalogInfo catalog,
        NodeBoot boot,
        List<String> zones) {

    /**
     * Checks the plan and copies its lists.
     *
     * @param workload what runs; required
     * @param vmSize the chosen VM size; required
     * @param region the Azure region; required
     * @param nodes number of VMs, at least 1
     * @param spot whether Spot capacity is used
     * @param pricePerHour the price; required
     * @param estimatedHours hours to completion, or empty; required
     * @param estimatedCost cost to completion, or empty; required
     * @param image the VM image; required
     * @param orchestrator the recommended orchestrator; required
     * @param reasons the reasons, copied
     * @param alternatives the rejected candidates, copied
     * @param warnings the warnings, copied
     * @param catalog the catalog used; required
     * @param boot the boot instructions; required, {@link NodeBoot#none()} for none
     * @param zones the zones its VMs may be placed in, copied; empty for a regional placement
     * @throws NullPointerException when a required component or a list (or an element of one) is null
     * @throws IllegalArgumentException when {@code nodes} is below 1
     */
    public Plan {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(vmSize, "vmSize");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(pricePerHour, "pricePerHour");
        Objects.requireNonNull(estimatedHours, "estimatedHours");
        Objects.requireNonNull(estimatedCost, "estimatedCost");
        Objects.requireNonNull(image, "image");
        Objects.requireNonNull(orchestrator, "orchestrator");
        Objects.requireNonNull(catalog, "catalog");
        Objects.requireNonNull(boot, "boot");
        reasons = List.copyOf(reasons);
        alternatives = List.copyOf(alternatives);
        warnings = List.copyOf(warnings);
        zones = List.copyOf(zones);
        if (nodes < 1) {
            throw new IllegalArgumentException("nodes must be >= 1, got " + nodes);
        }
    }

    /**
     * A plan placed regionally, in no particular zone (the form before {@link #zones()}).
     *
     * @param workload the workload that runs
     * @param vmSize the VM size it runs on
     * @param region the region of the VMs
     * @param nodes how many VMs, at least 1
     * @param spot whether they are Spot VMs
     * @param pricePerHour what they cost per hour
     * @param estimatedHours the estimate of hours, if any
     * @param estimatedCost the estimate of cost, if any
     * @param image the image the VMs boot
     * @param orchestrator the advice on orchestrators
     * @param reasons why each decision was made
     * @param alternatives what lost and why
     * @param warnings what the user should know
     * @param catalog where sizes and prices came from
     * @param boot what each node runs at boot
     */
    public Plan(Workload workload, VmSize vmSize, String region, int nodes, boolean spot, HourlyPrice pricePerHour,
                OptionalDouble estimatedHours, OptionalDouble estimatedCost, ImageRef image,
                OrchestratorAdvice orchestrator, List<Reason> reasons, List<Alternative> alternatives,
                List<String> warnings, CatalogInfo catalog, NodeBoot boot) {
        this(workload, vmSize, region, nodes, spot, pricePerHour, estimatedHours, estimatedCost, image, orchestrator,
                reasons, alternatives, warnings, catalog, boot, List.of());
    }

    /**
     * A plan without boot instructions (the SPI v1 form): {@link #boot()} is {@link NodeBoot#none()}.
     *
     * @param workload the workload that runs
     * @param vmSize the VM size it runs on
     * @param region the region of the VMs
     * @param nodes how many VMs, at least 1
     * @param spot whether they are Spot VMs
     * @param pricePerHour what they cost per hour
     * @param estimatedHours the estimate of hours, if any
     * @param estimatedCost the estimate of cost, if any
     * @param image the image the VMs boot
     * @param orchestrator the advice on orchestrators
     * @param reasons why each decision was made
     * @param alternatives what lost and why
     * @param warnings what the user should know
     * @param catalog where sizes and prices came from
     */
    public Plan(Workload workload, VmSize vmSize, String region, int nodes, boolean spot, HourlyPrice pricePerHour,
                OptionalDouble estimatedHours, OptionalDouble estimatedCost, ImageRef image,
                OrchestratorAdvice orchestrator, List<Reason> reasons, List<Alternative> alternatives,
                List<String> warnings, CatalogInfo catalog) {
        this(workload, vmSize, region, nodes, spot, pricePerHour, estimatedHours, estimatedCost, image, orchestrator,
                reasons, alternatives, warnings, catalog, NodeBoot.none());
    }

    /**
     * This plan with {@code value} as what its nodes run at boot.
     *
     * @param value the boot instructions; not null
     * @return a new plan, every other component unchanged
     */
    public Plan withBoot(NodeBoot value) {
        return new Plan(workload, vmSize, region, nodes, spot, pricePerHour, estimatedHours, estimatedCost, image,
                orchestrator, reasons, alternatives, warnings, catalog, value, zones);
    }

    /**
     * This plan for {@code value} instead of its workload, everything else as planned: for a workload whose
     * environment is only known when it is submitted (a workflow step's inputs from the steps before it).
     *
     * @param value the workload to run instead; not null
     * @return a new plan, every other component unchanged (the size, nodes and price are not re-planned)
     */
    public Plan withWorkload(Workload value) {
        return new Plan(value, vmSize, region, nodes, spot, pricePerHour, estimatedHours, estimatedCost, image,
                orchestrator, reasons, alternatives, warnings, catalog, boot, zones);
    }

    /**
     * The kind of hardware, for display.
     *
     * @return {@code GPU} when the VM size has GPUs, otherwise {@code CPU}
     */
    public String hardware() {
        return vmSize.hasGpu() ? "GPU" : "CPU";
    }

    /**
     * The GPUs each node has.
     *
     * @return GPUs per node, 0 for CPU sizes
     */
    public int gpusPerNode() {
        return vmSize.gpuCount();
    }

    /**
     * A builder for a plan made by code rather than by the advisor (tests, a platform that chose the size itself).
     *
     * @param workload what runs; a null is reported by {@link Builder#build()}
     * @param vmSize the VM size it runs on; a null is reported by {@link Builder#build()}
     * @return a builder with the defaults {@link Builder} lists
     */
    public static Builder builder(Workload workload, VmSize vmSize) {
        return new Builder(workload, vmSize);
    }

    /**
     * Builder for {@link Plan}; nodes default to the workload's, region to {@code local}, prices to zero. No setter
     * throws: a null where a value is needed (the workload, a reason, a warning) is named by {@link #build()},
     * together with every other, in one IllegalArgumentException (a plan is built by code, not written by a user).
     */
    public static final class Builder {
        private final Workload workload;
        private final VmSize vmSize;
        private String region = "local";
        private int nodes;
        private boolean spot;
        private HourlyPrice pricePerHour;
        private OptionalDouble estimatedHours = OptionalDouble.empty();
        private OptionalDouble estimatedCost = OptionalDouble.empty();
        private ImageRef image = ImageRef.host();
        private OrchestratorAdvice orchestrator =
                new OrchestratorAdvice(Orchestrator.MANUAL, "built directly, not advised");
        private final List<Reason> reasons = new ArrayList<>();
        private final List<Alternative> alternatives = new ArrayList<>();
        private final List<String> warnings = new ArrayList<>();
        private CatalogInfo catalog = new CatalogInfo("none", LocalDate.EPOCH);
        private NodeBoot boot = NodeBoot.none();
        private final List<String> zones = new ArrayList<>();
        private final List<String> nulls = new ArrayList<>();

        private Builder(Workload workload, VmSize vmSize) {
            this.workload = workload;
            this.vmSize = vmSize;
            this.nodes = workload == null ? 1 : workload.resources().nodes();
        }

        /**
         * The Azure region; default {@code local}.
         *
         * @param value the region name, e.g. {@code eastus}
         * @return this builder
         */
        public Builder region(String value) {
            this.region = value;
            return this;
        }

        /**
         * The number of VMs; default the workload's {@code resources.nodes}.
         *
         * @param value the count; below 1 fails at {@link #build()}
         * @return this builder
         */
        public Builder nodes(int value) {
            this.nodes = value;
            return this;
        }

        /**
         * Whether the plan uses Spot capacity; default false.
         *
         * @param value true for Spot VMs
         * @return this builder
         */
        public Builder spot(boolean value) {
            this.spot = value;
            return this;
        }

        /**
         * The price per hour; unset (or null), zero in USD for the plan's nodes.
         *
         * @param value the price, or null for zero
         * @return this builder
         */
        public Builder pricePerHour(HourlyPrice value) {
            this.pricePerHour = value;
            return this;
        }

        /**
         * The estimated hours to completion on this size; default none.
         *
         * @param hours the estimate in hours
         * @return this builder
         */
        public Builder estimatedHours(double hours) {
            this.estimatedHours = OptionalDouble.of(hours);
            return this;
        }

        /**
         * The estimated cost to completion; default none.
         *
         * @param cost the estimate in the price's currency (USD), all nodes together
         * @return this builder
         */
        public Builder estimatedCost(double cost) {
            this.estimatedCost = OptionalDouble.of(cost);
            return this;
        }

        /**
         * The VM image; default {@link ImageRef#host()}.
         *
         * @param value the image
         * @return this builder
         */
        public Builder image(ImageRef value) {
            this.image = value;
            return this;
        }

        /**
         * The orchestrator advice; default {@link Orchestrator#MANUAL}, "built directly, not advised".
         *
         * @param value the advice
         * @return this builder
         */
        public Builder orchestrator(OrchestratorAdvice value) {
            this.orchestrator = value;
            return this;
        }

        /**
         * Adds one reason after those added before.
         *
         * @param rule the rule applied, e.g. {@code R2}
         * @param text what it decided
         * @return this builder
         */
        public Builder reason(String rule, String text) {
            if (rule == null || text == null) {
                nulls.add("reasons[" + reasons.size() + "]: a reason's rule and text must not be null");
            } else {
                reasons.add(new Reason(rule, text));
            }
            return this;
        }

        /**
         * Adds reasons after those added before.
         *
         * @param values the reasons; give an empty list for none
         * @return this builder
         */
        public Builder reasons(List<Reason> values) {
            return addAll("reasons", reasons, values);
        }

        /**
         * Adds rejected candidates after those added before.
         *
         * @param values the candidates; give an empty list for none
         * @return this builder
         */
        public Builder alternatives(List<Alternative> values) {
            return addAll("alternatives", alternatives, values);
        }

        /**
         * Adds one warning for the user.
         *
         * @param text the warning, one sentence
         * @return this builder
         */
        public Builder warning(String text) {
            warnings.add(text);
            return this;
        }

        /**
         * The catalog the plan came from; default one named {@code none}, dated 1970-01-01.
         *
         * @param value the catalog's information
         * @return this builder
         */
        public Builder catalog(CatalogInfo value) {
            this.catalog = value;
            return this;
        }

        /**
         * What each node runs at boot; default {@link NodeBoot#none()}.
         *
         * @param value the boot instructions
         * @return this builder
         */
        public Builder boot(NodeBoot value) {
            this.boot = value;
            return this;
        }

        /**
         * Adds availability zones the VMs may be placed in, after those added before; default none (regional).
         *
         * @param values zone names such as {@code 1}; give an empty list for none
         * @return this builder
         */
        public Builder zones(List<String> values) {
            return addAll("zones", zones, values);
        }

        private <T> Builder addAll(String field, List<T> into, List<T> values) {
            if (values == null) {
                nulls.add(field + ": must not be null; give an empty list for none");
            } else {
                into.addAll(values);
            }
            return this;
        }

        /**
         * Builds the plan.
         *
         * @return the plan
         * @throws IllegalArgumentException naming every null where a value is needed, and a node count below 1
         */
        public Plan build() {
            List<String> problems = new ArrayList<>(nulls);
            required(problems, "workload", workload);
            required(problems, "vmSize", vmSize);
            required(problems, "region", region);
            required(problems, "image", image);
            required(problems, "orchestrator", orchestrator);
            required(problems, "catalog", catalog);
            required(problems, "boot", boot);
            elements(problems, "reasons", reasons);
            elements(problems, "alternatives", alternatives);
            elements(problems, "warnings", warnings);
            elements(problems, "zones", zones);
            if (nodes < 1) {
                problems.add("nodes: must be >= 1, got " + nodes);
            }
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException("invalid plan: " + String.join("; ", problems));
            }
            HourlyPrice price = pricePerHour != null ? pricePerHour : HourlyPrice.usd(0, nodes);
            return new Plan(workload, vmSize, region, nodes, spot, price, estimatedHours, estimatedCost, image,
                    orchestrator, reasons, alternatives, warnings, catalog, boot, zones);
        }

        private static void required(List<String> problems, String field, Object value) {
            if (value == null) {
                problems.add(field + ": must not be null");
            }
        }

        private static void elements(List<String> problems, String field, List<?> values) {
            for (int i = 0; i < values.size(); i++) {
                if (values.get(i) == null) {
                    problems.add(field + "[" + i + "]: must not be null");
                }
            }
        }
    }
}
