package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code $HOME} is the home, as Unix tools read it: a process whose {@code HOME} differs from the account's home in the
 * password database (the JVM's {@code user.home}) reads its configuration and keeps its state under {@code $HOME}.
 */
class HomeDirectoryTest {
    private static final Path QUICKSTART = Path.of("..", "examples", "quickstart.yaml").toAbsolutePath().normalize();

    @TempDir
    Path home;
    @TempDir
    Path account;

    @Test
    void configurationAndStateAreReadFromHomeNotFromTheAccountsHome() throws Exception {
        Files.createDirectories(home.resolve(".gantry"));
        Files.writeString(home.resolve(".gantry").resolve("config.yaml"), "defaults:\n  regions: [westus3]\n");
        JsonNode plans = Json.MAPPER.readTree(gantry("plan", QUICKSTART.toString(), "--output", "json"));
        JsonNode plan = plans.isArray() ? plans.get(0) : plans;
        assertEquals("westus3", plan.get("region").asText(), plan.toString());

        gantry("list");
        assertTrue(Files.isDirectory(home.resolve(".gantry").resolve("state")), "state under $HOME/.gantry/state");
        assertFalse(Files.exists(account.resolve(".gantry")), "nothing under the account's home");
    }

    private String gantry(String... args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new java.util.ArrayList<>(List.of(java, "-Duser.home=" + account, "-cp",
                System.getProperty("java.class.path"), "dev.gantry.cli.Main"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(name -> name.startsWith("GANTRY_") || name.startsWith("AZURE_"));
        builder.environment().put("HOME", home.toString());
        Process process = builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "gantry did not finish");
        assertEquals(0, process.exitValue(), String.join(" ", args) + ": " + err);
        return out;
    }
}
