package dev.gantry.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalHostTest {
    @TempDir
    Path temp;

    private final LocalHost host = LocalHost.detect();

    @Test
    void countsWholeGpusNotMigDevices() throws Exception {
        try (InputStream in = LocalHostTest.class.getResourceAsStream("/golden/nvidia-smi-L.txt")) {
            assertEquals(2, LocalHost.countGpus(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
        }
        assertEquals(0, LocalHost.countGpus("No devices were found\n"));
    }

    @Test
    void createDirectoryIsAtomicAndReportsRetries() {
        String dir = temp.resolve("jobs/job-a").toString();
        assertTrue(host.createDirectory(dir));
        assertFalse(host.createDirectory(dir));
    }

    @Test
    void writesAtomicallyAndReadsIncrementally() throws Exception {
        String file = temp.resolve("out").toString();
        assertEquals(0, host.readFrom(file, 0).length, "a file not written yet reads as empty");
        host.writeAtomically(file, "héllo\n");
        assertEquals(Optional.of("héllo\n"), host.readText(file));
        Files.writeString(Path.of(file), "more\n", java.nio.file.StandardOpenOption.APPEND);
        assertEquals("more\n", new String(host.readFrom(file, "héllo\n".getBytes(StandardCharsets.UTF_8).length),
                StandardCharsets.UTF_8));
        try (var files = Files.list(temp)) {
            assertEquals(List.of("out"), files.map(p -> p.getFileName().toString()).toList());
        }
    }

    @Test
    void ourOwnProcessIsAliveAndAReusedIdIsNot() {
        long pid = ProcessHandle.current().pid();
        Instant started = ProcessHandle.current().info().startInstant().orElseThrow();
        assertTrue(host.isAlive(pid, Optional.of(started)));
        assertTrue(host.isAlive(pid, Optional.empty()));
        // A wrapper that stamped its start long before this process began cannot be this process.
        assertFalse(host.isAlive(pid, Optional.of(started.minusSeconds(3600))));
    }
}
