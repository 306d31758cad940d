package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.Gantry;
import dev.gantry.backend.aks.testcluster.KubeTestCluster;
import dev.gantry.backend.batch.fake.BatchFake;
import dev.gantry.backend.cyclecloud.slurm.TestCluster;
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
 * alone ({@link PlatformBackends}); the examples module runs it on the manual backend. On each, the job built in code
 * prints its greeting and succeeds, and the listener hears every step of the workflow, and its output, succeed.
 */
class PlatformRunOnEveryBackendTest {
    private static final Path WORKFLOW = Path.of("..", "examples", "platform", "nightly.yaml").toAbsolutePath()
            .normalize();

    @TempDir
    Path home;

    /** The size every plan of the program takes (2 vCPUs and 4 GiB, small training): the cluster's one node. */
    private static final String SIZE = "Standard_E2as_v5";

    @Test
    void onSlurmThroughCycleCloud() throws Exception {
        runOn("cyclecloud", PlatformBackends.slurm(TestCluster.get()));
    }

    @Test
    void onTheKubernetesTestClusterThroughAks() throws Exception {
        try (KubeTestCluster cluster = PlatformBackends.kubernetes(SIZE, home.resolve("kube"))) {
            runOn("aks", PlatformBackends.aks(cluster, home));
        }
    }

    @Test
    void onTheBatchFakeThroughBatch() throws Exception {
        try (BatchFake fake = PlatformBackends.batchAccount("eastus")) {
            runOn("batch", PlatformBackends.batch(fake, "eastus", home));
        }
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
