package dev.gantry.backend.cyclecloud.internal.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Golden files under {@code src/test/resources/golden/slurm}; {@code -Dgolden.update=true} rewrites them (review
 * the diff, then run again without it). */
final class Golden {
    private static final String DIR = "golden/slurm/";

    private Golden() {
    }

    /** A golden file's text; an AssertionError naming how to make it when it is missing. */
    static String read(String name) {
        try (InputStream in = Golden.class.getResourceAsStream("/" + DIR + name)) {
            if (in == null) {
                throw new AssertionError("golden file " + DIR + name + " is missing; run with -Dgolden.update=true "
                        + "once and review it");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Asserts that {@code actual} is the golden file's text, byte for byte. */
    static void assertMatches(String name, String actual) {
        if (Boolean.getBoolean("golden.update")) {
            try {
                Path file = Path.of("src/test/resources", DIR, name);
                Files.createDirectories(file.getParent());
                Files.writeString(file, actual, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return; // the class path still holds the old file until the next build
        }
        assertEquals(read(name), actual, name);
    }
}
