package dev.gantry.hosts.probe;

import dev.gantry.testing.GoldenFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;

/** Reads the golden inputs under {@code src/test/resources/probe/} and compares generated text with golden files. */
final class Samples {
    private static final GoldenFiles EXPECTED = GoldenFiles.in("probe/expected");

    private Samples() {
    }

    /** A sample without its {@code ## } annotation lines. */
    static String sample(String name) {
        return raw(name).lines().filter(line -> !line.startsWith("## ")).collect(Collectors.joining("\n"));
    }

    static String raw(String name) {
        try (InputStream in = Samples.class.getResourceAsStream("/probe/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource probe/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A section as the probe script prints it for a command that ran with the given status. */
    static ProbeSection section(String name, int status, String sample) {
        return new ProbeSection(name, status, sample(sample));
    }

    static void assertGolden(String expectedName, String actual) {
        EXPECTED.assertMatches(expectedName, actual);
    }
}
