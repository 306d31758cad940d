package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.backend.cyclecloud.slurm.TestCluster;
import dev.gantry.cli.swap.TestBackends;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The promise of a run: {@code kill -9} of {@code gantry run} at any point, then {@code gantry run} of the same
 * workflow, loses nothing and doubles nothing. A 20-step workflow (two waves of ten); the driver is killed 20 times in
 * a row at random moments of its submissions, each time started again; then it is let finish. Every step counts its
 * own runs in a file: each must have run exactly once, and every job the backend made must be an attempt the run
 * recorded (none orphaned). On the manual backend's local transport, and on the real Slurm test cluster (where the
 * second wave waits in Slurm behind the first, {@code sbatch --dependency}).
 */
class KilledRunTest {
    private static final int STEPS = 20;
    private static final int KILLS = 20;

    @TempDir
    Path home;

    @TempDir
    Path work;

    /** Where the run's jobs go, and how to find every job its backend made. */
    private interface Target {
        /** The configuration file's text. */
        String config();

        /** A file each step appends its name to, readable here. */
        Path ranFile();

        /** The directory holding one {@code job-KEY} directory per job the backend made. */
        Path jobDirectories();

        /**
         * How long each step runs: long enough that the run cannot end between two kills (a run that ended is not
         * resumed but run anew), so the last kill still finds it going.
         */
        int stepSeconds();
    }

    @Test
    void onTheLocalTransportEveryStepStillRunsExactlyOnce() throws Exception {
        killTwentyTimesThenFinish(new Target() {
            @Override
            public String config() {
                return "backend: manual\nruns:\n  pollInterval: 1s\n";
            }

            @Override
            public Path ranFile() {
                return work.resolve("ran.txt");
            }

            @Override
            public Path jobDirectories() {
                return home.resolve("state");
            }

            @Override
            public int stepSeconds() {
                return 20;
            }
        });
    }

    @Test
    void onSlurmEveryStepStillRunsExactlyOnce() throws Exception {
        TestCluster cluster = TestCluster.get();
        Path shared = TestBackends.sharedDirectory(cluster, "killed");
        killTwentyTimesThenFinish(new Target() {
            @Override
            public String config() {
                return TestBackends.config(TestBackends.slurm(cluster, shared));
            }

            @Override
            public Path ranFile() {
                return shared.resolve("ran.txt");
            }

            @Override
            public Path jobDirectories() {
                return shared.resolve("jobs");
            }

            @Override
            public int stepSeconds() {
                // Each kill costs a JVM and an SSH connection to the login node: the twenty take longer.
                return 40;
            }
        });
    }

    @Test
    void twoProcessesStartingTheSameWorkflowAtOnceShareOneRunAndRunEachStepOnce() throws Exception {
        Path ran = work.resolve("ran.txt");
        Files.writeString(work.resolve("gantry.yaml"), "backend: manual\nruns:\n  pollInterval: 1s\n");
        List<String> lines = new ArrayList<>(List.of("apiVersion: gantry.dev/v1", "kind: Workflow",
                "metadata: {name: pair}", "spec:", "  steps:"));
        for (int i = 1; i <= 6; i++) {
            lines.add("    - name: p" + i);
            if (i > 3) {
                lines.add("      dependsOn: [p" + (i - 3) + "]");
            }
            lines.add("      workload: {phase: training, model: small, command: [sh, -c, \"echo p" + i + " >> " + ran
                    + "; sleep 1\"]}");
        }
        lines.add("");
        Files.writeString(work.resolve("pair.yaml"), String.join("\n", lines));
        Process first = gantry(work.resolve("first.log"), "run", "pair.yaml", "--output", "json");
        Process second = gantry(work.resolve("second.log"), "run", "pair.yaml", "--output", "json");
        assertTrue(first.waitFor(3, TimeUnit.MINUTES) && second.waitFor(3, TimeUnit.MINUTES));
        String logs = Files.readString(work.resolve("first.log")) + Files.readString(work.resolve("second.log"));
        assertEquals(0, first.exitValue(), logs);
        assertEquals(0, second.exitValue(), logs);
        Map<String, Integer> counts = new TreeMap<>();
        Files.readAllLines(ran).forEach(step -> counts.merge(step, 1, Integer::sum));
        assertEquals(Map.of("p1", 1, "p2", 1, "p3", 1, "p4", 1, "p5", 1, "p6", 1), counts, logs);
        Path listed = work.resolve("list.json");
        assertTrue(gantry(listed, "list", "--all", "--output", "json").waitFor(1, TimeUnit.MINUTES));
        assertEquals(1, Json.MAPPER.readTree(Files.readString(listed)).size(), "one run for both processes");
    }

    private void killTwentyTimesThenFinish(Target target) throws Exception {
        Path ran = target.ranFile();
        Files.writeString(work.resolve("gantry.yaml"), target.config());
        List<String> lines = new ArrayList<>(List.of("apiVersion: gantry.dev/v1", "kind: Workflow",
                "metadata: {name: soak}", "spec:", "  steps:"));
        for (int i = 1; i <= STEPS; i++) {
            String name = String.format("s%02d", i);
            lines.add("    - name: " + name);
            if (i > 10) {
                lines.add("      dependsOn: [" + String.format("s%02d", i - 10) + "]"); // two waves of ten
            }
            lines.add("      workload: {phase: training, model: small, command: [sh, -c, \"echo " + name + " >> "
                    + ran + "; sleep " + target.stepSeconds() + "\"]}");
        }
        lines.add("");
        Files.writeString(work.resolve("soak.yaml"), String.join("\n", lines));

        Random random = new Random(20261203L);
        Path log = work.resolve("gantry.log");
        for (int kill = 0; kill < KILLS; kill++) {
            long opened = openedCount(log);
            Process run = gantry(log, "run", "soak.yaml");
            if (kill == 0) {
                // Into the window that matters most: the backend was asked (a job's directory appeared) and the
                // process has not saved its answer yet. A pass submits a wave in one batch, one remote call, which
                // random kills rarely hit; the first kill waits for the first wave's, which no earlier process can
                // have submitted (a later kill could find the first wave made and wait for the second, which comes
                // only as the first ends, past its deadline). It waits as long as the kills after it would: a longer
                // wait would let the run end before the twentieth kill, and the next start a new run.
                long made = jobDirectories(target).size();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (jobDirectories(target).size() == made && System.nanoTime() < deadline && run.isAlive()) {
                    Thread.sleep(2);
                }
            } else if (kill % 4 == 0) {
                // Anywhere: often before the run is even opened (start-up, planning).
                Thread.sleep(200 + random.nextInt(1000));
            } else {
                // Once the run is opened, within the time its submissions take.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (openedCount(log) == opened && System.nanoTime() < deadline && run.isAlive()) {
                    Thread.sleep(5);
                }
                Thread.sleep(random.nextInt(400));
            }
            run.destroyForcibly(); // SIGKILL: no shutdown hook, no finally
            assertTrue(run.waitFor(30, TimeUnit.SECONDS));
        }
        Process last = gantry(log, "run", "soak.yaml", "--output", "json");
        assertTrue(last.waitFor(5, TimeUnit.MINUTES), "the last run finishes");
        assertEquals(0, last.exitValue(), Files.readString(log));

        Map<String, Integer> counts = new TreeMap<>();
        Files.readAllLines(ran).forEach(step -> counts.merge(step, 1, Integer::sum));
        assertEquals(STEPS, counts.size(), counts.toString());
        counts.forEach((step, count) -> assertEquals(1, count, step + " ran " + count + " times: " + counts));

        Path listed = work.resolve("list.json");
        assertTrue(gantry(listed, "list", "--all", "--output", "json").waitFor(1, TimeUnit.MINUTES));
        JsonNode runs = Json.MAPPER.readTree(Files.readString(listed));
        assertEquals(1, runs.size(), "one run, resumed every time: " + runs);
        String runId = runs.get(0).get("id").asText();
        assertEquals("SUCCEEDED", runs.get(0).get("state").asText());

        // Every job directory the backend made (job-KEY, the key being the attempt's job id) belongs to an attempt
        // of the run.
        Set<String> made = jobDirectories(target);
        Set<String> expected = new TreeSet<>();
        for (int i = 1; i <= STEPS; i++) {
            expected.add(runId + "." + String.format("s%02d", i) + ".1");
        }
        assertEquals(expected, made, "no job outside the run's attempts, and one attempt a step");

        // Where the kills landed, from the run's own history: each process that got as far as the run resumed it.
        Path history = work.resolve("history.json");
        assertTrue(gantry(history, "history", runId, "--output", "json").waitFor(1, TimeUnit.MINUTES));
        int resumed = 0;
        int submittedAgain = 0;
        for (JsonNode event : Json.MAPPER.readTree(Files.readString(history))) {
            resumed += event.get("kind").asText().equals("resumed") ? 1 : 0;
            submittedAgain += event.get("detail").asText().startsWith("again, with the same key") ? 1 : 0;
        }
        System.out.printf("killed %d times (%s): %d processes resumed the run, %d submits finished by a later "
                + "process%n", KILLS, target.config().lines().findFirst().orElse(""), resumed, submittedAgain);
        assertTrue(resumed >= KILLS / 2, "most kills landed after the run was opened: " + resumed);
        assertTrue(submittedAgain > 0, "some kills landed between recording an attempt and the backend's answer");
    }

    /** The keys of the job directories the backend made so far ({@code job-KEY}); none before the first. */
    private static Set<String> jobDirectories(Target target) throws IOException {
        Set<String> made = new TreeSet<>();
        if (!Files.isDirectory(target.jobDirectories())) {
            return made;
        }
        try (Stream<Path> files = Files.walk(target.jobDirectories())) {
            files.filter(Files::isDirectory).map(p -> p.getFileName().toString())
                    .filter(name -> name.startsWith("job-soak-")).map(name -> name.substring("job-".length()))
                    .forEach(made::add);
        } catch (java.io.UncheckedIOException e) {
            // A directory removed while walked (a job's scratch files): look again at the next poll.
            return jobDirectories(target);
        }
        return made;
    }

    /** {@code gantry ARGS} as a process of its own, its output appended to {@code log}. */
    private Process gantry(Path log, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Duser.home=" + home, "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().keySet().removeIf(k -> k.startsWith("GANTRY_"));
        builder.environment().put("HOME", home.toString());
        builder.environment().put("GANTRY_STATE_DIR", home.resolve("state").toString());
        return builder.start();
    }

    /** How many times a gantry so far said it started or resumed the run. */
    private static long openedCount(Path log) throws IOException {
        if (!Files.exists(log)) {
            return 0;
        }
        return Files.readAllLines(log).stream().filter(l -> l.startsWith("gantry: started run ")
                || l.startsWith("gantry: resuming run ")).count();
    }
}
