package dev.gantry.ssh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SFTP against the real test hosts. */
class FileTransferTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static SshPool pool;
    private static SshTarget host;
    private static String dir;

    @BeforeAll
    static void start() {
        host = TestHosts.host(1).target();
        pool = new SshPool();
        RemoteResult made = pool.exec(host, List.of("mktemp", "-d", "/tmp/gantry-sftp.XXXXXX"), TIMEOUT);
        assertEquals(0, made.exitCode(), made.stderrText());
        dir = made.stdoutText().strip();
    }

    @AfterAll
    static void stop() {
        pool.exec(host, List.of("rm", "-rf", "--", dir), TIMEOUT);
        pool.close();
    }

    private static String stat(String path) {
        RemoteResult result = pool.exec(host, List.of("stat", "-c", "%a %U %s", "--", path), TIMEOUT);
        assertEquals(0, result.exitCode(), result.stderrText());
        return result.stdoutText().strip();
    }

    @Test
    void writeFileSetsTheModeAndReplacesAtomically() {
        String path = dir + "/secret env";
        byte[] first = "TOKEN=one\n".getBytes(StandardCharsets.UTF_8);
        pool.writeFile(host, path, first, 0600);
        assertEquals("600 gantry " + first.length, stat(path));
        assertArrayEquals(first, pool.download(host, path));

        byte[] second = "TOKEN=two, longer than before\n".getBytes(StandardCharsets.UTF_8);
        pool.writeFile(host, path, second, 0640);
        assertEquals("640 gantry " + second.length, stat(path));
        assertArrayEquals(second, pool.download(host, path));
        RemoteResult listing = pool.exec(host, List.of("ls", "-A", "--", dir), TIMEOUT);
        assertEquals(List.of("secret env"), listing.stdoutText().lines().toList(), "no temp file is left behind");
    }

    @Test
    void uploadAndDownloadFilesOfSeveralMegabytes(@TempDir Path local) throws Exception {
        byte[] content = new byte[3 * 1024 * 1024 + 17];
        new Random(3).nextBytes(content);
        Path source = local.resolve("model.bin");
        Files.write(source, content);
        String remote = dir + "/model.bin";
        pool.upload(host, source, remote, 0644);
        assertEquals("644 gantry " + content.length, stat(remote));
        RemoteResult sum = pool.exec(host, List.of("sha256sum", remote), TIMEOUT);
        assertTrue(sum.stdoutText().startsWith(sha256(content)), sum.stdoutText());

        Path back = local.resolve("back.bin");
        Files.writeString(back, "old");
        pool.download(host, remote, back);
        assertArrayEquals(content, Files.readAllBytes(back));

        pool.upload(host, "small".getBytes(StandardCharsets.UTF_8), dir + "/small", 0600);
        assertEquals("600 gantry 5", stat(dir + "/small"));
    }

    @Test
    void missingFilesAndDirectoriesAreRemoteErrorsNamingThePath() {
        GantryException read = assertThrows(GantryException.class,
                () -> pool.download(host, dir + "/does-not-exist"));
        assertEquals(ErrorCode.REMOTE_ERROR, read.code());
        assertTrue(read.getMessage().startsWith("cannot read " + dir + "/does-not-exist on " + host.host()
                + ":22 over SFTP"), read.getMessage());
        GantryException write = assertThrows(GantryException.class,
                () -> pool.writeFile(host, dir + "/no/such/dir/file", new byte[1], 0600));
        assertTrue(write.getMessage().startsWith("cannot write " + dir + "/no/such/dir/file"), write.getMessage());
        GantryException denied = assertThrows(GantryException.class,
                () -> pool.writeFile(host, "/etc/gantry-not-allowed", new byte[1], 0600));
        assertTrue(denied.getMessage().contains("Permission denied"), denied.getMessage());
    }

    private static String sha256(byte[] content) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(content));
    }
}
