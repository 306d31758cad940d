package dev.gantry.backend.cyclecloud.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The golden files under {@code src/test/resources/golden}: exact inputs captured from (or written after the
 * documentation of) a scheduler, and the exact output expected of Gantry's render and parse functions.
 * {@code -Dgolden.update=true} rewrites the expected files from the actual output, to be reviewed in the diff.
 */
public final class GoldenFiles {
    private GoldenFiles() {
    }

    /** A golden file's text, byte for byte. */
    public static String read(String path) {
        try (InputStream in = GoldenFiles.class.getResourceAsStream("/golden/" + path)) {
            if (in == null) {
                throw new AssertionError("golden file golden/" + path + " is missing; run with -Dgolden.update=true "
                        + "once and review it");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Asserts that {@code lines}, each ended by a newline, are the golden file's text. */
    public static void assertMatches(String path, List<String> lines) {
        String actual = lines.isEmpty() ? "" : String.join("\n", lines) + "\n";
        if (Boolean.getBoolean("golden.update")) {
            try {
                Path file = Path.of("src/test/resources/golden", path);
                Files.createDirectories(file.getParent());
                Files.writeString(file, actual, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        assertEquals(read(path), actual, path);
    }
}
