package dev.gantry.cli.swap;

import dev.gantry.backend.cyclecloud.slurm.TestCluster;
import java.util.List;

/**
 * What the test cluster's schedulers say now, for the message of a command that did not end in time: a job that
 * waits for ever on a node Slurm holds down, or in a Grid Engine queue in error state, shows there.
 */
final class ClusterSnapshot {
    private ClusterSnapshot() {
    }

    static String now() {
        StringBuilder text = new StringBuilder("--- the test cluster now\n");
        List<List<String>> commands = List.of(
                List.of("sinfo", "-N", "-o", "%N %T %E"),
                List.of("squeue", "-a", "-o", "%i %j %T %r %N"),
                List.of("qstat", "-f", "-u", "*", "-explain", "aAcE"));
        for (List<String> command : commands) {
            text.append("$ ").append(String.join(" ", command)).append('\n');
            try {
                text.append(command.get(0).startsWith("q") ? TestCluster.gridEngine(command.toArray(String[]::new))
                        : TestCluster.slurm(command.toArray(String[]::new)));
            } catch (RuntimeException | AssertionError e) {
                text.append("(failed: ").append(e.getMessage()).append(")\n");
            }
        }
        return text.toString();
    }
}
