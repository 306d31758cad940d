package dev.gantry.backend.cyclecloud.internal.slurm;

import dev.gantry.api.Plan;
import dev.gantry.api.backend.HostReport;
import dev.gantry.backend.cyclecloud.internal.PartitionChoice;
import dev.gantry.backend.cyclecloud.internal.login.LoginNode;
import dev.gantry.backend.cyclecloud.internal.login.NodeProbes;
import dev.gantry.hosts.probe.ProbeScript;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Probes the cluster's compute nodes through Slurm: the host probe the manual backend runs over SSH (drivers, GPUs,
 * InfiniBand, CPUs, memory, disk) runs on each node as a one-task srun, all of them in one command on the login
 * node, and each node's output is checked against the plan (or surveyed without one). A node busy with other jobs,
 * or down, is reported with what srun said.
 */
final class SlurmDoctor {
    /** Each node's probe is bounded by the script (srun --immediate, timeout); this bounds them all. */
    private static final Duration TIMEOUT = Duration.ofMinutes(10);
    private static final NodeProbes PROBES = new NodeProbes("slurm", "srun", "partition", "sinfo",
            node -> "the node may be busy (all its CPUs allocated), drained or down: sinfo -N -n " + node
                    + " says which; free it or run gantry doctor again later");

    private final LoginNode login;
    private final String workDir;
    private final PartitionChoice partitions;

    SlurmDoctor(LoginNode login, String workDir, PartitionChoice partitions) {
        this.login = login;
        this.workDir = workDir;
        this.partitions = partitions;
    }

    List<HostReport> reports(Optional<Plan> plan) {
        String partition = plan.flatMap(partitions::partitionFor).orElse("");
        String output = login.run(SlurmScripts.SCRIPTS.doctor(), List.of(login.bin(), workDir, partition,
                ProbeScript.TEXT), Optional.empty(), TIMEOUT);
        return parse(output, workDir, plan);
    }

    static List<HostReport> parse(String output, String workDir, Optional<Plan> plan) {
        return PROBES.parse(output, workDir, plan);
    }
}
