package dev.gantry.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Golden files: the exact text a render or parse function must produce, kept in one folder under a module's
 * {@code src/test/resources} and compared byte for byte. The one way to rewrite them is
 * {@code -Dgantry.golden.update=true} ({@link #UPDATE_PROPERTY}): a file whose text differs, or that is missing, is
 * written and its test fails naming it, so that a run which rewrote a golden file never passes. Review the diff, then
 * run again without the property. docs/testing.md has the commands.
 *
 * <p>Files are read from the source folder, not the class path, so a run sees what the last update wrote; Maven and
 * IDEs run a module's tests in the module's folder.
 */
public final class GoldenFiles {
    /** The system property that rewrites golden files. */
    public static final String UPDATE_PROPERTY = "gantry.golden.update";
    /** Properties that rewrote golden files before {@link #UPDATE_PROPERTY}: set, they fail rather than do nothing. */
    static final List<String> RETIRED_PROPERTIES = List.of("golden.update", "probe.golden.update",
            "gantry.updateGolden", "gantry.updateGoldens");
    private static final Path TEST_RESOURCES = Path.of("src/test/resources");

    private final Path folder;
    private final boolean update;

    GoldenFiles(Path folder, boolean update) {
        this.folder = folder;
        this.update = update;
    }

    /** The golden files in {@code src/test/resources/FOLDER} of the module under test. */
    public static GoldenFiles in(String folder) {
        return new GoldenFiles(TEST_RESOURCES.resolve(folder), updateRequested());
    }

    /** Whether {@link #UPDATE_PROPERTY} asks for an update; a value but true or false, or a retired property, fails. */
    static boolean updateRequested() {
        for (String retired : RETIRED_PROPERTIES) {
            if (System.getProperty(retired) != null) {
                throw new AssertionError("-D" + retired + " no longer rewrites golden files; use -D" + UPDATE_PROPERTY
                        + "=true");
            }
        }
        String value = System.getProperty(UPDATE_PROPERTY, "false");
        return switch (value) {
            case "true", "" -> true;
            case "false" -> false;
            default -> throw new AssertionError(UPDATE_PROPERTY + " is '" + value + "'; allowed: true or false");
        };
    }

    /** The golden file's path, relative to the module's folder. */
    public Path path(String name) {
        return folder.resolve(name);
    }

    /** The file as messages name it: from the module's folder on (hosts/src/test/resources/...), as a diff shows it. */
    private static String shown(Path file) {
        Path absolute = file.toAbsolutePath();
        Path module = Path.of("").toAbsolutePath();
        return absolute.startsWith(module) && module.getFileName() != null
                ? module.getFileName().resolve(module.relativize(absolute)).toString() : absolute.toString();
    }

    /** A golden file's text, byte for byte; an AssertionError naming the file and how to make it when it is missing. */
    public String read(String name) {
        Path file = path(name);
        if (!Files.isRegularFile(file)) {
            throw new AssertionError("golden file " + shown(file) + " is missing; run with -D" + UPDATE_PROPERTY
                    + "=true once to write it, and review it");
        }
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Asserts that {@code actual} is the golden file's text; in an update, rewrites a file that differs and fails. */
    public void assertMatches(String name, String actual) {
        Path file = path(name);
        if (update && !actual.equals(existing(file))) {
            write(file, actual);
            throw new AssertionError("rewrote golden file " + shown(file) + " (-D" + UPDATE_PROPERTY
                    + "); review the diff, then run again without the property");
        }
        assertEquals(read(name), actual, () -> "golden file " + shown(file) + " differs; after an intended change run "
                + "with -D" + UPDATE_PROPERTY + "=true and review the diff");
    }

    /** Asserts that {@code lines}, each ended by a newline, are the golden file's text (no lines: an empty file). */
    public void assertLines(String name, List<String> lines) {
        assertMatches(name, lines.isEmpty() ? "" : String.join("\n", lines) + "\n");
    }

    private static String existing(Path file) {
        try {
            return Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
