package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a command costs at start is mostly what it loads. Each case runs the real {@code gantry} in a JVM of its own
 * and reads the JVM's class-loading log: the commands that reach no cloud load no cloud client, and the two calls
 * scripts make most build no command model.
 */
class StartupClassesTest {
    /** Clients of Azure (SDK, Netty, Reactor, MSAL, JNA), SSH, Kubernetes, Batch: loaded only by commands using them. */
    private static final List<String> CLIENTS = List.of("com.azure.", "com.microsoft.azure.", "com.microsoft.aad.",
            "io.netty.", "reactor.", "com.sun.jna.", "com.jcraft.", "io.fabric8.", "okhttp3.");
    private static final Path QUICKSTART = Path.of("..", "examples", "quickstart.yaml").toAbsolutePath().normalize();

    @TempDir
    Path home;

    @Test
    void theStoredRootUsageIsTheLiveRendering() {
        assertEquals(RootUsage.render(), RootUsage.stored().orElseThrow(() -> new AssertionError(
                "the build renders " + RootUsage.RESOURCE + " into the jar (exec-maven-plugin, process-classes)")));
    }

    @Test
    void helpIsPrintedWithoutTheCommandModel() throws Exception {
        Started help = start("--help");
        assertEquals(0, help.exitCode, help.err);
        assertEquals(RootUsage.render(), help.out);
        assertNoCommandModel(help);
    }

    @Test
    void versionIsPrintedWithoutTheCommandModel() throws Exception {
        Started version = start("--version");
        assertEquals(0, version.exitCode, version.err);
        assertEquals(VersionCommand.line() + System.lineSeparator(), version.out);
        assertNoCommandModel(version);
        Started late = start("--debug", "--version");
        assertEquals(version.out, late.out, "after another option, picocli prints the same line");
    }

    @Test
    void planLoadsNoCloudOrSshClient() throws Exception {
        Started plan = start("plan", QUICKSTART.toString(), "--no-quota");
        assertEquals(0, plan.exitCode, plan.err);
        assertTrue(plan.out.contains("Standard_"), plan.out);
        assertNoClients(plan);
        // Found on first use: ServiceLoader's search for provider files opens every jar, and a plan needs no backend.
        assertEquals(List.of(), plan.loaded("dev.gantry.backend."), "backend classes loaded by a plan");
        // A text plan makes no JSON: Jackson's ObjectMapper costs about 35 ms to start.
        assertEquals(List.of(), plan.loaded("com.fasterxml.jackson.databind.ObjectMapper"),
                "the JSON mapper loaded by a text plan");
        // The job service's id parts (a seeded SecureRandom) are made with the first job id, never for a plan.
        assertEquals(List.of(), plan.loaded("java.security.SecureRandom"), "a SecureRandom seeded by a plan");
    }

    @Test
    void validateVersionAndBackendsLoadNoCloudOrSshClient() throws Exception {
        for (List<String> args : List.of(List.of("validate", QUICKSTART.toString()), List.of("version"),
                List.of("backends"))) {
            Started started = start(args.toArray(String[]::new));
            assertEquals(0, started.exitCode, args + ": " + started.err);
            assertNoClients(started);
        }
    }

    @Test
    void withNoPluginInstalledLookingForPluginsIsADirectoryLookUpAndNoClassLoader() throws Exception {
        Started backends = start("backends");
        assertEquals(0, backends.exitCode, backends.err);
        // the plugin directories are looked up (PluginLoader reads them); no plugin loader and no Gantry-API-only
        // parent are made when there is nothing to load
        assertEquals(List.of("dev.gantry.core.plugins.PluginDirectories", "dev.gantry.core.plugins.PluginLoader",
                "dev.gantry.core.plugins.PluginLoader$Loaded", "dev.gantry.core.plugins.PluginPlaces"),
                backends.loaded("dev.gantry.core.plugins.").stream().sorted().toList());
        assertEquals(List.of(), backends.loaded("dev.gantry.core.plugins.ApiOnlyClassLoader"), "made for no plugin");
        Started plan = start("plan", QUICKSTART.toString(), "--no-quota");
        assertEquals(0, plan.exitCode, plan.err);
        assertEquals(List.of(), plan.loaded("dev.gantry.core.plugins.PluginLoader"), "a plan looks for no plugin");
    }

    /** Main's own verification may load an interface it names; picocli itself and its model must not load. */
    private static void assertNoCommandModel(Started started) {
        List<String> model = started.classes.stream()
                .filter(c -> c.equals("picocli.CommandLine") || c.startsWith("picocli.CommandLine$Model$")).toList();
        assertEquals(List.of(), model, "the command model built for gantry " + String.join(" ", started.args));
    }

    private static void assertNoClients(Started started) {
        List<String> clients = new ArrayList<>();
        CLIENTS.forEach(prefix -> clients.addAll(started.loaded(prefix)));
        assertEquals(List.of(), clients, "loaded by gantry " + String.join(" ", started.args));
    }

    private Started start(String... args) throws IOException, InterruptedException {
        Path log = Files.createTempFile(home, "classes", ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xshare:auto", "-Xlog:class+load=info:file=" + log,
                "-cp", System.getProperty("java.class.path"), "dev.gantry.cli.Main"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("HOME", home.toString());
        builder.environment().put("GANTRY_STATE_DIR", home.resolve("state").toString());
        builder.environment().keySet().removeIf(name -> name.startsWith("AZURE_") || name.equals("CLICOLOR_FORCE")
                || name.equals("XDG_DATA_HOME") || name.equals("GANTRY_PLUGIN_PATH"));
        Process process = builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        // Small outputs: reading one stream to its end before the other cannot block the child.
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "gantry " + String.join(" ", args) + " did not finish");
        List<String> classes = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            int end = line.indexOf(" source:");
            int start = line.indexOf("] ");
            if (start >= 0 && end > start) {
                classes.add(line.substring(start + 2, end));
            }
        }
        assertTrue(classes.size() > 100, "the class-loading log of gantry " + String.join(" ", args) + " is empty");
        return new Started(List.of(args), process.exitValue(), out, err, classes);
    }

    private record Started(List<String> args, int exitCode, String out, String err, List<String> classes) {
        List<String> loaded(String prefix) {
            return classes.stream().filter(c -> c.startsWith(prefix)).toList();
        }
    }
}
