package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.api.CatalogInfo;
import dev.gantry.Gantry;
import dev.gantry.core.catalog.CatalogLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** gantry version: the build's version and commit, the embedded catalog and the Java runtime, as text and JSON. */
class VersionCommandTest {
    @TempDir
    Path home;

    @TempDir
    Path work;

    @Test
    void jsonNamesVersionCommitCatalogAndJavaRuntime() throws Exception {
        CliRun run = CliRun.run(home, work, "version", "--output", "json");
        assertEquals(0, run.exitCode, run.toString());
        JsonNode node = Json.MAPPER.readTree(run.out);
        assertEquals(Gantry.version(), node.get("version").asText());
        assertTrue(node.get("version").asText().matches("\\d+\\.\\d+\\.\\d+.*"), run.out);
        assertEquals(expectedCommit(), node.get("commit").asText(), run.out);
        CatalogInfo catalog = CatalogLoader.embedded().info();
        assertEquals(catalog.source(), node.get("catalog").get("source").asText());
        assertEquals(catalog.date().toString(), node.get("catalog").get("date").asText());
        assertTrue(node.get("catalog").get("source").asText().contains("SkyPilot"), run.out);
        assertEquals(System.getProperty("java.version"), node.get("java").asText());
        assertEquals(System.getProperty("java.vendor"), node.get("javaVendor").asText());
        assertEquals(System.getProperty("java.home"), node.get("javaHome").asText());
        assertEquals(System.getProperty("os.name") + " " + System.getProperty("os.arch"), node.get("os").asText());
    }

    @Test
    void textNamesTheSameFacts() throws Exception {
        CliRun run = CliRun.run(home, work, "version");
        assertEquals(0, run.exitCode, run.toString());
        CatalogInfo catalog = CatalogLoader.embedded().info();
        List<String> lines = run.out.lines().toList();
        assertEquals(List.of(
                "gantry " + Gantry.version() + " (commit " + expectedCommit() + ")",
                "catalog: " + catalog.source() + ", " + catalog.date() + " (embedded)",
                "java:    " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + "), "
                        + System.getProperty("java.home"),
                "os:      " + System.getProperty("os.name") + " " + System.getProperty("os.arch")), lines);
    }

    @Test
    void theBuildRecordedTheCommitOfThisCheckout() throws Exception {
        // The build step ran git in this module's directory; a checkout must never come out as "unknown".
        String commit = expectedCommit();
        assertTrue(commit.matches("[0-9a-f]{4,40}"), "expected a git commit, got " + commit);
        assertEquals(commit, VersionCommand.commit());
    }

    /** What BuildInfo records: the short HEAD of the checkout these tests run in. */
    private static String expectedCommit() throws IOException, InterruptedException {
        Process git = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").directory(Path.of("").toAbsolutePath().toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(git.waitFor(30, TimeUnit.SECONDS), "git rev-parse did not finish");
        assertEquals(0, git.exitValue(), "these tests run in a git checkout; git rev-parse --short HEAD failed");
        assertTrue(Files.isDirectory(Path.of("src/build")), "tests run in the cli module's directory");
        return out;
    }
}
