package dev.gantry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.model.InstalledBackend;
import dev.gantry.model.InstalledBackends;
import dev.gantry.model.PluginFailure;
import dev.gantry.testing.TestJars;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A program names the places of its backend plugins in code, instead of the gantry command's lookup. */
class GantryPluginDirectoriesTest {
    @TempDir
    Path home;

    private Path inPluginPath;
    private Path inUserDirectory;

    /** A plugin where the gantry command would look: the plugin path and the user's plugins directory. */
    @BeforeEach
    void pluginsWhereTheCommandLooks() throws IOException {
        inPluginPath = plugin("com.example.frompath", "frompath", Files.createDirectories(home.resolve("path")));
        inUserDirectory = plugin("com.example.fromuser", "fromuser",
                Files.createDirectories(home.resolve(".local/share/gantry/plugins")));
    }

    @Test
    void withoutPluginDirectoriesTheCommandsPlacesAreSearched() {
        try (Gantry gantry = builder().build()) {
            InstalledBackends installed = gantry.installedBackends();
            assertEquals(Map.of("frompath", inPluginPath.toString(), "fromuser", inUserDirectory.toString()),
                    pluginOrigins(installed));
            assertEquals(List.of(home.resolve("path"), home.resolve(".local/share/gantry/plugins")),
                    installed.pluginDirectories());
        }
    }

    @Test
    void pluginDirectoriesAreSearchedInsteadInTheirOrderAndRelativeToTheWorkingDirectory() throws IOException {
        Path first = Files.createDirectories(home.resolve("work/plugins"));
        Path mine = plugin("com.example.mine", "mine", first);
        Path second = Files.createDirectories(home.resolve("more"));
        Path taken = plugin("com.example.taken", "mine", second);   // the same name: the first place wins
        Path single = plugin("com.example.single", "single", second);

        try (Gantry gantry = builder().pluginDirectories(List.of(Path.of("plugins"), second)).build()) {
            InstalledBackends installed = gantry.installedBackends();
            assertEquals(Map.of("mine", mine.toString(), "single", single.toString()), pluginOrigins(installed));
            assertEquals(List.of(first, second), installed.pluginDirectories());
            assertEquals(List.of(taken), installed.failures().stream().map(PluginFailure::plugin).toList(),
                    installed.failures().toString());
        }
    }

    @Test
    void aNamedPlaceThatDoesNotExistIsReportedAndTheOthersLoad() throws IOException {
        Path typo = home.resolve("plugns");
        Path real = Files.createDirectories(home.resolve("real"));
        Path mine = plugin("com.example.mine", "mine", real);

        try (Gantry gantry = builder().pluginDirectories(List.of(typo, real)).build()) {
            InstalledBackends installed = gantry.installedBackends();
            assertEquals(List.of(new PluginFailure(typo, "does not exist; Gantry.Builder.pluginDirectories names "
                    + "it: correct or remove the entry")), installed.failures());
            assertEquals(Map.of("mine", mine.toString()), pluginOrigins(installed));
        }
    }

    @Test
    void noPluginDirectoriesLoadNoPlugin() {
        try (Gantry gantry = builder().pluginDirectories(List.of()).build()) {
            InstalledBackends installed = gantry.installedBackends();
            assertEquals(Map.of(), pluginOrigins(installed));
            assertEquals(List.of(), installed.pluginDirectories());
            assertEquals(List.of(), installed.failures());
            GantryException unknown = assertThrows(GantryException.class,
                    () -> gantry.backend("frompath"));
            assertEquals(ErrorCode.UNKNOWN_BACKEND, unknown.code());
            assertFalse(unknown.getMessage().contains("plugins searched in"), unknown.getMessage());
        }
    }

    @Test
    void aNullPlaceIsRefusedWithItsIndex() {
        NullPointerException refused = assertThrows(NullPointerException.class,
                () -> Gantry.builder().pluginDirectories(Arrays.asList(home, null)));
        assertEquals("places[1]", refused.getMessage());
    }

    /** The command's places for this home: GANTRY_PLUGIN_PATH names one, the user's directory is the default. */
    private Gantry.Builder builder() {
        return Gantry.builder().environment(Map.of("GANTRY_PLUGIN_PATH", home.resolve("path").toString()))
                .home(home).workingDirectory(home.resolve("work"));
    }

    private static Path plugin(String pkg, String backend, Path directory) throws IOException {
        return TestJars.backendPlugin(pkg, backend, "\"a test plugin\"", "")
                .writeTo(directory.resolve(pkg.substring(pkg.lastIndexOf('.') + 1) + ".jar"));
    }

    private static Map<String, String> pluginOrigins(InstalledBackends installed) {
        return installed.backends().stream().filter(b -> b.plugin().isPresent())
                .collect(java.util.stream.Collectors.toMap(InstalledBackend::name, InstalledBackend::origin));
    }
}
