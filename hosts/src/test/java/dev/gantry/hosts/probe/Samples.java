package dev.gantry.hosts.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

/** Reads the golden inputs under {@code src/test/resources/probe/} and compares generated text with golden files. */
final class Samples {
    /** Set {@code -Dprobe.golden.update=true} to rewrite the expected files after a deliberate change; review the diff. */
    private static final boolean UPDATE = Boolean.getBoolean("probe.golden.update");

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
        Path source = Path.of("src/test/resources/probe/expected", expectedName);
        if (UPDATE) {
            try {
                Files.createDirectories(source.getParent());
                Files.writeString(source, actual, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return;
        }
        assertEquals(raw("expected/" + expectedName), actual, "golden file probe/expected/" + expectedName
                + " differs; after a deliberate change rerun with -Dprobe.golden.update=true and review the diff");
    }
}
