package dev.gantry.backend.batch.internal.render;

import com.microsoft.azure.batch.protocol.models.EnvironmentSetting;
import dev.gantry.api.Plan;
import dev.gantry.api.backend.JobEnvironment;
import dev.gantry.api.backend.StartChecks;
import dev.gantry.api.backend.SubmitOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A task's {@code environmentSettings}: argv as {@code GANTRY_ARGC} and {@code GANTRY_ARG_<i>}, the working
 * directory, the workload's variables, and the static part of the job-environment contract (the names that differ
 * per node are set by the launcher). Every value travels as it is: no quoting, no escaping.
 */
final class TaskEnvironment {
    /** The contract's names that differ per node: the launcher sets them, not the task. */
    static final Set<String> PER_NODE = Set.of(JobEnvironment.NODE_RANK_GANTRY, JobEnvironment.NODE_RANK,
            JobEnvironment.RANK, JobEnvironment.MASTER_ADDR);

    private TaskEnvironment() {
    }

    static List<EnvironmentSetting> of(String jobRefId, Plan plan, SubmitOptions options, int masterPort) {
        Map<String, String> env = new LinkedHashMap<>();
        List<String> argv = StartChecks.command(plan);
        env.put(Launcher.ARGC, Integer.toString(argv.size()));
        for (int i = 0; i < argv.size(); i++) {
            env.put(Launcher.ARG_PREFIX + i, argv.get(i));
        }
        plan.workload().workingDir().ifPresent(dir -> env.put(Launcher.WORKDIR, dir));
        Map<String, String> contract = new LinkedHashMap<>(JobEnvironment.of(jobRefId, plan, options,
                new JobEnvironment.Rendezvous(0, "127.0.0.1", masterPort)));
        contract.keySet().removeAll(PER_NODE);
        // The contract wins over a workload variable of the same name (WORLD_SIZE, MASTER_PORT, ...).
        plan.workload().env().forEach((name, value) -> {
            if (!contract.containsKey(name) && !PER_NODE.contains(name)) {
                env.put(name, value);
            }
        });
        env.putAll(contract);
        List<EnvironmentSetting> settings = new ArrayList<>();
        env.forEach((name, value) -> settings.add(new EnvironmentSetting().withName(name).withValue(value)));
        return settings;
    }
}
