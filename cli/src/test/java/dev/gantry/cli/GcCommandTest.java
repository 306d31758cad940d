package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gantry gc} against a plugin with idle pools ({@link IdlePoolsBackend}), installed as a third party's would
 * be: its service file is found through the class loader, and the CLI reaches it through the facade only.
 */
class GcCommandTest {
    @TempDir
    Path home;

    @TempDir
    Path work;

    @TempDir
    Path pools;

    @BeforeEach
    void configureThePlugin() throws IOException {
        Files.writeString(work.resolve("gantry.yaml"), String.join("\n",
                "apiVersion: gantry.dev/v1",
                "backend: " + IdlePoolsBackend.NAME,
                "backends:",
                "  " + IdlePoolsBackend.NAME + ":",
                "    dir: " + pools,
                ""));
        Files.writeString(pools.resolve("gantry-d4-aaa"), "idle");
        Files.writeString(pools.resolve("gantry-d4-bbb"), "busy");
    }

    @Test
    void dryRunListsWhatIsIdleAndReleasesNothing() {
        CliRun run = gc("--dry-run");

        assertEquals(0, run.exitCode, run.toString());
        List<String> lines = run.out.lines().toList();
        assertEquals(List.of("KIND", "ID", "LOCATION", "IDLE", "SINCE", "COST/HOUR", "REASON", "RESULT"),
                List.of(lines.get(0).trim().split("\\s+")), run.toString());
        assertTrue(lines.get(1).matches("pool +gantry-d4-aaa +acct1 +2026-12-05T08:00:00Z +0\\.3840 USD +no active "
                + "or running task for 1h +would release"), run.toString());
        assertTrue(lines.get(2).startsWith("pool") && lines.get(2).contains("gantry-d4-bbb"), run.toString());
        assertEquals("gantry: backend 'idle-pools': 2 idle, nothing released (--dry-run); run gantry gc without it "
                + "to release them", lines.get(3));
        assertTrue(Files.exists(pools.resolve("gantry-d4-aaa")) && Files.exists(pools.resolve("gantry-d4-bbb")),
                "a dry run releases nothing");
    }

    @Test
    void gcReleasesWhatIsStillIdleAndKeepsWhatIsInUseAgain() {
        CliRun run = gc();

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains("released"), run.toString());
        assertTrue(run.out.contains("kept: in use again"), run.toString());
        assertTrue(run.out.contains("gantry: backend 'idle-pools': 2 idle: 1 released, 1 kept"), run.toString());
        assertFalse(Files.exists(pools.resolve("gantry-d4-aaa")), "the idle pool is released");
        assertTrue(Files.exists(pools.resolve("gantry-d4-bbb")), "the pool a job came to is kept");

        CliRun again = gc();
        assertEquals(0, again.exitCode, again.toString());
        assertFalse(again.out.contains("gantry-d4-aaa"), "a released pool is no longer reported: " + again);
    }

    @Test
    void aFailedReleaseIsReportedTheOthersGoOnAndTheExitCodeIsOne() throws IOException {
        Files.writeString(pools.resolve("gantry-d4-ccc"), "fail");

        CliRun run = gc("--output", "json");

        assertEquals(1, run.exitCode, run.toString());
        assertTrue(run.err.contains("gantry: error: could not release pool gantry-d4-ccc (acct1): PoolBeingResized"),
                run.toString());
        JsonNode result = json(run);
        assertEquals("idle-pools", result.get("backend").asText());
        assertFalse(result.get("dryRun").asBoolean());
        List<String> outcomes = new ArrayList<>();
        result.get("resources").forEach(r -> outcomes.add(r.get("id").asText() + "=" + r.get("result").asText()));
        assertEquals(List.of("gantry-d4-aaa=released", "gantry-d4-bbb=kept", "gantry-d4-ccc=failed"), outcomes);
        JsonNode failed = result.get("resources").get(2);
        assertTrue(failed.get("error").asText().startsWith("REMOTE_ERROR: PoolBeingResized"), failed.toString());
        assertFalse(Files.exists(pools.resolve("gantry-d4-aaa")), "a failure does not stop the other releases");
    }

    @Test
    void jsonSaysWhatEachResourceIsWhereAndWhatItCosts() {
        JsonNode result = json(gc("--dry-run", "-o", "json"));

        assertTrue(result.get("dryRun").asBoolean());
        JsonNode pool = result.get("resources").get(0);
        assertEquals("pool", pool.get("kind").asText());
        assertEquals("gantry-d4-aaa", pool.get("id").asText());
        assertEquals("acct1", pool.get("location").asText());
        assertEquals("no active or running task for 1h", pool.get("reason").asText());
        assertEquals(IdlePoolsBackend.IDLE_SINCE.toString(), pool.get("idleSince").asText());
        assertEquals(0.384, pool.get("costPerHour").get("total").asDouble(), 1e-9);
        assertEquals("USD", pool.get("costPerHour").get("currency").asText());
        assertEquals("dry-run", pool.get("result").asText());
        assertTrue(Files.exists(pools.resolve("gantry-d4-aaa")));
    }

    @Test
    void aBackendThatCreatesNothingHasNothingIdle() throws IOException {
        Files.writeString(work.resolve("gantry.yaml"), "apiVersion: gantry.dev/v1\nbackend: manual\n"
                + "backends:\n  manual:\n    transport: local\n");

        CliRun run = gc();

        assertEquals(0, run.exitCode, run.toString());
        assertEquals("gantry: backend 'manual' has nothing idle to release\n", run.out);
    }

    @Test
    void theBackendOptionChoosesTheBackendAndAnUnknownOneIsAUsageError() {
        CliRun manual = gc("--backend", "manual", "--dry-run");
        assertEquals(0, manual.exitCode, manual.toString());
        assertTrue(manual.out.contains("backend 'manual' has nothing idle"), manual.toString());

        CliRun unknown = gc("--backend", "nosuch");
        assertEquals(2, unknown.exitCode, unknown.toString());
        assertTrue(unknown.err.contains("nosuch"), unknown.toString());

        CliRun badOption = gc("--dryrun");
        assertEquals(2, badOption.exitCode, badOption.toString());
        assertTrue(badOption.err.contains("--dry-run"), "suggests the option meant: " + badOption);
    }

    /** Runs {@code gantry gc ARGS} with the plugin's service file on the class path ServiceLoader reads. */
    private CliRun gc(String... args) {
        URL plugin = GcCommandTest.class.getResource("/idle-pools-plugin/");
        assertNotNull(plugin, "the plugin's service file is a test resource");
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        try (URLClassLoader withPlugin = new URLClassLoader(new URL[] {plugin}, before)) {
            thread.setContextClassLoader(withPlugin);
            List<String> command = new ArrayList<>(List.of("gc"));
            command.addAll(List.of(args));
            return CliRun.run(home, work, command.toArray(String[]::new));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } finally {
            thread.setContextClassLoader(before);
        }
    }

    private static JsonNode json(CliRun run) {
        try {
            return Json.MAPPER.readTree(run.out);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + run, e);
        }
    }
}
