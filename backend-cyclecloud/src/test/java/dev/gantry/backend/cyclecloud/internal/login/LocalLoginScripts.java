package dev.gantry.backend.cyclecloud.internal.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of the login node's scripts here, as {@link LoginNode} runs it there ({@code SHELL -c TEXT NAME ARGS}),
 * against scheduler commands that a test writes: for the moments a real cluster cannot be made to show on demand,
 * such as a job that ends while its status is being read.
 */
public final class LocalLoginScripts {
    private LocalLoginScripts() {
    }

    /** Writes an executable {@code name} in {@code bin} with the given sh body. */
    public static void command(Path bin, String name, String body) throws IOException {
        Path file = bin.resolve(name);
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** What the script printed; it must exit 0 within 20 seconds. */
    public static String run(LoginScript script, List<String> args) throws Exception {
        List<String> argv = new ArrayList<>(List.of(script.shell(), "-c", script.text(), "gantry-" + script.name()));
        argv.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(argv);
        builder.environment().put("PATH", "/usr/bin:/bin");
        builder.redirectError(ProcessBuilder.Redirect.INHERIT);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(20, TimeUnit.SECONDS), script.name() + " did not end: " + output);
        assertEquals(0, process.exitValue(), script.name() + " failed: " + output);
        return output;
    }
}
