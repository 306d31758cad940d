package dev.gantry.cli.swap;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the swap test's workload (swap/observe.yaml) observed in one run, read from the CLI's two streams: its
 * arguments, declared environment and contract values (its {@code observed KIND NAME=VALUE} lines), its output per
 * stream, and the names of the variables it was given.
 *
 * @param values each observation by the name the table gives it, in the workload's order
 * @param stdout the job's standard output lines, as {@code gantry run} printed them (its own summary left out)
 * @param stderr the job's standard error lines (Gantry's own {@code gantry:} lines left out)
 * @param names the names of every variable the workload was given
 */
record Observation(Map<String, String> values, List<String> stdout, List<String> stderr, Set<String> names) {
    /** How the line that lists the names of the workload's variables starts. */
    private static final String NAMES_LINE = "observed names ";

    /** Reads a finished {@code gantry run observe.yaml} (table output). */
    static Observation of(String cliOut, String cliErr) {
        // The names differ by design (each orchestrator adds its own): listed by ownVariables, not compared as output.
        List<String> stdout = new ArrayList<>(cliOut.lines().map(line -> line.startsWith(NAMES_LINE)
                ? NAMES_LINE + "..." : line).toList());
        if (!stdout.isEmpty() && stdout.get(stdout.size() - 1).startsWith("gantry: ")) {
            stdout.remove(stdout.size() - 1);
        }
        List<String> stderr = cliErr.lines().filter(line -> !line.startsWith("gantry: ")).toList();
        Map<String, String> values = new LinkedHashMap<>();
        Set<String> names = Set.of();
        List<String> all = new ArrayList<>(cliOut.lines().toList());
        all.addAll(stderr);
        for (String line : all) {
            String[] parts = line.split(" ", 3);
            if (parts.length < 3 || !parts[0].equals("observed")) {
                continue;
            }
            switch (parts[1]) {
                case "argv" -> values.put("arguments", parts[2]);
                case "env", "contract" -> {
                    int equals = parts[2].indexOf('=');
                    String kind = parts[1].equals("env") ? "declared environment " : "contract ";
                    values.put(kind + parts[2].substring(0, equals), parts[2].substring(equals + 1));
                }
                case "names" -> names = Set.of(parts[2].split(" "));
                default -> { }
            }
        }
        return new Observation(values, List.copyOf(stdout), List.copyOf(stderr), names);
    }

    /**
     * The output as one stream, as a backend that merges them returns it: the workload writes its standard error
     * line between its last two standard output lines, half a second from each.
     */
    List<String> merged() {
        if (stderr.isEmpty()) {
            return stdout;
        }
        List<String> merged = new ArrayList<>(stdout.subList(0, Math.max(0, stdout.size() - 1)));
        merged.addAll(stderr);
        merged.add(stdout.get(stdout.size() - 1));
        return merged;
    }

    /**
     * The variables the backend gave beyond the contract, the declared ones and those of the process that runs the
     * test (which the local transport passes on), grouped by their prefix: {@code SLURM_* (31)}; a {@code GANTRY_}
     * variable outside the contract is named in full.
     */
    String ownVariables(Set<String> contract, Set<String> declared, Set<String> inherited) {
        Map<String, Integer> prefixes = new TreeMap<>();
        for (String name : names) {
            if (contract.contains(name) || declared.contains(name) || inherited.contains(name)) {
                continue;
            }
            int underscore = name.indexOf('_', 1);
            String group = underscore < 0 || name.startsWith("GANTRY_") ? name : name.substring(0, underscore) + "_*";
            prefixes.merge(group, 1, Integer::sum);
        }
        List<String> parts = new ArrayList<>();
        prefixes.forEach((prefix, count) -> parts.add(count == 1 ? prefix : prefix + " (" + count + ")"));
        return parts.isEmpty() ? "none" : String.join(", ", parts);
    }
}
