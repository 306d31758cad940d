package dev.gantry.hosts.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.hosts.json.internal.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobWrapperTest {
    @TempDir
    Path temp;

    private static String golden(String name) throws IOException {
        try (InputStream in = JobWrapperTest.class.getResourceAsStream("/golden/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void scriptMatchesGolden() throws IOException {
        assertEquals(golden("job-wrapper.sh"), JobWrapper.script());
    }

    @Test
    void userArgvFollowsTheFixedScriptAsPositionalParameters() throws IOException {
        List<String> argv = JobWrapper.launchArgv(List.of("/usr/bin/setsid"), "/var/lib/gantry/manual/jobs/job-run-1",
                List.of("python", "train.py", "--lr=$LR; rm -rf ~", "it's \"quoted\"", "line\nbreak"));
        assertEquals(JobWrapper.script(), argv.get(3), "the shell text is the fixed script, nothing user-given");
        List<String> rendered = new ArrayList<>(argv);
        rendered.set(3, "<the wrapper script>");
        assertEquals(golden("launch-argv.txt"),
                rendered.stream().map(Json::quote).collect(Collectors.joining("\n", "", "\n")));
    }

    @Test
    void wrapperRecordsTheJobAndRunsArgvVerbatim() throws Exception {
        Path dir = Files.createDirectory(temp.resolve("job-a"));
        run(dir, "sh", "-c", "printf '<%s>\\n' \"$@\"; echo oops >&2; exit 4", "sh", "a b", "$HOME", "`id`");
        assertEquals("<a b>\n<$HOME>\n<`id`>\n", Files.readString(dir.resolve("stdout")));
        assertEquals("oops\n", Files.readString(dir.resolve("stderr")));
        assertEquals("4", Files.readString(dir.resolve("exit")).strip());
        String pid = Files.readString(dir.resolve("pid")).strip();
        assertEquals(pid, Files.readString(dir.resolve("pgid")).strip());
        Instant started = Instant.parse(Files.readString(dir.resolve("started")).strip());
        Instant ended = Instant.parse(Files.readString(dir.resolve("ended")).strip());
        assertFalse(ended.isBefore(started));
        try (var files = Files.list(dir)) {
            assertTrue(files.noneMatch(f -> f.getFileName().toString().endsWith(".tmp")), "temporary files remain");
        }
    }

    @Test
    void secondLaunchOfTheSameJobDoesNothing() throws Exception {
        Path dir = Files.createDirectory(temp.resolve("job-b"));
        run(dir, "sh", "-c", "echo ran");
        String pid = Files.readString(dir.resolve("pid"));
        run(dir, "sh", "-c", "echo ran again; exit 9");
        assertEquals("ran\n", Files.readString(dir.resolve("stdout")));
        assertEquals("0", Files.readString(dir.resolve("exit")).strip());
        assertEquals(pid, Files.readString(dir.resolve("pid")));
    }

    @Test
    void jobCancelledBeforeTheWrapperRanIsNotStarted() throws Exception {
        Path dir = Files.createDirectory(temp.resolve("job-d"));
        Files.writeString(dir.resolve("cancelled"), "2026-01-01T00:00:00Z\n");
        run(dir, "sh", "-c", "echo should not run");
        assertFalse(Files.exists(dir.resolve("stdout")));
        assertFalse(Files.exists(dir.resolve("exit")));
        assertTrue(Files.exists(dir.resolve("pgid")), "pgid is written before the markers are checked");
    }

    @Test
    void missingCommandExitsWith127() throws Exception {
        Path dir = Files.createDirectory(temp.resolve("job-c"));
        run(dir, "gantry-no-such-program");
        assertEquals("127", Files.readString(dir.resolve("exit")).strip());
        assertTrue(Files.readString(dir.resolve("stderr")).contains("gantry-no-such-program"));
    }

    private static void run(Path dir, String... command) throws Exception {
        Process p = new ProcessBuilder(JobWrapper.launchArgv(List.of(), dir.toString(), List.of(command)))
                .redirectErrorStream(true).start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }
}
