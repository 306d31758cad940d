package dev.gantry.backend.cyclecloud.internal.gridengine;

import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.Resources;
import dev.gantry.backend.cyclecloud.internal.CycleCloudSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a plan asks of Grid Engine: the slots, the parallel environment that places them, and the memory and GPUs per
 * slot. Validate reports its problems; submit renders it into {@link QsubDirectives}. A pure function of the plan,
 * the settings and what the probe found.
 *
 * <p>One host: the workload's vCPUs as slots (one without them), more than one through {@code parallelEnvironment}
 * ({@code $pe_slots}). Several hosts: {@code multiNodeParallelEnvironment} must grant a fixed number of slots per
 * host (allocation rule {@code N}), the one rule under which {@code nodes × N} slots span exactly {@code nodes} hosts
 * ({@code $fill_up} and {@code $round_robin} may take fewer or more), and must let the job start tasks on them
 * ({@code control_slaves TRUE}, for {@code qrsh -inherit}). The job holds whole hosts ({@code -l exclusive=true})
 * when it needs more CPUs per host than that, or InfiniBand, as Slurm's jobs do with {@code --exclusive}.
 *
 * @param nodes the hosts, one rank each
 * @param slots all slots of the job
 * @param slotsPerHost the slots on each host
 * @param parallelEnvironment the parallel environment, when more than one slot
 * @param memoryPerSlotMib memory per slot in MiB, 0 for none
 * @param gpuRequest the value asked of the GPU complex, 0 for none: a multi-host job's host GPUs divided among its
 *     slots there, as a per-slot consumable counts them
 * @param exclusive whole hosts
 */
public record GridEngineJobShape(int nodes, int slots, int slotsPerHost, Optional<String> parallelEnvironment,
                                 long memoryPerSlotMib, int gpuRequest, boolean exclusive) {
    /** The complex that gives a job whole hosts (CycleCloud's Grid Engine clusters define it). */
    static final String EXCLUSIVE = "exclusive";

    /** The shape, or the problems that keep the plan from having one here. */
    record Result(Optional<GridEngineJobShape> shape, List<Problem> problems) {
        GridEngineJobShape orElseThrow() {
            return shape.orElseThrow(() -> new IllegalStateException("the plan was not validated: " + problems));
        }
    }

    static Result of(Plan plan, CycleCloudSettings settings, GridEngineFacts cluster) {
        List<Problem> problems = new ArrayList<>();
        int gpus = gpus(plan);
        long memory = memoryMib(plan);
        if (plan.nodes() == 1) {
            int slots = Math.max(1, plan.workload().resources().vcpus().orElse(1));
            if (slots > 1 && !cluster.parallelEnvironments().contains(settings.parallelEnvironment())) {
                problems.add(Problem.of("backends.cyclecloud.parallelEnvironment", "the plan asks " + slots
                        + " slots, which need the parallel environment " + settings.parallelEnvironment()
                        + ", and the cluster has " + listed(cluster) + "; set parallelEnvironment to one whose "
                        + "allocation rule is $pe_slots (one host)"));
            }
            return result(new GridEngineJobShape(1, slots, slots, slots > 1 ? Optional.of(settings
                    .parallelEnvironment()) : Optional.empty(), memory == 0 ? 0 : ceil(memory, slots), gpus, false),
                    problems);
        }
        String key = "backends.cyclecloud." + CycleCloudSettings.MULTI_NODE_PARALLEL_ENVIRONMENT;
        String create = "create one (qconf -ap NAME with allocation_rule 1, control_slaves TRUE and "
                + "job_is_first_task TRUE, then add it to the queue's pe_list) and set multiNodeParallelEnvironment "
                + "to it";
        Optional<String> name = settings.multiNodeParallelEnvironment();
        if (name.isEmpty()) {
            problems.add(Problem.of(key, "the plan spans " + plan.nodes() + " hosts, and Grid Engine runs a job on "
                    + "several hosts only through a parallel environment that grants a fixed number of slots on "
                    + "each; none is set: " + create));
            return result(null, problems);
        }
        Optional<ParallelEnvironmentRule> rule = Optional.ofNullable(cluster.rules().get(name.get()));
        if (!cluster.parallelEnvironments().contains(name.get()) || rule.isEmpty()) {
            problems.add(Problem.of(key, "the cluster has no parallel environment " + name.get() + " (it has "
                    + listed(cluster) + "): " + create));
            return result(null, problems);
        }
        if (rule.get().slotsPerHost().isEmpty()) {
            problems.add(Problem.of(key, "the parallel environment " + name.get() + " allocates slots by "
                    + rule.get().allocationRule() + ", which does not place " + plan.nodes() + " ranks on "
                    + plan.nodes() + " hosts" + ("$pe_slots".equals(rule.get().allocationRule()) ? " (it keeps "
                    + "every slot on one host)" : " (it may take more hosts or fewer)") + "; give it a fixed "
                    + "number of slots per host (qconf -mp " + name.get() + ": allocation_rule 1), or " + create));
        }
        if (!rule.get().controlSlaves()) {
            problems.add(Problem.of(key, "the parallel environment " + name.get() + " does not let a job start its "
                    + "ranks on its other hosts (control_slaves FALSE); set control_slaves TRUE (qconf -mp "
                    + name.get() + ")"));
        }
        if (!problems.isEmpty()) {
            return result(null, problems);
        }
        int perHost = rule.get().slotsPerHost().getAsInt();
        int vcpus = plan.workload().resources().vcpus().orElse(1);
        boolean exclusive = vcpus > perHost || plan.vmSize().rdma();
        if (exclusive && !cluster.complexes().contains(EXCLUSIVE)) {
            problems.add(Problem.of(key, "the plan needs whole hosts (" + (vcpus > perHost ? vcpus + " vCPUs on each, "
                    + "and " + name.get() + " grants " + perHost + " slot(s) per host" : "InfiniBand across "
                    + "hosts") + "), and the cluster defines no complex exclusive to ask for them; define it "
                    + "(qconf -mc: exclusive excl BOOL EXCL, and exclusive=true on each host), or use a parallel "
                    + "environment whose allocation rule is the vCPUs of a host"));
        }
        if (gpus % perHost != 0) {
            problems.add(Problem.of(key, "the plan needs " + gpus + " GPU(s) on each host, which do not divide "
                    + "among the " + perHost + " slots per host that " + name.get() + " grants; use a parallel "
                    + "environment with allocation_rule 1"));
        }
        return result(new GridEngineJobShape(plan.nodes(), plan.nodes() * perHost, perHost, name, memory == 0 ? 0
                : ceil(memory, perHost), gpus / perHost, exclusive), problems);
    }

    private static Result result(GridEngineJobShape shape, List<Problem> problems) {
        return new Result(problems.isEmpty() ? Optional.ofNullable(shape) : Optional.empty(), List.copyOf(problems));
    }

    private static String listed(GridEngineFacts cluster) {
        return cluster.parallelEnvironments().isEmpty() ? "none"
                : String.join(", ", cluster.parallelEnvironments().stream().sorted().toList());
    }

    private static long ceil(long value, int parts) {
        return (long) Math.ceil((double) value / parts);
    }

    /** The GPUs a plan's job asks for on each host: the workload's, else the planned size's. */
    static int gpus(Plan plan) {
        return plan.workload().resources().gpus().orElse(plan.gpusPerNode());
    }

    /** The memory a plan's job asks for on each host, in MiB; 0 when the workload names none. */
    static long memoryMib(Plan plan) {
        Resources resources = plan.workload().resources();
        return resources.memoryGib().isPresent() ? (long) Math.ceil(resources.memoryGib().getAsDouble() * 1024) : 0;
    }
}
