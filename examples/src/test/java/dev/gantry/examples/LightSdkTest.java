package dev.gantry.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SDK a platform program takes when it plans and runs on the manual backend: this module's runtime class path,
 * which is exactly gantry-api, gantry-runs (with gantry-core under it) and gantry-backend-manual, plus a logging
 * binding. Prints its jar count and size (docs/PERFORMANCE.md records them), holds them to the bound of 25 jars
 * and 20 MB, and runs the examples on it: a workload planned and run to completion, and an Azure-only feature refused
 * with the artifact to add, not a NoClassDefFoundError.
 */
class LightSdkTest {
    static final int MAX_JARS = 25;
    static final long MAX_BYTES = 20L * 1024 * 1024;

    private static List<Path> jars;

    @TempDir
    Path work;

    @BeforeAll
    static void readClassPath() throws IOException {
        // Written by the dependency plugin before the tests (pom.xml): the runtime scope, as a program gets it.
        String line = Files.readString(Path.of("target/examples.classpath"), StandardCharsets.UTF_8).trim();
        jars = Arrays.stream(line.split(File.pathSeparator)).map(Path::of).toList();
    }

    @Test
    void theSdkForTheManualBackendIsSmallAndHasNoAzureSdk() throws IOException {
        long bytes = 0;
        StringBuilder list = new StringBuilder();
        for (Path jar : jars) {
            long size = Files.size(jar);
            bytes += size;
            list.append(String.format("  %8.1f KB  %s%n", size / 1024.0, jar.getFileName()));
        }
        System.out.printf("light SDK (api + core + runs + backend-manual, runtime scope): %d jars, %.1f MB "
                + "(bound: %d jars, %d MB)%n%s", jars.size(), bytes / 1024.0 / 1024.0, MAX_JARS,
                MAX_BYTES / 1024 / 1024, list);
        assertTrue(jars.size() <= MAX_JARS, jars.size() + " jars on the light SDK's class path, more than " + MAX_JARS);
        assertTrue(bytes <= MAX_BYTES, bytes + " bytes on the light SDK's class path, more than " + MAX_BYTES);
        for (Path jar : jars) {
            String name = jar.getFileName().toString();
            assertTrue(!name.startsWith("azure-") && !name.startsWith("gantry-azure") && !name.startsWith("netty-")
                    && !name.startsWith("msal4j") && !name.startsWith("reactor-"), name + " is an Azure SDK jar");
        }
    }

    @Test
    void aWorkloadIsPlannedAndRunOnTheManualBackendWithoutTheAzureModule() throws Exception {
        Path spec = work.resolve("hello.yaml");
        Files.writeString(spec, """
                apiVersion: gantry.dev/v1
                kind: Workload
                metadata: {name: light-sdk}
                spec:
                  phase: training
                  model: small
                  resources: {vcpus: 2, memoryGib: 4}
                  command: [sh, -c, 'echo "hello from $GANTRY_JOB_ID"']
                """);
        Result result = run("dev.gantry.examples.RunWorkload", spec.toString());
        assertEquals(0, result.exit(), result.output());
        assertTrue(result.output().contains("| hello from job-light-sdk-"), result.output());
        assertTrue(result.output().contains(": SUCCEEDED (exit 0)"), result.output());
    }

    @Test
    void anAzureFeatureWithoutTheAzureModuleNamesTheArtifactToAdd() throws Exception {
        Result result = run("dev.gantry.examples.RefreshCatalog", "eastus");
        assertEquals(2, result.exit(), result.output());
        assertEquals("USAGE: live catalog refresh needs the Azure module, which is not on the class path: add the "
                + "dependency dev.gantry:gantry-azure (the same version as gantry-runs; the gantry BOM manages it) to "
                + "your build\n", result.output());
    }

    private record Result(int exit, String output) {
    }

    /** The example in its own JVM on the light class path, in an empty working directory and home. */
    private Result run(String mainClass, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", Path.of("target/classes").toAbsolutePath() + File.pathSeparator
                + String.join(File.pathSeparator, jars.stream().map(Path::toString).toList()), mainClass));
        command.addAll(List.of(args));
        Path home = Files.createDirectories(work.resolve("home"));
        ProcessBuilder builder = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true);
        builder.environment().put("HOME", home.toString());
        builder.environment().keySet().removeIf(key -> key.startsWith("GANTRY_") || key.startsWith("AZURE_"));
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the example did not end: " + output);
        return new Result(process.exitValue(), output);
    }
}
