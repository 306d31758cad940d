package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.testing.TestJars;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gantry} with backend plugins in the user's plugins directory ({@code ~/.local/share/gantry/plugins}): a
 * plugin jar compiled by the test, and a corrupt jar beside it.
 */
class BackendPluginsCliTest {
    @TempDir
    Path home;

    @TempDir
    Path work;

    private Path plugins;
    private Path plugin;
    private Path corrupt;

    @BeforeEach
    void installPlugins() throws IOException {
        plugins = Files.createDirectories(home.resolve(".local/share/gantry/plugins"));
        plugin = TestJars.backendPlugin("com.example.mysched", "mysched", "\"jobs on mysched\"", "")
                .manifest("Implementation-Version", "3.1.0").writeTo(plugins.resolve("mysched.jar"));
        corrupt = TestJars.corrupt(plugins.resolve("half-downloaded.jar"));
        Files.writeString(work.resolve("gantry.yaml"), String.join("\n", "apiVersion: gantry.dev/v1",
                "backend: manual", "backends:", "  manual:", "    transport: local", ""));
    }

    @Test
    void backendsListsThePluginWithItsJarAndVersionAndTheJarThatFailedWithItsReason() {
        CliRun run = CliRun.run(home, work, "backends");

        assertEquals(0, run.exitCode, run.toString());
        List<String> lines = run.out.lines().toList();
        assertEquals(List.of("NAME", "AVAILABLE", "VERSION", "ORIGIN", "CAPABILITIES", "DESCRIPTION"),
                List.of(lines.get(0).trim().split("\\s+")), run.out);
        String mysched = lines.stream().filter(l -> l.startsWith("mysched ")).findFirst().orElseThrow();
        assertTrue(mysched.matches("mysched +yes +3\\.1\\.0 +" + java.util.regex.Pattern.quote(plugin.toString())
                + " +jobs on mysched"), mysched);
        String manual = lines.stream().filter(l -> l.startsWith("manual *")).findFirst().orElseThrow();
        assertTrue(manual.contains(" built in "), manual);
        int failed = lines.indexOf("plugins that failed to load (their backends are not available):");
        assertTrue(failed > 0, run.out);
        assertTrue(lines.get(failed + 1).startsWith("  " + corrupt + ": cannot be read: half-downloaded.jar is not "
                + "a readable jar ("), run.out);
        assertEquals("plugin directories: " + plugins, lines.get(lines.size() - 1));
        assertEquals("", run.err, "the listing shows the failure; it warns of nothing");
    }

    @Test
    void backendsJsonGivesEachBackendsOriginAndVersionThenTheFailedPlugin() throws IOException {
        CliRun run = CliRun.run(home, work, "backends", "--output", "json");

        assertEquals(0, run.exitCode, run.toString());
        JsonNode array = Json.MAPPER.readTree(run.out);
        List<String> names = new ArrayList<>();
        array.forEach(b -> names.add(b.get("name").isNull() ? null : b.get("name").asText()));
        assertEquals(java.util.Arrays.asList("aks", "batch", "cyclecloud", "manual", "mysched", null), names);
        JsonNode mysched = array.get(4);
        assertEquals(plugin.toString(), mysched.get("origin").asText());
        assertEquals(plugin.toString(), mysched.get("plugin").asText());
        assertEquals("3.1.0", mysched.get("version").asText());
        assertTrue(mysched.get("loaded").asBoolean() && mysched.get("available").asBoolean(), mysched.toString());
        assertEquals("built in", array.get(3).get("origin").asText());
        assertTrue(array.get(3).get("plugin").isNull(), array.get(3).toString());
        JsonNode failed = array.get(5);
        assertFalse(failed.get("loaded").asBoolean() || failed.get("available").asBoolean(), failed.toString());
        assertEquals(corrupt.toString(), failed.get("plugin").asText());
        assertTrue(failed.get("unavailableReason").asText().startsWith("cannot be read: "), failed.toString());
    }

    @Test
    void aCommandThatUsesABackendWarnsOnceOfTheFailedPluginAndSucceeds() {
        CliRun run = CliRun.run(home, work, "gc", "--dry-run");

        assertEquals(0, run.exitCode, run.toString());
        List<String> warnings = run.err.lines().filter(l -> l.startsWith("gantry: warning: backend plugin ")).toList();
        assertEquals(1, warnings.size(), run.toString());
        assertTrue(warnings.get(0).startsWith("gantry: warning: backend plugin " + corrupt + ": cannot be read: "),
                run.toString());
    }

    @Test
    void anUnknownBackendNamesThePluginDirectoriesSearchedAndThePluginThatFailed() {
        CliRun run = CliRun.run(home, work, "--backend", "mysched2", "gc", "--dry-run");

        assertEquals(Main.USAGE_ERROR, run.exitCode, run.toString());
        assertTrue(run.err.contains("unknown backend 'mysched2'; installed backends: aks, batch, cyclecloud, manual, "
                + "mysched; did you mean 'mysched'?; plugins searched in: " + plugins + "; plugins that failed to "
                + "load: " + corrupt + ": cannot be read: "), run.toString());
    }
}
