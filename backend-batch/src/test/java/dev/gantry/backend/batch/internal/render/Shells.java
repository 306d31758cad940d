package dev.gantry.backend.batch.internal.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.azure.batch.protocol.models.EnvironmentSetting;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the fixed command lines the way Batch does on Linux: {@code /bin/sh -c 'BODY'} split into its three words, the
 * body run by each POSIX shell this machine has ({@code /bin/sh} always; dash and busybox's sh when installed), with
 * exactly the task's environment settings.
 */
final class Shells {
    private Shells() {
    }

    /** The shells to run bodies with: /bin/sh first, then dash and busybox sh where the PATH has them. */
    static List<List<String>> available() {
        List<List<String>> shells = new ArrayList<>();
        shells.add(List.of("/bin/sh"));
        onPath("dash").ifPresent(dash -> shells.add(List.of(dash.toString())));
        onPath("busybox").ifPresent(busybox -> shells.add(List.of(busybox.toString(), "sh")));
        return shells;
    }

    private static java.util.Optional<Path> onPath(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (!dir.isEmpty() && Files.isExecutable(candidate)) {
                return java.util.Optional.of(candidate);
            }
        }
        return java.util.Optional.empty();
    }

    /** The body of {@code /bin/sh -c '...'}, checked to hold no single quote (it would end the word) and no backslash. */
    static String body(String commandLine) {
        String head = "/bin/sh -c '";
        assertTrue(commandLine.startsWith(head) && commandLine.endsWith("'"), commandLine);
        String body = commandLine.substring(head.length(), commandLine.length() - 1);
        assertFalse(body.contains("'"), "a single quote would end the -c word");
        assertFalse(body.contains("\\"), "no backslash: nothing depends on how Batch splits one");
        return body;
    }

    record Run(int exit, byte[] stdout, String stderr) {
        String out() {
            return new String(stdout, StandardCharsets.UTF_8);
        }
    }

    /** Runs a body with only {@code env} (and PATH) in the environment, in {@code dir}. */
    static Run run(List<String> shell, String body, List<EnvironmentSetting> settings, Map<String, String> extra,
                   Path dir) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(shell);
        argv.add("-c");
        argv.add(body);
        ProcessBuilder builder = new ProcessBuilder(argv).directory(dir.toFile());
        Map<String, String> env = builder.environment();
        String path = env.get("PATH");
        env.clear();
        env.put("PATH", extra.getOrDefault("PATH", path));
        for (EnvironmentSetting setting : settings) {
            env.put(setting.name(), setting.value());
        }
        extra.forEach(env::put);
        Path err = Files.createTempFile(dir, "stderr", ".txt");
        builder.redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Process process = builder.start();
        byte[] out = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the shell did not end: " + argv);
        String stderr = Files.readString(err);
        Files.delete(err);
        return new Run(process.exitValue(), out, stderr);
    }

    /** NUL-separated fields of a program's output, as the dump programs write them. */
    static List<String> fields(byte[] out) {
        List<String> fields = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < out.length; i++) {
            if (out[i] == 0) {
                fields.add(new String(out, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        assertEquals(out.length, start, "output ends with a NUL");
        return fields;
    }
}
