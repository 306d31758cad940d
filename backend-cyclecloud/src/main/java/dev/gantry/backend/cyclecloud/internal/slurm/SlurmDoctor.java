package dev.gantry.backend.cyclecloud.internal.slurm;

import dev.gantry.api.Plan;
import dev.gantry.api.backend.HostCheck;
import dev.gantry.api.backend.HostReport;
import dev.gantry.hosts.HostDoctor;
import dev.gantry.hosts.probe.ProbeScript;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

    private final SlurmLogin login;
    private final String workDir;
    private final PartitionChoice partitions;

    SlurmDoctor(SlurmLogin login, String workDir, PartitionChoice partitions) {
        this.login = login;
        this.workDir = workDir;
        this.partitions = partitions;
    }

    List<HostReport> reports(Optional<Plan> plan) {
        String partition = plan.flatMap(partitions::partitionFor).orElse("");
        String output = login.run(SlurmLogin.Script.DOCTOR, List.of(login.slurmBin(), workDir, partition,
                ProbeScript.TEXT), Optional.empty(), TIMEOUT);
        return parse(output, workDir, plan);
    }

    static List<HostReport> parse(String output, String workDir, Optional<Plan> plan) {
        List<HostReport> reports = new ArrayList<>();
        String node = null;
        String part = "";
        StringBuilder probe = new StringBuilder();
        for (String line : output.split("\n", -1)) {
            if (line.startsWith("=error ")) {
                reports.add(new HostReport("slurm", Map.of(), List.of(new HostCheck("slurm.nodes",
                        HostCheck.Status.MISSING, line.substring(7).strip(), "sinfo listing the compute nodes",
                        "check that slurmctld is up and that this is the cluster's login node"))));
            } else if (line.startsWith("=node ")) {
                String[] words = line.substring(6).strip().split(" ");
                node = words[0];
                part = words.length > 1 ? words[1] : "";
                probe.setLength(0);
            } else if (line.startsWith("=status ") && node != null) {
                int status = Integer.parseInt(line.substring(8).strip());
                reports.add(report(node, part, status, probe.toString(), workDir, plan));
                node = null;
            } else if (node != null) {
                probe.append(line).append('\n');
            }
        }
        return reports;
    }

    private static HostReport report(String node, String partition, int status, String output, String workDir,
                                     Optional<Plan> plan) {
        if (status != 0 || !output.contains(ProbeScript.START)) {
            String said = output.strip().isEmpty() ? "srun exited " + status : output.strip();
            return new HostReport(node, Map.of("partition", partition), List.of(new HostCheck("slurm.srun",
                    HostCheck.Status.MISSING, said, "a one-task srun on the node",
                    "the node may be busy (all its CPUs allocated), drained or down: sinfo -N -n " + node
                            + " says which; free it or run gantry doctor again later")));
        }
        HostReport probed = HostDoctor.report(node, output, workDir, plan, "none");
        Map<String, String> facts = new java.util.LinkedHashMap<>(Map.of("partition", partition));
        facts.putAll(probed.facts());
        return new HostReport(node, facts, probed.checks());
    }
}
