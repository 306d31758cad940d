package dev.gantry.cli.swap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.cli.CliRun;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One run of the swap test's Spot workflow (swap/spot.yaml, one step, {@code train}) on one backend: started with
 * {@code --logs}, its job evicted once it ticks, then followed to its end; the verdict is a cell of the test's table.
 */
final class SpotRun {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern STARTED_RUN = Pattern.compile("gantry: started run (\\S+) ");
    /** The run's progress line when its driver counted an eviction of the step. */
    private static final Pattern EVICTED = Pattern.compile("(?m)^\\S+ +train +evicted ");

    private SpotRun() {
    }

    /**
     * Runs {@code spec} with {@code config} and a private {@code runHome}, evicts its step's job once it ticks,
     * and says how the run ended: {@code same (...)}, or {@code different: WHAT} when the step did not succeed, its
     * eviction was not counted once, or no run after it was told to resume.
     */
    static String prove(String environment, CliLauncher cli, Path runHome, Path config, Path spec,
            Evictions.Eviction eviction) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CompletableFuture<CliRun> running = cli.start(runHome, out, err, "--config", config.toString(), "run",
                spec.toString(), "--logs");
        Matcher started = STARTED_RUN.matcher("");
        awaitOutput(environment, running, out, err, () -> started.reset(err.toString()).find());
        String runId = started.group(1);
        awaitOutput(environment, running, out, err, () -> out.toString().contains("train | tick 3"));
        JsonNode attempts = status(cli, runHome, config, runId).path("steps").path(0).path("attemptList");
        eviction.evict(attempts.path(attempts.size() - 1).path("backendJobId").asText());
        // The run's progress line, the moment its driver counted the eviction: the VM is then back at once, before
        // the driver's next poll (1 s), so that the next attempt does not see the same eviction notice.
        awaitOutput(environment, running, out, err, () -> EVICTED.matcher(err.toString()).find());
        eviction.evicted();
        CliRun done = CliLauncher.finish(running, out, err, "run", spec.toString(), "--logs");
        JsonNode step = status(cli, runHome, config, runId).path("steps").path(0);
        System.out.println("swap by configuration: Spot on " + environment + ": " + done.out.lines()
                .filter(line -> !line.startsWith("train | tick ")).collect(Collectors.joining("\n")));
        // What each run of the step said at its start, from the live lines and from the step's log once it ended:
        // a run that Slurm requeued writes its output file anew, which the live lines may not show again; and the
        // files of a Batch task go with its node, which the fake retires 5 s after the run (node retention), so
        // that a log read later (on a loaded machine) finds them gone.
        CliRun log = cli.run(runHome, "--config", config.toString(), "logs", runId, "train");
        List<String> starts = Stream.concat(done.out.lines().map(line -> line.replaceFirst("^train \\| ", "")),
                log.out.lines()).filter(line -> line.startsWith("resume ")).distinct().toList();
        List<String> problems = new ArrayList<>();
        if (done.exitCode != 0 || !step.path("state").asText().equals("SUCCEEDED")) {
            problems.add("the step ended " + step.path("state").asText() + " (" + step.path("reason").asText() + ")");
        }
        if (step.path("evictions").asInt() != 1) {
            problems.add(step.path("evictions").asInt() + " evictions counted");
        }
        if (starts.stream().noneMatch(line -> line.startsWith("resume 1 attempt "))) {
            problems.add("the run after the eviction was not told to resume: its runs said " + starts
                    + (log.exitCode == 0 ? "" : "; gantry logs: " + log));
        }
        int attemptCount = step.path("attempts").asInt();
        return !problems.isEmpty() ? "different: " + String.join("; ", problems)
                : "same (1 eviction; " + (attemptCount == 1 ? "requeued by the orchestrator, the same job ran again"
                : "ended PREEMPTED, attempt " + attemptCount + " resumed") + ")";
    }

    private static JsonNode status(CliLauncher cli, Path runHome, Path config, String runId) throws IOException {
        CliRun status = cli.run(runHome, "--config", config.toString(), "status", runId, "--output", "json");
        assertEquals(0, status.exitCode, status.toString());
        return JSON.readTree(status.out);
    }

    /** A condition on what a run printed or reports, checked as it runs; fails after 2 minutes or if it ended. */
    private interface Condition {
        boolean holds() throws Exception;
    }

    private static void awaitOutput(String environment, CompletableFuture<CliRun> running, StringWriter out,
            StringWriter err, Condition condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (!condition.holds()) {
            if (running.isDone()) {
                throw new AssertionError(environment + ": the Spot run ended before it got there: " + running.get());
            }
            if (System.nanoTime() > deadline) {
                running.cancel(true);
                throw new AssertionError(environment + ": the Spot run did not get there in 2 minutes\n--- stdout so far\n"
                        + out + "\n--- stderr so far\n" + err + "\n" + ClusterSnapshot.now());
            }
            Thread.sleep(50);
        }
    }
}
