package dev.gantry.backend.cyclecloud.internal.login;

import dev.gantry.api.Plan;
import dev.gantry.api.backend.HostCheck;
import dev.gantry.api.backend.HostReport;
import dev.gantry.hosts.HostDoctor;
import dev.gantry.hosts.probe.SettingNames;
import dev.gantry.hosts.probe.ProbeScript;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * What a doctor script printed after running the shared host probe on each compute node through the scheduler
 * ({@code =node NAME QUEUE}, the probe's output, {@code =status CODE}, per node; {@code =error MESSAGE} when the
 * nodes could not be listed), as one report per node checked against the plan: a pure function.
 *
 * @param scheduler the scheduler's name in check names ({@code slurm}, {@code gridengine})
 * @param runner what ran the probe on a node, for the check's name and text ({@code srun}, {@code qsub})
 * @param queueFact the fact that names the node's partition or queue ({@code partition}, {@code queue})
 * @param listing what lists the nodes, for the message when that failed
 * @param busyAdvice the advice when a node could not run the probe, given the node's name
 */
public record NodeProbes(String scheduler, String runner, String queueFact, String listing,
                         UnaryOperator<String> busyAdvice) {
    public List<HostReport> parse(String output, String workDir, Optional<Plan> plan) {
        List<HostReport> reports = new ArrayList<>();
        String node = null;
        String queue = "";
        StringBuilder probe = new StringBuilder();
        for (String line : output.split("\n", -1)) {
            if (line.startsWith("=error ")) {
                reports.add(new HostReport(scheduler, Map.of(), List.of(new HostCheck(scheduler + ".nodes",
                        HostCheck.Status.MISSING, line.substring(7).strip(), listing + " listing the compute nodes",
                        "check that the scheduler is up and that this is the cluster's login node"))));
            } else if (line.startsWith("=node ")) {
                String[] words = line.substring(6).strip().split(" ");
                node = words[0];
                queue = words.length > 1 ? words[1] : "";
                probe.setLength(0);
            } else if (line.startsWith("=status ") && node != null) {
                int status = JobRecords.number(line.substring(8)).orElse(-1);
                reports.add(report(node, queue, status, probe.toString(), workDir, plan));
                node = null;
            } else if (node != null) {
                probe.append(line).append('\n');
            }
        }
        return reports;
    }

    private HostReport report(String node, String queue, int status, String output, String workDir,
                              Optional<Plan> plan) {
        if (status != 0 || !output.contains(ProbeScript.START)) {
            String said = output.strip().isEmpty() ? runner + " exited " + status : output.strip();
            return new HostReport(node, Map.of(queueFact, queue), List.of(new HostCheck(scheduler + "." + runner,
                    HostCheck.Status.MISSING, said, "a one-task " + runner + " on the node", busyAdvice.apply(node))));
        }
        HostReport probed = HostDoctor.report(node, output, workDir, plan, "none",
                new SettingNames("backends.cyclecloud.workDir", "backends.cyclecloud"));
        Map<String, String> facts = new LinkedHashMap<>(Map.of(queueFact, queue));
        facts.putAll(probed.facts());
        return new HostReport(node, facts, probed.checks());
    }
}
