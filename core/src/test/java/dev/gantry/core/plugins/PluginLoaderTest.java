package dev.gantry.core.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.core.FakeBackend;
import dev.gantry.core.backends.BackendRegistry;
import dev.gantry.model.InstalledBackend;
import dev.gantry.model.InstalledBackends;
import dev.gantry.model.PluginFailure;
import dev.gantry.testing.TestJars;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Backend plugins built by the test from a few lines of Java, loaded as the CLI loads them. */
class PluginLoaderTest {
    @TempDir
    Path home;

    private final PluginLoader loader = new PluginLoader(PluginLoaderTest.class.getClassLoader());

    @Test
    void thePlacesAreThePluginPathThenTheXdgDataDirectoryElseTheHomeOne() {
        String path = "/opt/one" + File.pathSeparator + File.pathSeparator + "/opt/two.jar";
        assertEquals(List.of(Path.of("/opt/one"), Path.of("/opt/two.jar"), Path.of("/data/gantry/plugins")),
                PluginDirectories.of(Map.of("GANTRY_PLUGIN_PATH", path, "XDG_DATA_HOME", "/data"), home));
        assertEquals(List.of(home.resolve(".local/share/gantry/plugins")), PluginDirectories.of(Map.of(), home));
        assertEquals(List.of(home.resolve(".local/share/gantry/plugins")),
                PluginDirectories.of(Map.of("XDG_DATA_HOME", "relative/data"), home),
                "the XDG specification ignores a relative XDG_DATA_HOME");
    }

    @Test
    void aPluginIsFoundInTheXdgDirectoryAndThroughThePluginPath() throws IOException {
        Path xdg = Files.createDirectories(home.resolve("data/gantry/plugins"));
        Path inXdg = plugin("com.example.xdg", "fromxdg").writeTo(xdg.resolve("fromxdg.jar"));
        Path elsewhere = Files.createDirectories(home.resolve("elsewhere"));
        Path single = plugin("com.example.single", "single").writeTo(elsewhere.resolve("single.jar"));
        Path directory = Files.createDirectories(home.resolve("more"));
        Path inDirectory = plugin("com.example.listed", "listed").writeTo(directory.resolve("listed.jar"));
        List<Path> places = PluginDirectories.of(Map.of("XDG_DATA_HOME", home.resolve("data").toString(),
                "GANTRY_PLUGIN_PATH", single + File.pathSeparator + directory), home);

        InstalledBackends installed = registry(List.of(), places).installed("1.0");

        assertEquals(List.of(), installed.failures());
        assertEquals(Map.of("fromxdg", inXdg.toString(), "listed", inDirectory.toString(), "single",
                single.toString()), origins(installed));
        assertEquals(places, installed.pluginDirectories());
    }

    @Test
    void aPluginDirectoryHoldsThePluginJarAndItsOwnDependencies() throws IOException {
        Path plugin = Files.createDirectories(home.resolve("plugins/withdeps"));
        TestJars.builder().source("com.example.dep.Greeting",
                "package com.example.dep; public final class Greeting { public static String text() { return \"hi\"; } }")
                .writeTo(plugin.resolve("dep.jar"));
        // the provider compiles against the dependency's class, which the plugin's loader finds in dep.jar
        Path providerJar = TestJars.backendPlugin("com.example.withdeps", "withdeps", "\"says \" + com.example.dep.Greeting.text()", "")
                .source("com.example.dep.Greeting",
                        "package com.example.dep; public final class Greeting { public static String text() { return \"compile-time\"; } }")
                .writeTo(home.resolve("full.jar"));
        Path stripped = stripClass(providerJar, plugin.resolve("withdeps.jar"), "com/example/dep/Greeting.class");

        InstalledBackends installed = registry(List.of(), List.of(home.resolve("plugins"))).installed("1.0");

        assertEquals(List.of(), installed.failures());
        InstalledBackend backend = installed.backends().get(0);
        assertEquals("says hi", backend.provider().description());
        assertEquals(stripped.toString(), backend.origin(), "the jar that holds the provider, not its dependency");
    }

    @Test
    void aPluginGetsItsOwnCopyOfAClassGantryAlsoHasAndSeesNothingOfGantryButTheApi() throws IOException {
        Path dir = Files.createDirectories(home.resolve("plugins"));
        TestJars.backendPlugin("com.example.isolated", "isolated", "Sees.report()", "")
                .source("com.example.isolated.Sees", """
                        package com.example.isolated;
                        final class Sees {
                            static String report() {
                                return com.fasterxml.jackson.databind.ObjectMapper.COPY + ", core "
                                        + visible("dev.gantry.core.backends.BackendRegistry") + ", api "
                                        + visible("dev.gantry.api.Problem");
                            }
                            static String visible(String name) {
                                try {
                                    Class.forName(name, false, Sees.class.getClassLoader());
                                    return "visible";
                                } catch (ClassNotFoundException e) {
                                    return "hidden";
                                }
                            }
                        }
                        """)
                .source("com.fasterxml.jackson.databind.ObjectMapper", "package com.fasterxml.jackson.databind; "
                        + "public final class ObjectMapper { public static final String COPY = \"the plugin's own\"; }")
                .writeTo(dir.resolve("isolated.jar"));

        InstalledBackends installed = registry(List.of(), List.of(dir)).installed("1.0");

        assertEquals(List.of(), installed.failures());
        BackendProvider provider = installed.backends().get(0).provider();
        assertEquals("the plugin's own, core hidden, api visible", provider.description());
        assertNotSame(PluginLoaderTest.class.getClassLoader(), provider.getClass().getClassLoader());
        assertTrue(BackendProvider.class.isInstance(provider), "the plugin implements Gantry's own API type");
    }

    @Test
    void aCorruptJarAndAProviderThatFailsToInitialiseAreReportedWithPathAndReasonWhileTheOthersWork()
            throws IOException {
        Path dir = Files.createDirectories(home.resolve("plugins"));
        Path corrupt = TestJars.corrupt(dir.resolve("corrupt.jar"));
        Path failing = TestJars.backendPlugin("com.example.failing", "failing", "\"never\"",
                "if (true) throw new IllegalStateException(\"boom: no licence file\");").writeTo(dir.resolve("failing.jar"));
        Path empty = TestJars.builder().resource("readme.txt", "no provider here").writeTo(dir.resolve("empty.jar"));
        Path nameless = TestJars.backendPlugin("com.example.nameless", "", "\"no name\"", "")
                .writeTo(dir.resolve("nameless.jar"));
        Path wordless = TestJars.backendPlugin("com.example.wordless", "wordless",
                "java.util.Optional.<String>empty().orElseThrow()", "").writeTo(dir.resolve("wordless.jar"));
        plugin("com.example.good", "good").writeTo(dir.resolve("good.jar"));

        BackendRegistry registry = registry(List.of(new FakeBackend.Provider("manual")), List.of(dir));

        assertEquals(List.of("good", "manual"), registry.providers().stream().map(BackendProvider::name).toList());
        Map<Path, String> reasons = reasons(registry.failures());
        assertEquals(List.of(corrupt, empty, failing, nameless, wordless), List.copyOf(reasons.keySet()));
        assertEquals("its backend provider com.example.wordless.Provider fails to describe itself: "
                + "java.util.NoSuchElementException: No value present", reasons.get(wordless));
        assertEquals("its backend provider com.example.nameless.Provider gives no name: name() must return a stable "
                + "lower-case name, such as the one gantry.yaml's backend: uses", reasons.get(nameless));
        assertTrue(reasons.get(corrupt).startsWith("cannot be read: corrupt.jar is not a readable jar ("),
                reasons.get(corrupt));
        assertTrue(reasons.get(failing).startsWith("its backend provider failed to load: "), reasons.get(failing));
        assertTrue(reasons.get(failing).contains("IllegalStateException: boom: no licence file"), reasons.get(failing));
        assertEquals("registers no backend: a plugin lists its provider class in "
                + "META-INF/services/dev.gantry.api.backend.BackendProvider", reasons.get(empty));
    }

    @Test
    void aPluginWhoseNameIsTakenIsRefusedNamingWhoHasItAndTheFirstOneStays() throws IOException {
        Path first = Files.createDirectories(home.resolve("first"));
        Path second = Files.createDirectories(home.resolve("second"));
        Path clashBuiltIn = plugin("com.example.manual", "manual").writeTo(first.resolve("manual.jar"));
        Path winner = plugin("com.example.a", "mysched").writeTo(first.resolve("mysched.jar"));
        Path loser = plugin("com.example.b", "mysched").writeTo(second.resolve("mysched-copy.jar"));

        BackendRegistry registry = registry(List.of(new FakeBackend.Provider("manual")), List.of(first, second));

        assertEquals(FakeBackend.Provider.class, registry.require("manual").getClass());
        assertEquals(winner.toString(), origins(registry.installed("1.0")).get("mysched"));
        Map<Path, String> reasons = reasons(registry.failures());
        assertEquals("DUPLICATE_BACKEND: its backend 'manual' (com.example.manual.Provider) is already provided by "
                + "built in " + FakeBackend.Provider.class.getName() + "; rename the plugin's backend or remove one "
                + "of the two", reasons.get(clashBuiltIn));
        assertEquals("DUPLICATE_BACKEND: its backend 'mysched' (com.example.b.Provider) is already provided by "
                + winner + "; rename the plugin's backend or remove one of the two", reasons.get(loser));
    }

    @Test
    void theListingSaysWhereEachBackendCameFromAndItsVersion() throws IOException {
        Path dir = Files.createDirectories(home.resolve("plugins"));
        Path versioned = plugin("com.example.versioned", "versioned").manifest("Implementation-Version", "2.4.1")
                .writeTo(dir.resolve("versioned.jar"));
        Path bare = plugin("com.example.bare", "bare").writeTo(dir.resolve("bare.jar"));

        InstalledBackends installed = registry(List.of(new FakeBackend.Provider("manual")), List.of(dir))
                .installed("0.9.0");

        assertEquals(List.of("bare " + bare + " unknown", "manual built in 0.9.0",
                "versioned " + versioned + " 2.4.1"), installed.backends().stream()
                .map(b -> b.name() + " " + b.origin() + " " + b.version()).toList());
    }

    @Test
    void anUnknownBackendNamesItsArtifactThePlacesSearchedAndThePluginsThatFailed() throws IOException {
        Path dir = Files.createDirectories(home.resolve("plugins"));
        Path corrupt = TestJars.corrupt(dir.resolve("docker.jar"));
        BackendRegistry registry = registry(List.of(new FakeBackend.Provider("manual")), List.of(dir));

        GantryException batch = assertThrows(GantryException.class, () -> registry.require("batch"));

        assertEquals(ErrorCode.UNKNOWN_BACKEND, batch.code());
        assertTrue(batch.getMessage().startsWith("unknown backend 'batch'; installed backends: manual; 'batch' is "
                + "provided by dev.gantry:gantry-backend-batch: add it to the class path (a runtime dependency); "
                + "plugins searched in: " + dir + "; plugins that failed to load: " + corrupt + ": cannot be read: "),
                batch.getMessage());
        GantryException typo = assertThrows(GantryException.class, () -> registry.require("manul"));
        assertTrue(typo.getMessage().startsWith("unknown backend 'manul'; installed backends: manual; did you mean "
                + "'manual'?; plugins searched in: " + dir), typo.getMessage());
    }

    @Test
    void aMissingPlaceIsAFailureOnlyWhereThePluginPathNamesIt() {
        Path typo = home.resolve("plugns");
        Path user = home.resolve(".local/share/gantry/plugins");
        PluginPlaces places = PluginPlaces.of(Map.of("GANTRY_PLUGIN_PATH", typo.toString()), home);
        assertEquals(List.of(typo, user), places.searched());
        PluginLoader.Loaded loaded = loader.load(places);
        assertEquals(List.of(new PluginFailure(typo, "does not exist; GANTRY_PLUGIN_PATH names it: correct or remove "
                + "the entry")), loaded.failures());
        assertEquals(List.of(), loaded.backends());
    }

    @Test
    void withoutPluginsTheUnknownBackendMessageIsAsBefore() {
        BackendRegistry registry = new BackendRegistry(List.of(new FakeBackend.Provider("manual")));
        assertEquals("unknown backend 'nope'; installed backends: manual",
                assertThrows(GantryException.class, () -> registry.require("nope")).getMessage());
    }

    private static TestJars plugin(String pkg, String name) {
        return TestJars.backendPlugin(pkg, name, "\"a test plugin\"", "");
    }

    private BackendRegistry registry(List<BackendProvider> builtIn, List<Path> places) {
        return new BackendRegistry(builtIn, loader.load(places), places);
    }

    private static Map<String, String> origins(InstalledBackends installed) {
        Map<String, String> origins = new java.util.TreeMap<>();
        installed.backends().forEach(b -> origins.put(b.name(), b.origin()));
        return origins;
    }

    private static Map<Path, String> reasons(List<PluginFailure> failures) {
        Map<Path, String> reasons = new java.util.TreeMap<>();
        failures.forEach(f -> reasons.put(f.plugin(), f.reason()));
        return reasons;
    }

    /** A copy of the jar without one entry, as if the plugin's build had left that dependency out of its jar. */
    private static Path stripClass(Path from, Path to, String entry) throws IOException {
        try (java.util.jar.JarFile in = new java.util.jar.JarFile(from.toFile());
             java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(Files.newOutputStream(to),
                     in.getManifest())) {
            for (java.util.jar.JarEntry e : java.util.Collections.list(in.entries())) {
                if (!e.getName().equals(entry) && !e.getName().equals("META-INF/MANIFEST.MF")) {
                    out.putNextEntry(new java.util.jar.JarEntry(e.getName()));
                    out.write(in.getInputStream(e).readAllBytes());
                    out.closeEntry();
                }
            }
        }
        return to;
    }
}
