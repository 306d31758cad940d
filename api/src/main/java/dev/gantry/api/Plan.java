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
        NodeBoot boot) {

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
        if (nodes < 1) {
            throw new IllegalArgumentException("nodes must be >= 1, got " + nodes);
        }
    }

    /** A plan without boot instructions (the SPI v1 form). */
    public Plan(Workload workload, VmSize vmSize, String region, int nodes, boolean spot, HourlyPrice pricePerHour,
                OptionalDouble estimatedHours, OptionalDouble estimatedCost, ImageRef image,
                OrchestratorAdvice orchestrator, List<Reason> reasons, List<Alternative> alternatives,
                List<String> warnings, CatalogInfo catalog) {
        this(workload, vmSize, region, nodes, spot, pricePerHour, estimatedHours, estimatedCost, image, orchestrator,
                reasons, alternatives, warnings, catalog, NodeBoot.none());
    }

    /** This plan with {@code value} as what its nodes run at boot. */
    public Plan withBoot(NodeBoot value) {
        return new Plan(workload, vmSize, region, nodes, spot, pricePerHour, estimatedHours, estimatedCost, image,
                orchestrator, reasons, alternatives, warnings, catalog, value);
    }

    /**
     * This plan for {@code value} instead of its workload, everything else as planned: for a workload whose
     * environment is only known when it is submitted (a workflow step's inputs from the steps before it).
     */
    public Plan withWorkload(Workload value) {
        return new Plan(value, vmSize, region, nodes, spot, pricePerHour, estimatedHours, estimatedCost, image,
                orchestrator, reasons, alternatives, warnings, catalog, boot);
    }

    /** {@code GPU} or {@code CPU}. */
    public String hardware() {
        return vmSize.hasGpu() ? "GPU" : "CPU";
    }

    /** GPUs per node, 0 for CPU sizes. */
    public int gpusPerNode() {
        return vmSize.gpuCount();
    }

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
        private final List<String> nulls = new ArrayList<>();

        private Builder(Workload workload, VmSize vmSize) {
            this.workload = workload;
            this.vmSize = vmSize;
            this.nodes = workload == null ? 1 : workload.resources().nodes();
        }

        public Builder region(String value) {
            this.region = value;
            return this;
        }

        public Builder nodes(int value) {
            this.nodes = value;
            return this;
        }

        public Builder spot(boolean value) {
            this.spot = value;
            return this;
        }

        /** The price per hour; unset (or null), zero. */
        public Builder pricePerHour(HourlyPrice value) {
            this.pricePerHour = value;
            return this;
        }

        public Builder estimatedHours(double hours) {
            this.estimatedHours = OptionalDouble.of(hours);
            return this;
        }

        public Builder estimatedCost(double cost) {
            this.estimatedCost = OptionalDouble.of(cost);
            return this;
        }

        public Builder image(ImageRef value) {
            this.image = value;
            return this;
        }

        public Builder orchestrator(OrchestratorAdvice value) {
            this.orchestrator = value;
            return this;
        }

        public Builder reason(String rule, String text) {
            if (rule == null || text == null) {
                nulls.add("reasons[" + reasons.size() + "]: a reason's rule and text must not be null");
            } else {
                reasons.add(new Reason(rule, text));
            }
            return this;
        }

        public Builder reasons(List<Reason> values) {
            return addAll("reasons", reasons, values);
        }

        public Builder alternatives(List<Alternative> values) {
            return addAll("alternatives", alternatives, values);
        }

        public Builder warning(String text) {
            warnings.add(text);
            return this;
        }

        public Builder catalog(CatalogInfo value) {
            this.catalog = value;
            return this;
        }

        public Builder boot(NodeBoot value) {
            this.boot = value;
            return this;
        }

        private <T> Builder addAll(String field, List<T> into, List<T> values) {
            if (values == null) {
                nulls.add(field + ": must not be null; give an empty list for none");
            } else {
                into.addAll(values);
            }
            return this;
        }

        /** The plan; IllegalArgumentException naming every null where a value is needed, and a node count below 1. */
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
            if (nodes < 1) {
                problems.add("nodes: must be >= 1, got " + nodes);
            }
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException("invalid plan: " + String.join("; ", problems));
            }
            HourlyPrice price = pricePerHour != null ? pricePerHour : HourlyPrice.usd(0, nodes);
            return new Plan(workload, vmSize, region, nodes, spot, price, estimatedHours, estimatedCost, image,
                    orchestrator, reasons, alternatives, warnings, catalog, boot);
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
