package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.Gantry;
import dev.gantry.backend.cyclecloud.slurm.TestCluster;
import dev.gantry.cli.swap.TestBackends;
import dev.gantry.cli.swap.TestBackends.PlannedSize;
import dev.gantry.cli.swap.TestBackends.Section;
import dev.gantry.examples.platform.PlatformRun;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The examples' platform program (examples/platform) on cyclecloud, aks and batch, each chosen by a gantry.yaml
 * alone ({@link TestBackends}); the examples module runs it on the manual backend. On each, the job built in code
 * prints its greeting and succeeds, and the listener hears every step of the workflow, and its output, succeed.
 */
class PlatformRunOnEveryBackendTest {
    private static final Path WORKFLOW = Path.of("..", "examples", "platform", "nightly.yaml").toAbsolutePath()
            .normalize();

    @TempDir
    Path home;

    /**
     * What every plan of the program takes (2 vCPUs and 4 GiB, small training), in the one region the
     * configuration allows: the Kubernetes cluster's one node is of its size, the Batch account supports its image.
     */
    private static final PlannedSize SIZE = new PlannedSize("Standard_E2as_v5", 2, 16, "eastus",
            "microsoft-dsvm:ubuntu-2204:2204-gen2");

    @Test
    void onSlurmThroughCycleCloud() throws Exception {
        TestCluster cluster = TestCluster.get();
        try (Section slurm = TestBackends.slurm(cluster, TestBackends.sharedDirectory(cluster, "platform-run"))) {
            runOn(slurm);
        }
    }

    @Test
    void onTheKubernetesTestClusterThroughAks() throws Exception {
        try (Section aks = TestBackends.aksOneNode(home, SIZE)) {
            runOn(aks);
        }
    }

    @Test
    void onTheBatchFakeThroughBatch() throws Exception {
        try (Section batch = TestBackends.batch(home, SIZE)) {
            runOn(batch);
        }
    }

    private void runOn(Section section) throws Exception {
        runOn(section.backend(), TestBackends.config(section.backend(), SIZE.region(), List.of(section)));
    }

    private void runOn(String backend, String gantryYaml) throws Exception {
        Path config = Files.writeString(home.resolve("gantry.yaml"), gantryYaml);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        long start = System.nanoTime();
        try (Gantry gantry = Gantry.builder().environment(Map.of()).home(home).workingDirectory(home)
                .configFile(config).build();
                PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8)) {
            assertEquals(backend, gantry.backendName());
            assertTrue(PlatformRun.run(gantry, WORKFLOW, out), backend + ":\n" + printed);
        }
        List<String> lines = printed.toString(StandardCharsets.UTF_8).lines().toList();
        String jobId = lines.get(1).split(" ")[1];
        assertEquals("submitted " + jobId + " to backend " + backend, lines.get(1));
        for (String expected : List.of(jobId + ": SUCCEEDED (exit 0)", "prepare | prepared the data set",
                "train-0-1 | trained with learning rate 0.1", "train-0-01 | trained with learning rate 0.01",
                "step train-0-01: SUCCEEDED (attempt 1)")) {
            assertTrue(lines.contains(expected), backend + ": no line '" + expected + "' in:\n" + printed);
        }
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("| hello from platform code, job ")), printed.toString());
        assertTrue(lines.get(lines.size() - 1).matches("run platform-nightly-\\S+: SUCCEEDED"), printed.toString());
        System.out.printf("PlatformRun on %s: job and workflow SUCCEEDED in %.1f s%n", backend,
                (System.nanoTime() - start) / 1e9);
    }
}
