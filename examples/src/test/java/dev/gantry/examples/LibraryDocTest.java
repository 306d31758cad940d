package dev.gantry.examples;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every Java snippet of docs/library.md is cut from this module's sources, which the build compiles and these tests
 * run: a snippet edited in the page alone, or code changed without its snippet, fails here. The page's first program
 * is a whole file, the examples' FirstProgram in the package of the page's project; scripts/e2e-library.sh builds and
 * runs that project from the page.
 */
class LibraryDocTest {
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL);
    private static final Pattern PACKAGE_LINE = Pattern.compile("\\Apackage [\\w.]+;\n");

    @Test
    void everyJavaSnippetIsInTheExamplesSources() throws IOException {
        String sources = normalized(sources());
        List<String> snippets = new ArrayList<>();
        Matcher blocks = JAVA_BLOCK.matcher(Files.readString(Path.of("../docs/library.md"), StandardCharsets.UTF_8));
        while (blocks.find()) {
            // A whole file of the page's project is in its own package (scripts/e2e-library.sh builds and runs it);
            // the rest of it is the examples' file.
            snippets.add(PACKAGE_LINE.matcher(blocks.group(1)).replaceFirst(""));
        }
        assertFalse(snippets.isEmpty(), "no ```java block in docs/library.md");
        for (String snippet : snippets) {
            assertTrue(sources.contains(normalized(snippet)), "not in the examples' sources as docs/library.md shows "
                    + "it:\n" + snippet);
        }
    }

    /** The text with each line's indentation removed: a snippet keeps the code's lines, not its nesting depth. */
    private static String normalized(String text) {
        return text.lines().map(String::strip).collect(Collectors.joining("\n", "\n", "\n"));
    }

    private static String sources() throws IOException {
        StringBuilder all = new StringBuilder();
        for (String root : List.of("src/main/java", "src/test/java")) {
            try (Stream<Path> files = Files.walk(Path.of(root))) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                    all.append(Files.readString(file, StandardCharsets.UTF_8)).append('\n');
                }
            }
        }
        return all.toString();
    }
}
