package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worked PyTorch example of docs/spot.md, run as the page shows it: a real PyTorch (Debian's, on the CPU) trains
 * as a workflow step on the manual backend configured as an Azure Spot VM, is evicted by a Preempt Scheduled Event in
 * the middle of its run, and resumes on its next attempt from the checkpoint it saved. The example seeds its model
 * and each epoch's data, so the run that was evicted must end with exactly the weights, and so the loss, of one that
 * never was: that proves the checkpoint restored the model and the optimizer whole, not just the epoch number.
 */
class PyTorchCheckpointExampleTest {
    private static final String VM = "pytorch-spot-vm";
    private static final int EPOCHS = 20;
    private static final int EVICT_AFTER_EPOCH = 4;
    /** Debian's interpreter, the one its python3-torch package installs for (a python3 earlier on PATH may lack it). */
    private static final String PYTHON = "/usr/bin/python3";
    private static final Pattern SAVED = Pattern.compile("saved epoch (\\d+) loss (\\S+)");
    private static final Pattern RESUMED = Pattern.compile("resuming at epoch (\\d+) \\(attempt 2\\)");

    @TempDir
    Path home;

    @TempDir
    Path work;

    @Test
    void theDocumentedExampleResumesFromItsCheckpointAfterAnEvictionAndEndsAsIfNeverEvicted() throws Exception {
        Path script = work.resolve("train.py");
        Files.writeString(script, example());
        String uninterrupted = lastLoss(python(script, work.resolve("reference-checkpoints")));

        try (FakeMetadataService imds = new FakeMetadataService(VM)) {
            Files.writeString(work.resolve("gantry.yaml"),
                    TestBackends.config(TestBackends.manualLocalSpot(imds.eventsUrl())));
            Files.writeString(work.resolve("train.yaml"), String.join("\n",
                    "apiVersion: gantry.dev/v1",
                    "kind: Workflow",
                    "metadata: {name: pytorch-spot}",
                    "spec:",
                    "  steps:",
                    "    - name: train",
                    "      workload:",
                    "        phase: training",
                    "        model: small",
                    "        command: [" + PYTHON + ", " + script + "]",
                    "        env: {EPOCHS: '" + EPOCHS + "', STEPS_PER_EPOCH: '" + stepsPerEpoch() + "'}",
                    "        checkpoint: {path: " + work.resolve("checkpoints") + ", every: 1m}",
                    "        spot: preferred",
                    ""));
            try (Gantry gantry = Gantry.builder().workingDirectory(work).home(home)
                    .environment(Map.of("HOME", home.toString(), "GANTRY_STATE_DIR",
                            home.resolve("state").toString()))
                    .build()) {
                Runs runs = gantry.runs();
                String runId = runs.start(work.resolve("train.yaml")).run().id();
                ExecutorService driver = Executors.newSingleThreadExecutor();
                Future<RunRecord> done = driver.submit(() -> runs.drive(runId, Duration.ofMinutes(5), List.of()));
                JobRef first = awaitEpoch(gantry, runs, runId, EVICT_AFTER_EPOCH);
                imds.preemptAndAwait(gantry.backend("manual"), first, VM, Duration.ofSeconds(30));
                RunRecord finished = done.get(5, TimeUnit.MINUTES);
                driver.shutdown();
                assertEquals(RunState.SUCCEEDED, finished.state(), runs.history(runId).toString());

                RunStatus status = runs.status(runId);
                List<AttemptRecord> attempts = status.attemptsOf("train");
                assertEquals(List.of(AttemptOutcome.PREEMPTED, AttemptOutcome.SUCCEEDED), attempts.stream()
                        .map(a -> a.outcome().orElseThrow()).toList());
                List<String> before = output(gantry, attempts.get(0).jobId());
                List<String> after = output(gantry, attempts.get(1).jobId());
                int lastSaved = lastEpoch(before);
                Matcher resumed = after.stream().map(RESUMED::matcher).filter(Matcher::matches).findFirst()
                        .orElseThrow(() -> new AssertionError("attempt 2 did not resume: " + after));
                int resumedAt = Integer.parseInt(resumed.group(1));
                // Saved, then printed: an eviction between the two loses the print, never the checkpoint.
                assertTrue(resumedAt == lastSaved + 1 || resumedAt == lastSaved + 2, "attempt 2 resumed at epoch "
                        + resumedAt + " after attempt 1 printed epoch " + lastSaved + " as saved");
                assertTrue(lastSaved >= EVICT_AFTER_EPOCH && lastSaved < EPOCHS - 1, "evicted mid-run: " + before);
                assertEquals(EPOCHS - 1, lastEpoch(after));
                assertEquals("trained " + EPOCHS + " epochs", after.get(after.size() - 1));
                assertEquals(uninterrupted, lastLoss(after), "the evicted run ends where an uninterrupted one does");
                System.out.printf(Locale.ROOT, "pytorch checkpoint example: %d epochs of %d steps, evicted after "
                        + "epoch %d, resumed at epoch %d; final loss %s, as without the eviction%n", EPOCHS,
                        stepsPerEpoch(), lastSaved, resumedAt, uninterrupted);
            }
        }
    }

    /** The python block that follows "A worked PyTorch example" in docs/spot.md. */
    static String example() throws Exception {
        String page = Files.readString(Path.of("..", "docs", "spot.md").toAbsolutePath().normalize());
        int at = page.indexOf("A worked PyTorch example");
        assertTrue(at >= 0, "docs/spot.md has no worked PyTorch example");
        int start = page.indexOf("```python\n", at) + "```python\n".length();
        return page.substring(start, page.indexOf("```", start));
    }

    /** Enough work per epoch that an eviction lands in the middle of the run, not after it. */
    private static int stepsPerEpoch() {
        return 3;
    }

    /** The example run straight through, without Gantry: what training without an eviction prints. */
    private List<String> python(Path script, Path checkpoints) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(PYTHON, script.toString()).redirectErrorStream(true);
        builder.environment().putAll(Map.of("GANTRY_CHECKPOINT_DIR", checkpoints.toString(), "EPOCHS",
                Integer.toString(EPOCHS), "STEPS_PER_EPOCH", Integer.toString(stepsPerEpoch())));
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
            fail("the example did not run with " + PYTHON + " and torch (scripts/test-all.sh installs Debian's "
                    + "python3-torch): " + out);
        }
        return out.lines().toList();
    }

    private static JobRef awaitEpoch(Gantry gantry, Runs runs, String runId, int epoch) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline) {
            List<AttemptRecord> attempts = runs.snapshot(runId).attemptsOf("train");
            // The run names its attempt's job a moment before the job's own record is written: until then the job
            // is not found, and the wait goes on.
            Optional<JobRecord> job = attempts.isEmpty() ? Optional.empty() : knownJob(gantry, attempts.get(0).jobId());
            if (job.isPresent() && job.get().ref().isPresent() && job.get().state() == JobState.RUNNING
                    && lastEpoch(output(gantry, job.get().id())) >= epoch) {
                return job.get().ref().get();
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the example never saved epoch " + epoch + ": " + runs.history(runId));
    }

    private static Optional<JobRecord> knownJob(Gantry gantry, String jobId) {
        try {
            return Optional.of(gantry.job(jobId));
        } catch (GantryException e) {
            if (e.code() != ErrorCode.JOB_NOT_FOUND) {
                throw e;
            }
            return Optional.empty();
        }
    }

    private static List<String> output(Gantry gantry, String jobId) throws InterruptedException {
        List<String> lines = new ArrayList<>();
        gantry.logs(jobId, LogOptions.all(), line -> {
            if (line.stream() == LogLine.Stream.STDOUT) {
                lines.add(line.text());
            }
        });
        return lines;
    }

    private static int lastEpoch(List<String> lines) {
        int last = -1;
        for (String line : lines) {
            Matcher m = SAVED.matcher(line);
            if (m.matches()) {
                last = Integer.parseInt(m.group(1));
            }
        }
        return last;
    }

    private static String lastLoss(List<String> lines) {
        String loss = "";
        for (String line : lines) {
            Matcher m = SAVED.matcher(line);
            if (m.matches()) {
                loss = m.group(2);
            }
        }
        assertTrue(!loss.isEmpty(), "no epoch saved: " + lines);
        return loss;
    }
}
