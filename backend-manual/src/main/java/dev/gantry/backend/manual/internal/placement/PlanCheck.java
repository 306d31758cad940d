package dev.gantry.backend.manual.internal.placement;

import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.hosts.MachineFacts;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/** What stops a plan from running on one machine the user manages. */
public final class PlanCheck {
    private PlanCheck() {
    }

    public static List<Problem> problems(Plan plan, MachineFacts machine) {
        List<Problem> problems = new ArrayList<>();
        if (plan.nodes() > 1) {
            problems.add(Problem.of("resources.nodes", "the local transport runs one node, the plan asks for "
                    + plan.nodes() + "; use nodes: 1, or a backend that runs multi-node jobs (cyclecloud, batch, aks)"));
        }
        int gpus = plan.gpusPerNode();
        if (gpus > machine.nvidiaGpus()) {
            problems.add(Problem.of("resources.gpus", "the plan needs " + gpus + " GPU(s) of size "
                    + plan.vmSize().name() + " but this machine has " + machine.nvidiaGpus()
                    + " (counted with nvidia-smi -L); lower gpus or run on a machine with enough GPUs"));
        }
        if (plan.vmSize().vcpus() > machine.vcpus()) {
            problems.add(Problem.of("resources.vcpus", "the plan's size " + plan.vmSize().name() + " has "
                    + plan.vmSize().vcpus() + " vCPUs but this machine has " + machine.vcpus()
                    + "; choose a smaller size or lower vcpus"));
        }
        machine.memoryGib().ifPresent(memory -> {
            if (plan.vmSize().memoryGib() > memory) {
                problems.add(Problem.of("resources.memoryGib", "the plan's size " + plan.vmSize().name() + " has "
                        + gib(plan.vmSize().memoryGib()) + " GiB of memory but this machine has "
                        + gib(memory) + " GiB; choose a smaller size or lower memoryGib"));
            }
        });
        return problems;
    }

    private static String gib(double value) {
        return BigDecimal.valueOf(value).setScale(1, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }
}
