package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Backends come from the class path alone: a separate JVM without a backend's jar does not list it. */
class BackendDiscoveryTest {
    @TempDir
    Path home;

    @Test
    void everyBackendOnTheClassPathIsListed() throws Exception {
        assertEquals(List.of("aks", "batch", "cyclecloud", "manual"), backendNames(classPath(List.of())));
    }

    @Test
    void aProviderMissingFromTheClassPathDisappearsFromTheList() throws Exception {
        List<String> names = backendNames(classPath(List.of("backend-aks", "gantry-backend-aks")));
        assertEquals(List.of("batch", "cyclecloud", "manual"), names);
    }

    private List<String> classPath(List<String> without) {
        List<String> entries = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> without.stream().noneMatch(entry::contains))
                .collect(Collectors.toList());
        assertTrue(entries.size() > 3, "surefire must expose the test class path");
        return entries;
    }

    private List<String> backendNames(List<String> classPath) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-cp", String.join(File.pathSeparator, classPath),
                "dev.gantry.cli.Main", "backends", "--output", "json");
        builder.environment().put("HOME", home.toString());
        builder.environment().put("GANTRY_STATE_DIR", home.resolve("state").toString());
        builder.redirectErrorStream(false);
        Process process = builder.start();
        byte[] out = process.getInputStream().readAllBytes();
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "gantry backends did not finish");
        assertEquals(0, process.exitValue(), err);
        JsonNode array = Json.MAPPER.readTree(out);
        List<String> names = new ArrayList<>();
        array.forEach(b -> names.add(b.get("name").asText()));
        return names;
    }
}
