package dev.gantry.benchmarks;

import dev.gantry.model.RunRecord;
import dev.gantry.model.RunState;
import dev.gantry.core.runs.RunStore;
import dev.gantry.model.StepRecord;
import dev.gantry.model.StepState;
import dev.gantry.runs.state.SqlRunStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Writes N finished workflow runs (a step each) into a state directory's database, so that {@code gantry list --all}
 * can be timed over them as a user runs it: {@code FillRuns STATE_DIR N}, then
 * {@code GANTRY_STATE_DIR=STATE_DIR ./gantry list --all --limit N}.
 */
public final class FillRuns {
    private FillRuns() {
    }

    public static void main(String[] args) {
        Path state = Path.of(args[0]);
        int runs = Integer.parseInt(args[1]);
        try (SqlRunStore store = SqlRunStore.open(state, Clock.systemUTC())) {
            fill(store, runs, Instant.parse("2026-12-01T00:00:00Z"));
        }
        System.out.println("wrote " + runs + " runs into " + state);
    }

    /** Writes {@code runs} finished runs, one a second from {@code t0}. */
    static void fill(RunStore store, int runs, Instant t0) {
        for (int i = 0; i < runs; i++) {
            String id = String.format(Locale.ROOT, "train-20261201-%06d-abcdef", i);
            Instant at = t0.plusSeconds(i);
            store.create(new RunRecord(id, "train", "/work/train.yaml", "sha256:0f3a", Optional.empty(),
                    Optional.empty(), "embedded", LocalDate.parse("2026-11-29"), "0.1.0", "manual",
                    RunState.SUCCEEDED, Optional.of("4 of 4 jobs succeeded"), at, at, Optional.of(at)),
                    List.of(StepRecord.of(id, "train", StepState.SUCCEEDED, at)));
        }
    }
}
