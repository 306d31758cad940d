package dev.gantry.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

class GoldenFilesTest {
    @TempDir
    Path folder;

    /** The properties as the run set them: these tests set and clear them, and put them back after. */
    private final Map<String, String> outside = new HashMap<>();

    @BeforeEach
    void clearProperties() {
        for (String property : properties()) {
            String value = System.clearProperty(property);
            if (value != null) {
                outside.put(property, value);
            }
        }
    }

    @AfterEach
    void restoreProperties() {
        for (String property : properties()) {
            System.clearProperty(property);
        }
        outside.forEach(System::setProperty);
    }

    private static List<String> properties() {
        List<String> all = new ArrayList<>(GoldenFiles.RETIRED_PROPERTIES);
        all.add(GoldenFiles.UPDATE_PROPERTY);
        return all;
    }

    @Test
    void aMatchPassesAndADifferenceFailsWithTheDiffAndTheProperty() throws IOException {
        Files.writeString(folder.resolve("a.txt"), "one\ntwo\n");
        GoldenFiles golden = new GoldenFiles(folder, false);

        golden.assertLines("a.txt", List.of("one", "two"));
        AssertionFailedError e = assertThrows(AssertionFailedError.class,
                () -> golden.assertLines("a.txt", List.of("one", "three")));

        assertEquals("one\ntwo\n", e.getExpected().getValue());
        assertEquals("one\nthree\n", e.getActual().getValue());
        assertTrue(e.getMessage().contains("-Dgantry.golden.update=true"), e.getMessage());
        assertEquals("one\ntwo\n", Files.readString(folder.resolve("a.txt")), "a check never writes");
    }

    @Test
    void noLinesIsAnEmptyFile() throws IOException {
        Files.writeString(folder.resolve("empty.expected"), "");

        new GoldenFiles(folder, false).assertLines("empty.expected", List.of());
    }

    @Test
    void aMissingFileNamesItselfAndHowToWriteIt() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> new GoldenFiles(folder, false).assertMatches("absent.txt", "x"));

        assertTrue(e.getMessage().contains(folder.resolve("absent.txt").toString()), e.getMessage());
        assertTrue(e.getMessage().contains("-Dgantry.golden.update=true"), e.getMessage());
        assertFalse(Files.exists(folder.resolve("absent.txt")));
    }

    @Test
    void anUpdateRewritesADifferentFileAndFailsNamingIt() throws IOException {
        Path file = folder.resolve("sub/a.txt");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "old\n");

        AssertionError e = assertThrows(AssertionError.class,
                () -> new GoldenFiles(folder, true).assertMatches("sub/a.txt", "new\n"));

        assertEquals("new\n", Files.readString(file));
        assertTrue(e.getMessage().startsWith("rewrote golden file " + file), e.getMessage());
        new GoldenFiles(folder, false).assertMatches("sub/a.txt", "new\n");
    }

    @Test
    void aFileInTheModuleIsNamedFromTheModulesFolderOn() throws IOException {
        // Maven runs a module's tests in its folder, so the name reads as in the repository's diff.
        Path inModule = Path.of("target", "golden-files-test-" + System.nanoTime());
        try {
            AssertionError e = assertThrows(AssertionError.class,
                    () -> new GoldenFiles(inModule, true).assertMatches("c.txt", "c\n"));

            String module = Path.of("").toAbsolutePath().getFileName().toString();
            assertTrue(e.getMessage().startsWith("rewrote golden file " + module + "/" + inModule.resolve("c.txt")
                    + " "), e.getMessage());
        } finally {
            Files.deleteIfExists(inModule.resolve("c.txt"));
            Files.deleteIfExists(inModule);
        }
    }

    @Test
    void anUpdateWritesAMissingFileAndFails() throws IOException {
        AssertionError e = assertThrows(AssertionError.class,
                () -> new GoldenFiles(folder, true).assertMatches("new/b.txt", "b\n"));

        assertEquals("b\n", Files.readString(folder.resolve("new/b.txt")));
        assertTrue(e.getMessage().contains(folder.resolve("new/b.txt").toString()), e.getMessage());
    }

    @Test
    void anUpdateLeavesAnEqualFileAloneAndPasses() throws IOException {
        Path file = folder.resolve("same.txt");
        Files.writeString(file, "same\n");
        FileTime before = FileTime.fromMillis(1_000_000L);
        Files.setLastModifiedTime(file, before);

        new GoldenFiles(folder, true).assertMatches("same.txt", "same\n");

        assertEquals(before, Files.getLastModifiedTime(file), "an unchanged golden file is not written");
    }

    @Test
    void thePropertyIsTrueFalseOrAbsent() {
        assertFalse(GoldenFiles.updateRequested());
        System.setProperty(GoldenFiles.UPDATE_PROPERTY, "true");
        assertTrue(GoldenFiles.updateRequested());
        System.setProperty(GoldenFiles.UPDATE_PROPERTY, "");
        assertTrue(GoldenFiles.updateRequested(), "-Dgantry.golden.update alone, as the JVM reads it");
        System.setProperty(GoldenFiles.UPDATE_PROPERTY, "false");
        assertFalse(GoldenFiles.updateRequested());
        System.setProperty(GoldenFiles.UPDATE_PROPERTY, "yes");
        AssertionError e = assertThrows(AssertionError.class, GoldenFiles::updateRequested);
        assertEquals("gantry.golden.update is 'yes'; allowed: true or false", e.getMessage());
    }

    @Test
    void aRetiredPropertyFailsNamingTheOneThatWorks() {
        for (String retired : GoldenFiles.RETIRED_PROPERTIES) {
            System.setProperty(retired, "true");
            AssertionError e = assertThrows(AssertionError.class, GoldenFiles::updateRequested);
            assertEquals("-D" + retired + " no longer rewrites golden files; use -Dgantry.golden.update=true",
                    e.getMessage());
            System.clearProperty(retired);
        }
    }
}
