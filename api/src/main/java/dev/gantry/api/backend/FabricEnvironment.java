package dev.gantry.api.backend;

import dev.gantry.api.Plan;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The NCCL and UCX environment Microsoft documents for an RDMA (InfiniBand) VM size's family: a pure function of the
 * VM size, each value with its source. Gantry's job service adds it to the workload's variables of every plan on
 * such a size before any backend sees the plan, so every backend (and every plugin) gives it to the job the same
 * way; a variable the workload sets itself (in {@code env} or {@code secrets}) wins.
 *
 * <p>Why it is needed although the Azure HPC image configures NCCL: the image writes these values into
 * {@code /etc/nccl.conf} at boot for the size it runs on ("SKU based customizations: topology files, NCCL
 * configuration", <a href="https://learn.microsoft.com/azure/virtual-machines/azure-hpc-vm-images">Azure HPC/AI VM
 * images</a>), but a container (AKS, Batch, a containerized Slurm or manual job) does not read the host's
 * {@code /etc/nccl.conf}, and another image has none. The variables carry the same values into the job.
 *
 * <p>Only the sizes with InfiniBand ({@link VmSize#rdma()}) get any of it. A single-node plan on such a size gets it
 * too, because the sources apply it per VM, not per job: the image configures NCCL on every VM of the size at boot,
 * and Microsoft's health checks run their single-VM NCCL all-reduce with the same variables (the topology file and
 * relaxed ordering matter inside one VM as well). A size of a family no Microsoft source documents gets nothing
 * ({@link #family} is empty): see {@code docs/infiniband.md}.
 *
 * <p>Left out on purpose, for every family: {@code UCX_TLS} and {@code UCX_NET_DEVICES}, which configure MPI's own
 * traffic, not NCCL's, and which Microsoft's sources set by how the job uses MPI rather than by size ({@code tcp} and
 * {@code eth0} where MPI only starts the ranks of nccl-tests, {@code rc} and an InfiniBand device where MPI carries
 * the job); {@code NCCL_IB_HCA}, which no Microsoft source sets for these families (NCCL finds the InfiniBand ports
 * itself); {@code NCCL_NET_GDR_LEVEL}, which the sources set only in single-VM loopback tests; and tuning for one
 * workload ({@code NCCL_MIN_NCHANNELS}, {@code NCCL_IB_QPS_PER_CONNECTION}, ...), which a workload sets if it wants.
 */
public final class FabricEnvironment {
    /** The sources, pinned to the commit read, so that a reader finds the exact text. */
    static final String HPC_IMAGE = "https://github.com/Azure/azhpc-images/blob/"
            + "8e9d055fb9e1f7385da734969793861c447958a1/";
    static final String HEALTH_CHECKS = "https://github.com/Azure/azurehpc-health-checks/blob/"
            + "0e0a1ac26a64b32ac4dd7632a529638505d3314a/";
    static final String AZUREHPC = "https://github.com/Azure/azurehpc/blob/"
            + "2d57191cb35ed638525ba9424cc2aa1b5abe1c05/";
    /** The HPC image copies {@code topology/*.xml} to {@code /opt/microsoft} when it is built (every size). */
    static final String IMAGE_TOPOLOGY_FILES = HPC_IMAGE + "components/setup_sku_customizations.sh";
    /** The health checks' NCCL all-reduce, run with these variables on every ND size they check. */
    static final String NCCL_ALLREDUCE_CHECK = HEALTH_CHECKS + "customTests/azure_nccl_allreduce.nhc";
    /** The health checks' RCCL all-reduce for AMD sizes. */
    static final String RCCL_ALLREDUCE_CHECK = HEALTH_CHECKS + "customTests/azure_rccl_allreduce.nhc";
    /** The HPC image's own NCCL and RCCL test per size. */
    static final String IMAGE_TESTS = HPC_IMAGE + "tests/test-definitions.sh";
    /** Microsoft's multi-node nccl-tests job for ND A100 v4 under Slurm. */
    static final String NDV4_NCCL_TESTS = AZUREHPC + "experimental/run_nccl_tests_ndv4/run_nccl_tests_slurm.slrm";

    /**
     * One variable with the source that documents its value for the family.
     *
     * @param name the environment variable's name
     * @param value its value
     * @param source where Microsoft documents it (a URL pinned to a commit)
     */
    public record Variable(String name, String value, String source) {
        /**
         * Checks that every component is given.
         *
         * @param name the name, not blank
         * @param value the value
         * @param source the source, not blank
         * @throws NullPointerException when a component is null
         * @throws IllegalArgumentException when the name or the source is blank
         */
        public Variable {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(source, "source");
            if (name.isBlank() || source.isBlank()) {
                throw new IllegalArgumentException("a variable needs a name and a source, got '" + name + "' from '"
                        + source + "'");
            }
        }
    }

    /**
     * A size family and the variables documented for it.
     *
     * @param name the family as Azure names it, e.g. {@code ND H100 v5 / ND H200 v5}
     * @param variables the variables in a stable order, each with its source
     */
    public record Family(String name, List<Variable> variables) {
        /**
         * Checks the name and copies the variables.
         *
         * @param name the family's name
         * @param variables the variables, copied
         * @throws NullPointerException when a component or a variable is null
         */
        public Family {
            Objects.requireNonNull(name, "name");
            variables = List.copyOf(variables);
        }

        /** {@return the variables by name, in the family's order} */
        public Map<String, String> values() {
            Map<String, String> values = new LinkedHashMap<>();
            variables.forEach(variable -> values.put(variable.name(), variable.value()));
            return values;
        }
    }

    private record Rule(Pattern sizes, Family family) {
    }

    private static final List<Rule> RULES = List.of(
            // The image's own match for this family is standard_nd*v4 (setup_sku_customizations.sh); ND A100 v4 and
            // NDm A100 v4 are its two sizes with InfiniBand.
            new Rule(Pattern.compile("standard_nd96am?sr(_a100)?_v4"), nvidiaFamily("ND A100 v4 / NDm A100 v4",
                    "ndv4", true)),
            // The image's match: standard_nd96is*_h[1-2]00_v5.
            new Rule(Pattern.compile("standard_nd96is[a-z]*_h[12]00_v5"), nvidiaFamily("ND H100 v5 / ND H200 v5",
                    "ndv5", true)),
            // The image configures no relaxed ordering for ND v2 (ndv2.sh); the health checks' all-reduce, which
            // nd40rs_v2.conf runs, sets it, and NCCL only warns where the platform cannot use it.
            new Rule(Pattern.compile("standard_nd40rs_v2"), nvidiaFamily("ND v2", "ndv2", false)),
            // The image has no NCCL (RCCL) configuration for it (ndv5_rocm.sh is a placeholder): no topology file.
            new Rule(Pattern.compile("standard_nd96is[a-z]*_mi300x_v5"), new Family("ND MI300X v5", List.of(
                    new Variable("NCCL_IB_PCI_RELAXED_ORDERING", "1", RCCL_ALLREDUCE_CHECK),
                    new Variable("NCCL_SOCKET_IFNAME", "eth0", RCCL_ALLREDUCE_CHECK),
                    new Variable("CUDA_DEVICE_ORDER", "PCI_BUS_ID", RCCL_ALLREDUCE_CHECK),
                    new Variable("UCX_IB_PCI_RELAXED_ORDERING", "on", RCCL_ALLREDUCE_CHECK)))),
            // NC v3 with InfiniBand: the image has no NCCL configuration for it; its own NCCL test sets these two.
            new Rule(Pattern.compile("standard_nc24rs_v3"), new Family("NC v3 (NC24rs_v3)", List.of(
                    new Variable("NCCL_SOCKET_IFNAME", "eth0", IMAGE_TESTS),
                    new Variable("CUDA_DEVICE_ORDER", "PCI_BUS_ID", IMAGE_TESTS)))));

    private FabricEnvironment() {
    }

    /**
     * An NVIDIA ND family as the HPC image configures it: its topology file in {@code /opt/microsoft} and its
     * {@code /etc/nccl.conf} ({@code components/customizations/<key>.sh}), then what Microsoft's NCCL checks add.
     */
    private static Family nvidiaFamily(String name, String key, boolean imageSetsRelaxedOrdering) {
        String imageConf = HPC_IMAGE + "components/customizations/" + key + ".sh";
        String ncclGuidance = key.equals("ndv4") ? NDV4_NCCL_TESTS : NCCL_ALLREDUCE_CHECK;
        return new Family(name, List.of(
                // The file the image copies at build time; its nccl.conf points at a link to it that a boot-time
                // service makes, so this path holds even where that service did not run. NCCL only warns and
                // detects the topology itself where the file is missing (a container without /opt/microsoft).
                new Variable("NCCL_TOPO_FILE", "/opt/microsoft/" + key + "-topo.xml", IMAGE_TOPOLOGY_FILES),
                new Variable("NCCL_IB_PCI_RELAXED_ORDERING", "1",
                        imageSetsRelaxedOrdering ? imageConf : NCCL_ALLREDUCE_CHECK),
                new Variable("NCCL_IGNORE_CPU_AFFINITY", "1", imageConf),
                new Variable("NCCL_SOCKET_IFNAME", "eth0", ncclGuidance),
                new Variable("CUDA_DEVICE_ORDER", "PCI_BUS_ID", ncclGuidance),
                new Variable("UCX_IB_PCI_RELAXED_ORDERING", "on", ncclGuidance)));
    }

    /**
     * The documented family of an RDMA size.
     *
     * @param size the VM size
     * @return the family with its variables; empty for a size without InfiniBand or of a family no Microsoft source
     *     documents (HB, HC and HX run no NCCL, for example)
     */
    public static Optional<Family> family(VmSize size) {
        Objects.requireNonNull(size, "size");
        if (!size.rdma()) {
            return Optional.empty();
        }
        String name = size.name().toLowerCase(Locale.ROOT);
        return RULES.stream().filter(rule -> rule.sizes().matcher(name).matches()).map(Rule::family).findFirst();
    }

    /**
     * The variables for jobs on {@code size}.
     *
     * @param size the VM size
     * @return the variables by name in a stable order; empty when {@link #family} is
     */
    public static Map<String, String> of(VmSize size) {
        return family(size).map(Family::values).orElseGet(Map::of);
    }

    /**
     * The plan with the variables of its size added to its workload's, after them: a name the workload sets in its
     * {@code env} or its {@code secrets} keeps the workload's value.
     *
     * @param plan the plan as planned
     * @return the same plan when nothing is added, else a copy whose workload has the variables it did not set
     * @throws NullPointerException when {@code plan} is null
     */
    public static Plan applyTo(Plan plan) {
        Objects.requireNonNull(plan, "plan");
        Workload workload = plan.workload();
        Map<String, String> added = new LinkedHashMap<>(of(plan.vmSize()));
        added.keySet().removeAll(workload.env().keySet());
        added.keySet().removeAll(workload.secrets().keySet());
        if (added.isEmpty()) {
            return plan;
        }
        return plan.withWorkload(workload.toBuilder().env(added).build());
    }
}
