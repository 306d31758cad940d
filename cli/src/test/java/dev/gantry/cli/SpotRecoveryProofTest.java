package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.core.Gantry;
import dev.gantry.core.Runs;
import dev.gantry.core.jobs.JobRecord;
import dev.gantry.core.runs.AttemptOutcome;
import dev.gantry.core.runs.AttemptRecord;
import dev.gantry.core.runs.RunRecord;
import dev.gantry.core.runs.RunState;
import dev.gantry.core.runs.RunStatus;
import dev.gantry.hosts.events.FakeMetadataService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bound on lost work, proven on the manual backend's local transport with Azure's Scheduled Events (a fake
 * instance metadata service announcing Preempt, as Azure does for a Spot VM): a step counts to 150 in ticks of 0.1 s,
 * checkpointing its counter every 10 ticks (1 s). It is evicted three times at different points; each time Gantry
 * submits its next attempt, told to resume, and the step goes on from its checkpoint. It must end at exactly 150, with
 * at most one checkpoint interval (10 ticks) done again per eviction. The time from each eviction to the next attempt
 * running is measured and printed.
 */
class SpotRecoveryProofTest {
    private static final String VM = "spot-proof-vm";
    private static final int TOTAL = 150;
    private static final int INTERVAL = 10;
    /** Mid-interval, so that each eviction loses the ticks since the last checkpoint. */
    private static final int[] EVICT_AT = {34, 76, 112};

    @TempDir
    Path home;

    @TempDir
    Path work;

    @Test
    void anEvictedStepResumesFromItsCheckpointAndLosesAtMostOneIntervalEachTime() throws Exception {
        Path checkpoints = work.resolve("checkpoints");
        Path ticks = work.resolve("ticks.log");
        String program = String.join("\n",
                "n=0",
                "if [ \"$GANTRY_RESUME\" = 1 ] && [ -f \"$GANTRY_CHECKPOINT_DIR/count\" ]; then",
                "  n=$(cat \"$GANTRY_CHECKPOINT_DIR/count\"); fi",
                "mkdir -p \"$GANTRY_CHECKPOINT_DIR\"",
                "echo \"$GANTRY_ATTEMPT $(date +%s.%N) $n\" >> " + work.resolve("starts.log"),
                "while [ $n -lt " + TOTAL + " ]; do",
                "  sleep 0.1",
                "  n=$((n + 1))",
                "  echo \"$GANTRY_ATTEMPT $n\" >> " + ticks,
                "  if [ $((n % " + INTERVAL + ")) -eq 0 ]; then",
                "    echo $n > \"$GANTRY_CHECKPOINT_DIR/count.tmp\"",
                "    mv \"$GANTRY_CHECKPOINT_DIR/count.tmp\" \"$GANTRY_CHECKPOINT_DIR/count\"",
                "  fi",
                "done",
                "echo \"done at $n\"");
        Files.writeString(work.resolve("counter.sh"), program);
        Files.writeString(work.resolve("spot.yaml"), String.join("\n",
                "apiVersion: gantry.dev/v1",
                "kind: Workflow",
                "metadata: {name: spot-proof}",
                "spec:",
                "  steps:",
                "    - name: count",
                "      workload:",
                "        phase: training",
                "        model: small",
                "        command: [sh, " + work.resolve("counter.sh") + "]",
                "        checkpoint: {path: " + checkpoints + ", every: 1m}",
                "        spot: preferred",
                ""));

        try (FakeMetadataService imds = new FakeMetadataService(VM)) {
            Files.writeString(work.resolve("gantry.yaml"), String.join("\n",
                    "backend: manual",
                    "backends:",
                    "  manual:",
                    "    spot: true",
                    "    cancelGrace: 2s",
                    "    scheduledEvents.endpoint: " + imds.eventsUrl(),
                    "runs:",
                    "  pollInterval: 1s",
                    "spot:",
                    "  onDemandAfterEvictions: 0",
                    ""));
            try (Gantry gantry = Gantry.builder().workingDirectory(work).home(home)
                    .environment(Map.of("HOME", home.toString(), "GANTRY_STATE_DIR", home.resolve("state").toString()))
                    .build()) {
                Runs runs = gantry.runs();
                String runId = runs.start(work.resolve("spot.yaml")).run().id();
                ExecutorService driver = Executors.newSingleThreadExecutor();
                Future<RunRecord> done = driver.submit(() -> runs.drive(runId, Duration.ofMinutes(3), List.of()));
                Backend backend = gantry.backend("manual");
                List<Instant> noticed = new ArrayList<>();
                for (int i = 0; i < EVICT_AT.length; i++) {
                    JobRef job = awaitProgress(runs, runId, i + 1, ticks, EVICT_AT[i]);
                    noticed.add(Instant.now()); // the Preempt event is published now
                    imds.preemptAndAwait(backend, job, VM, Duration.ofSeconds(30));
                }
                RunRecord finished = done.get(3, TimeUnit.MINUTES);
                driver.shutdown();

                assertEquals(RunState.SUCCEEDED, finished.state(), runs.history(runId).toString());
                RunStatus status = runs.status(runId);
                List<AttemptRecord> attempts = status.attemptsOf("count");
                assertEquals(List.of(AttemptOutcome.PREEMPTED, AttemptOutcome.PREEMPTED, AttemptOutcome.PREEMPTED,
                        AttemptOutcome.SUCCEEDED), attempts.stream().map(a -> a.outcome().orElseThrow()).toList());
                assertEquals(Integer.toString(TOTAL), Files.readString(checkpoints.resolve("count")).strip());
                // Each line: the attempt, then the tick it did; each start: the attempt, when, and the count it resumed at.
                List<int[]> counted = Files.readAllLines(ticks).stream().map(l -> l.split(" "))
                        .map(f -> new int[] {Integer.parseInt(f[0]), Integer.parseInt(f[1])}).toList();
                List<String[]> starts = Files.readAllLines(work.resolve("starts.log")).stream()
                        .map(l -> l.split(" ")).toList();
                assertEquals(attempts.size(), starts.size(), "each attempt started once");
                for (int n = 1; n <= TOTAL; n++) {
                    int tick = n;
                    assertTrue(counted.stream().anyMatch(c -> c[1] == tick), "tick " + n + " was done");
                }
                List<Integer> lost = new ArrayList<>();
                List<Double> recoveries = new ArrayList<>();
                for (int i = 0; i < EVICT_AT.length; i++) {
                    int attempt = i + 1;
                    int reached = counted.stream().filter(c -> c[0] == attempt).mapToInt(c -> c[1]).max().orElse(0);
                    int resumedAt = Integer.parseInt(starts.get(i + 1)[2]);
                    lost.add(reached - resumedAt);
                    Instant running = Instant.ofEpochMilli(Math.round(Double.parseDouble(starts.get(i + 1)[1]) * 1000));
                    recoveries.add(Duration.between(noticed.get(i), running).toMillis() / 1000.0);
                }
                for (int l : lost) {
                    assertTrue(l >= 0 && l < INTERVAL, "an eviction loses less than one checkpoint interval: " + lost);
                }
                assertEquals(0, Integer.parseInt(starts.get(0)[2]), "the first attempt starts from nothing");
                System.out.printf(Locale.ROOT, "spot recovery proof: %d ticks of 0.1 s, a checkpoint every %d ticks, "
                        + "%d evictions: finished at %s; ticks lost per eviction %s (bound %d); Preempt notice to "
                        + "the next attempt running: %s s (poll interval 1 s, SIGTERM grace 2 s)%n", TOTAL, INTERVAL,
                        EVICT_AT.length, Files.readString(checkpoints.resolve("count")).strip(), lost, INTERVAL,
                        recoveries);
            }
        }
    }

    /**
     * Waits until attempt {@code attempt} of the step runs and the counter reached {@code ticks}, and returns its
     * job.
     */
    private static JobRef awaitProgress(Runs runs, String runId, int attempt, Path ticks, int target)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (System.nanoTime() < deadline) {
            RunStatus status = runs.snapshot(runId);
            List<AttemptRecord> attempts = status.attemptsOf("count");
            if (attempts.size() == attempt) {
                JobRecord job = status.jobs().get(attempts.get(attempt - 1).jobId());
                int reached = Files.exists(ticks) ? Files.readAllLines(ticks).stream()
                        .mapToInt(l -> Integer.parseInt(l.split(" ")[1])).reduce((a, b) -> b).orElse(0) : 0;
                if (job != null && job.ref().isPresent() && job.state() != JobState.PREEMPTED && reached >= target) {
                    return job.ref().get();
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("attempt " + attempt + " never reached tick " + target + ": "
                + runs.history(runId));
    }
}
