package dev.gantry.hosts.jobs;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where one rank of a job runs and what it holds there, as the {@code placement} file of the rank's job directory
 * records it (one line of {@code key=value} words). Every rank's file lists the hosts of all ranks in rank order, so
 * any surviving rank tells which host the others were on, and the GPUs it holds are what placement subtracts.
 *
 * @param rank this rank, 0-based
 * @param hosts the host of every rank, in rank order
 * @param gpus the GPU indexes this rank holds ({@code CUDA_VISIBLE_DEVICES})
 * @param vcpus CPUs this rank was placed for
 * @param memoryGib memory this rank was placed for
 */
public record RankPlacement(int rank, List<String> hosts, List<Integer> gpus, int vcpus, double memoryGib) {
    public static final String FILE = "placement";

    public RankPlacement {
        hosts = List.copyOf(hosts);
        gpus = List.copyOf(gpus);
    }

    public int world() {
        return hosts.size();
    }

    public String host() {
        return hosts.get(rank);
    }

    public String line() {
        return "rank=" + rank + " hosts=" + String.join(",", hosts) + " gpus="
                + String.join(",", gpus.stream().map(String::valueOf).toList()) + " vcpus=" + vcpus
                + " memoryGib=" + String.format(Locale.ROOT, "%.3f", memoryGib) + "\n";
    }

    /** The file's line; empty when it is missing or damaged (the rank then holds nothing placement knows of). */
    public static Optional<RankPlacement> parse(String line) {
        try {
            int rank = -1;
            int vcpus = 0;
            double memory = 0;
            List<String> hosts = List.of();
            List<Integer> gpus = new ArrayList<>();
            for (String word : line.strip().split(" ")) {
                int eq = word.indexOf('=');
                String key = word.substring(0, eq);
                String value = word.substring(eq + 1);
                switch (key) {
                    case "rank" -> rank = Integer.parseInt(value);
                    case "hosts" -> hosts = List.of(value.split(","));
                    case "gpus" -> {
                        for (String g : value.split(",")) {
                            if (!g.isEmpty()) {
                                gpus.add(Integer.parseInt(g));
                            }
                        }
                    }
                    case "vcpus" -> vcpus = Integer.parseInt(value);
                    case "memoryGib" -> memory = Double.parseDouble(value);
                    default -> { } // a later version's field
                }
            }
            if (rank < 0 || rank >= hosts.size()) {
                return Optional.empty();
            }
            return Optional.of(new RankPlacement(rank, hosts, gpus, vcpus, memory));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }
}
