package dev.gantry.backend.manual.internal.status;

import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * One job on N hosts: what each rank is told about the others, and the job's one status made from its ranks'. A job
 * is only as well as its worst rank: a failed rank fails the job (the others are then stopped by the caller), an
 * evicted one preempts it, a cancelled one cancels it; it succeeds when every rank exited 0.
 */
public final class MultiHostJob {
    /** The GPUs a rank may use; ROCm's HIP honours it as well. */
    public static final String GPU_VARIABLE = "CUDA_VISIBLE_DEVICES";

    /** One rank's own status. */
    public record Rank(int rank, String host, JobStatus status) {
    }

    private MultiHostJob() {
    }

    /**
     * The GPUs this rank holds, when the host has any; the rendezvous (rank 0's address and port, the number of
     * ranks, this rank's number) is the SPI's job-environment contract.
     */
    public static Map<String, String> gpuVisibility(List<Integer> gpus, boolean hostHasGpus) {
        Map<String, String> env = new TreeMap<>();
        if (hostHasGpus || !gpus.isEmpty()) {
            // Empty hides every GPU from a CPU job on a GPU host, so it cannot take a GPU another job holds.
            env.put(GPU_VARIABLE, String.join(",", gpus.stream().map(String::valueOf).toList()));
        }
        return env;
    }

    /** The job's status from its ranks' (rank order). A single rank's status is the job's, unchanged. */
    public static JobStatus aggregate(List<Rank> ranks) {
        if (ranks.size() == 1) {
            return ranks.get(0).status();
        }
        Optional<Instant> started = ranks.stream().map(r -> r.status().startedAt()).flatMap(Optional::stream)
                .min(Comparator.naturalOrder());
        Optional<Instant> ended = ranks.stream().map(r -> r.status().endedAt()).flatMap(Optional::stream)
                .max(Comparator.naturalOrder());
        for (JobState blame : List.of(JobState.FAILED, JobState.PREEMPTED, JobState.CANCELLED)) {
            Optional<Rank> first = ranks.stream().filter(r -> r.status().state() == blame).findFirst();
            if (first.isPresent()) {
                Rank r = first.get();
                return new JobStatus(blame, r.status().exitCode(), "rank " + r.rank() + " on " + r.host() + ": "
                        + r.status().message(), started, ended, r.status().evictions(), r.status().lastEviction());
            }
        }
        long succeeded = ranks.stream().filter(r -> r.status().state() == JobState.SUCCEEDED).count();
        if (succeeded == ranks.size()) {
            return new JobStatus(JobState.SUCCEEDED, OptionalInt.of(0), "all " + ranks.size()
                    + " ranks exited with code 0", started, ended);
        }
        long running = ranks.stream().filter(r -> r.status().state() == JobState.RUNNING).count();
        if (running + succeeded == ranks.size()) {
            return new JobStatus(JobState.RUNNING, OptionalInt.empty(), running + " of " + ranks.size()
                    + " ranks running" + (succeeded > 0 ? ", " + succeeded + " done" : ""), started,
                    Optional.empty());
        }
        Rank waiting = ranks.stream().filter(r -> !r.status().state().isTerminal()
                && r.status().state() != JobState.RUNNING).findFirst().orElseThrow();
        return new JobStatus(JobState.PENDING, OptionalInt.empty(), "rank " + waiting.rank() + " on "
                + waiting.host() + ": " + waiting.status().message(), started, Optional.empty());
    }

    /** The ranks to stop because another rank ended without success: empty while all is well. */
    public static List<Rank> toStop(List<Rank> ranks) {
        boolean broken = ranks.stream().anyMatch(r -> r.status().state().isTerminal()
                && r.status().state() != JobState.SUCCEEDED);
        if (!broken || ranks.size() == 1) {
            return List.of();
        }
        return ranks.stream().filter(r -> !r.status().state().isTerminal()).toList();
    }
}
