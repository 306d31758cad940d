package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.backend.cyclecloud.slurm.TestCluster;
import dev.gantry.cli.swap.TestBackends;
import dev.gantry.Gantry;
import dev.gantry.Runs;
import dev.gantry.model.JobRecord;
import dev.gantry.model.AttemptOutcome;
import dev.gantry.model.AttemptRecord;
import dev.gantry.model.RunRecord;
import dev.gantry.model.RunState;
import dev.gantry.model.RunStatus;
import dev.gantry.hosts.events.FakeMetadataService;
import dev.gantry.ssh.TestHosts;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bound on lost work, proven: a step counts to 150 in ticks of 0.1 s, checkpointing its counter every 10 ticks
 * (1 s), atomically. It is evicted several times, each in the middle of an interval; it must end at exactly 150, every
 * tick done, and each eviction must lose less than one interval (the ticks since the last checkpoint). The time from
 * each eviction to the step running again is measured and printed.
 *
 * <ul>
 *   <li>manual backend, local transport, as an Azure Spot VM: a Preempt Scheduled Event (a fake instance metadata
 *       service); the job ends PREEMPTED and Gantry submits the next attempt, told to resume;
 *   <li>Slurm (the real test cluster), Spot: the job's node fails ({@code scontrol update state=down}) and Slurm
 *       requeues it, then it is requeued again ({@code scontrol requeue}); the same job runs again, told to resume,
 *       and Gantry only counts the evictions;
 *   <li>Slurm, on-demand: the node fails, the job ends PREEMPTED and Gantry submits the next attempt.
 * </ul>
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

    /** How a test evicts the step's job once it reached the wanted tick. */
    @FunctionalInterface
    private interface Evictor {
        void evict(Gantry gantry, JobRef job, int eviction) throws Exception;
    }

    @Test
    void onTheManualBackendAPreemptEventEndsTheJobAndTheNextAttemptResumes() throws Exception {
        try (FakeMetadataService imds = new FakeMetadataService(VM)) {
            String config = TestBackends.config(TestBackends.manualLocalSpot(imds.eventsUrl()), "spot:",
                    "  onDemandAfterEvictions: 0");
            Proof proof = prove("manual, local transport, Preempt events", config, work.resolve("progress"),
                    "preferred", EVICT_AT.length, (gantry, job, i) -> imds.preemptAndAwait(
                            gantry.backend("manual"), job, VM, Duration.ofSeconds(30)));
            assertEquals(List.of(AttemptOutcome.PREEMPTED, AttemptOutcome.PREEMPTED, AttemptOutcome.PREEMPTED,
                    AttemptOutcome.SUCCEEDED), proof.outcomes);
        }
    }

    @Test
    void overSshAPreemptEventEndsTheJobAndTheNextAttemptResumes() throws Exception {
        TestHosts.Host host = TestHosts.host(1);
        Path shared = Path.of("/tmp", "gantry-spot-proof-" + UUID.randomUUID());
        Files.createDirectories(shared);
        shared.toFile().setWritable(true, false); // the hosts' test user writes here; they share this file system
        try (FakeMetadataService imds = new FakeMetadataService(VM, InetAddress.getByName("10.200.0.1"))) {
            String config = String.join("\n",
                    "backend: manual",
                    "backends:",
                    "  manual:",
                    "    transport: ssh",
                    "    cancelGrace: 2s",
                    "    scheduledEvents.endpoint: " + imds.eventsUrl(),
                    "    defaults:",
                    "      user: " + host.user(),
                    "      identityFile: " + host.identity(),
                    "      spot: true",
                    "    hosts:",
                    "      - name: " + host.name(),
                    "        address: " + host.address(),
                    "        hostKeyFingerprint: '" + host.fingerprint() + "'",
                    "        workDir: " + shared.resolve("jobs"),
                    "runs:",
                    "  pollInterval: 1s",
                    "spot:",
                    "  onDemandAfterEvictions: 0",
                    "");
            Proof proof = prove("manual, over SSH, Preempt events", config, shared.resolve("progress"), "preferred",
                    2, (gantry, job, i) -> imds.preemptAndAwait(gantry.backend("manual"), job, VM,
                            Duration.ofSeconds(30)));
            assertEquals(List.of(AttemptOutcome.PREEMPTED, AttemptOutcome.PREEMPTED, AttemptOutcome.SUCCEEDED),
                    proof.outcomes);
        }
    }

    @Test
    void onSlurmAFailedNodeAndARequeueRunTheSameJobAgainFromItsCheckpoint() throws Exception {
        TestCluster cluster = TestCluster.get();
        Path shared = TestBackends.sharedDirectory(cluster, "spot-proof");
        Proof proof = prove("Slurm, Spot (requeued)", slurmConfig(cluster, shared), shared.resolve("progress"),
                "preferred", 2, (gantry, job, i) -> {
                    String slurmId = Files.readString(shared.resolve("jobs").resolve(job.id()).resolve("slurm-id"))
                            .strip();
                    if (i == 0) {
                        nodeFails(slurmId);
                    } else {
                        TestCluster.slurm("scontrol", "requeue", slurmId);
                    }
                });
        assertEquals(List.of(AttemptOutcome.SUCCEEDED), proof.outcomes, "one attempt: Slurm ran the same job again");
        assertEquals(2, proof.status.stepsByName().get("count").evictions(), "both evictions counted");
    }

    @Test
    void onSlurmAnOnDemandJobWhoseNodeFailsIsResumedByANewAttempt() throws Exception {
        TestCluster cluster = TestCluster.get();
        Path shared = TestBackends.sharedDirectory(cluster, "spot-proof");
        Proof proof = prove("Slurm, on-demand (preempted, new attempt)", slurmConfig(cluster, shared),
                shared.resolve("progress"), "never", 1, (gantry, job, i) -> nodeFails(Files.readString(
                        shared.resolve("jobs").resolve(job.id()).resolve("slurm-id")).strip()));
        assertEquals(List.of(AttemptOutcome.PREEMPTED, AttemptOutcome.SUCCEEDED), proof.outcomes);
    }

    /** What a proof saw: each attempt's end, and the run as it ended. */
    private record Proof(List<AttemptOutcome> outcomes, RunStatus status) {
    }

    /**
     * Runs the counter as a one-step workflow with {@code config}, evicting it {@code evictions} times (at the ticks
     * of {@link #EVICT_AT}), and checks the bound.
     */
    private Proof prove(String what, String config, Path progress, String spot, int evictions, Evictor evictor)
            throws Exception {
        Path checkpoints = progress.resolveSibling("checkpoints");
        Files.writeString(work.resolve("counter.sh"), counter(progress));
        Files.writeString(work.resolve("gantry.yaml"), config);
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
                "        command: [sh, -c, " + quoted(Files.readString(work.resolve("counter.sh"))) + "]",
                "        checkpoint: {path: " + checkpoints + ", every: 1m}",
                "        spot: " + spot,
                ""));
        try (Gantry gantry = Gantry.builder().workingDirectory(work).home(home)
                .environment(Map.of("HOME", home.toString(), "GANTRY_STATE_DIR", home.resolve("state").toString()))
                .build()) {
            Runs runs = gantry.runs();
            String runId = runs.start(work.resolve("spot.yaml")).run().id();
            ExecutorService driver = Executors.newSingleThreadExecutor();
            Future<RunRecord> done = driver.submit(() -> runs.drive(runId, Duration.ofMinutes(5), List.of()));
            List<Instant> evictedAt = new ArrayList<>();
            for (int i = 0; i < evictions; i++) {
                JobRef job = awaitTick(runs, runId, progress, EVICT_AT[i]);
                evictedAt.add(Instant.now());
                evictor.evict(gantry, job, i);
            }
            RunRecord finished = done.get(5, TimeUnit.MINUTES);
            driver.shutdown();
            assertEquals(RunState.SUCCEEDED, finished.state(), runs.history(runId).toString());
            RunStatus status = runs.status(runId);
            assertEquals(Integer.toString(TOTAL), Files.readString(checkpoints.resolve("count")).strip());

            // The progress log, in order: "start ATTEMPT EPOCH COUNT" each time the program starts, "tick N" after.
            List<String[]> lines = Files.readAllLines(progress).stream().map(l -> l.split(" ")).toList();
            List<Integer> lost = new ArrayList<>();
            List<Double> recoveries = new ArrayList<>();
            int reached = 0;
            int starts = 0;
            boolean[] ticked = new boolean[TOTAL + 1];
            for (String[] line : lines) {
                if (line[0].equals("tick")) {
                    reached = Integer.parseInt(line[1]);
                    ticked[reached] = true;
                    continue;
                }
                int resumedAt = Integer.parseInt(line[3]);
                if (starts > 0) {
                    lost.add(reached - resumedAt);
                    Instant running = Instant.ofEpochMilli(Math.round(Double.parseDouble(line[2]) * 1000));
                    recoveries.add(Duration.between(evictedAt.get(starts - 1), running).toMillis() / 1000.0);
                } else {
                    assertEquals(0, resumedAt, "the first run starts from nothing");
                }
                starts++;
            }
            assertEquals(evictions + 1, starts, "the program started once, then once after each eviction");
            for (int n = 1; n <= TOTAL; n++) {
                assertTrue(ticked[n], "tick " + n + " was done");
            }
            for (int l : lost) {
                assertTrue(l >= 0 && l < INTERVAL, "an eviction loses less than one checkpoint interval: " + lost);
            }
            System.out.printf(Locale.ROOT, "spot recovery proof (%s): %d ticks of 0.1 s, a checkpoint every %d "
                    + "ticks, %d eviction(s): finished at %d; ticks lost per eviction %s (bound %d); eviction to "
                    + "running again: %s s (poll interval 1 s)%n", what, TOTAL, INTERVAL, evictions, TOTAL, lost,
                    INTERVAL, recoveries);
            return new Proof(status.attemptsOf("count").stream().map(a -> a.outcome().orElseThrow()).toList(),
                    status);
        }
    }

    /** The counter, as one shell program; {@code progress} is where it logs its starts and ticks. */
    private static String counter(Path progress) {
        return String.join("; ",
                "n=0",
                "if [ \"$GANTRY_RESUME\" = 1 ] && [ -f \"$GANTRY_CHECKPOINT_DIR/count\" ]; then "
                        + "n=$(cat \"$GANTRY_CHECKPOINT_DIR/count\"); fi",
                "mkdir -p \"$GANTRY_CHECKPOINT_DIR\"",
                "echo \"start $GANTRY_ATTEMPT $(date +%s.%N) $n\" >> " + progress,
                "while [ $n -lt " + TOTAL + " ]; do sleep 0.1; n=$((n + 1)); echo \"tick $n\" >> " + progress
                        + "; if [ $((n % " + INTERVAL + ")) -eq 0 ]; then "
                        + "echo $n > \"$GANTRY_CHECKPOINT_DIR/count.tmp\" && "
                        + "mv \"$GANTRY_CHECKPOINT_DIR/count.tmp\" \"$GANTRY_CHECKPOINT_DIR/count\"; fi; done",
                "echo \"done at $n\"");
    }

    /** A YAML double-quoted string. */
    private static String quoted(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String slurmConfig(TestCluster cluster, Path shared) {
        return TestBackends.config(TestBackends.slurm(cluster, shared), "spot:", "  onDemandAfterEvictions: 0");
    }

    /** The job's node goes down and comes back at once, as a replacement Spot VM would. */
    private static void nodeFails(String slurmId) {
        String node = TestCluster.slurm("squeue", "-h", "-j", slurmId, "-o", "%N").strip().split(",")[0];
        TestCluster.slurm("scontrol", "update", "nodename=" + node, "state=down", "reason=gantry-spot-proof");
        TestCluster.slurm("scontrol", "update", "nodename=" + node, "state=resume");
    }

    /** Waits until the step's job is running and its counter reached {@code target}, and returns the job. */
    private static JobRef awaitTick(Runs runs, String runId, Path progress, int target) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline) {
            RunStatus status = runs.snapshot(runId);
            List<AttemptRecord> attempts = status.attemptsOf("count");
            if (!attempts.isEmpty()) {
                JobRecord job = status.jobs().get(attempts.get(attempts.size() - 1).jobId());
                List<String> lines = Files.exists(progress) ? Files.readAllLines(progress) : List.of();
                String last = lines.isEmpty() ? "" : lines.get(lines.size() - 1);
                int reached = last.startsWith("tick ") ? Integer.parseInt(last.substring(5)) : 0;
                if (job != null && job.ref().isPresent() && job.state() != JobState.PREEMPTED && reached >= target) {
                    return job.ref().get();
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the step never reached tick " + target + ": " + runs.history(runId));
    }
}
