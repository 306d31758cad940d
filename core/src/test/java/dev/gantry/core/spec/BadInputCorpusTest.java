package dev.gantry.core.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.core.config.ConfigLoader;
import dev.gantry.core.config.ConfigSources;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every file under {@code bad-input/} with its exact expected output: {@code NAME.yaml} and {@code NAME.expected}
 * (one {@code FILE:LINE:COL: path: message} line per problem). Files named {@code config-*} are configuration
 * files, the rest workload specs or ({@code kind: Workflow}) workflows.
 */
class BadInputCorpusTest {
    static final Path CORPUS = Path.of("src/test/resources/bad-input");

    @TempDir
    Path home;

    static Stream<String> inputs() throws IOException {
        try (Stream<Path> files = Files.list(CORPUS)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml")).sorted()
                    .collect(Collectors.toList()).stream();
        }
    }

    @Test
    void corpusIsLargeAndEveryFileHasItsPair() throws IOException {
        List<String> names;
        try (Stream<Path> files = Files.list(CORPUS)) {
            names = files.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
        for (String name : names) {
            String stem = name.substring(0, name.lastIndexOf('.'));
            String pair = name.endsWith(".yaml") ? stem + ".expected" : stem + ".yaml";
            assertTrue(names.contains(pair), name + " has no " + pair);
        }
        long specs = names.stream().filter(n -> n.endsWith(".yaml") && !n.startsWith("config-")).count();
        long configs = names.stream().filter(n -> n.endsWith(".yaml") && n.startsWith("config-")).count();
        assertTrue(specs >= 30, "at least 30 bad specs, found " + specs);
        assertTrue(configs >= 10, "at least 10 bad configurations, found " + configs);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inputs")
    void reportsExactlyTheExpectedProblems(String name) throws IOException {
        Path expectedFile = CORPUS.resolve(name.replace(".yaml", ".expected"));
        assertTrue(Files.exists(expectedFile), "missing expectation " + expectedFile);
        List<String> expected = Files.readAllLines(expectedFile, StandardCharsets.UTF_8);
        assertFalse(expected.isEmpty(), expectedFile + " must list at least one problem");

        List<Problem> problems = name.startsWith("config-") ? configProblems(name) : specProblems(name);

        assertEquals(expected, problems.stream().map(Problem::toString).collect(Collectors.toList()));
        problems.forEach(p -> assertTrue(p.location().isPresent(), "unlocated: " + p));
    }

    private List<Problem> specProblems(String name) throws IOException {
        String text = Files.readString(CORPUS.resolve(name), StandardCharsets.UTF_8);
        List<Problem> problems = new SpecReader().validate(name, text);
        // read() takes workloads only and would add a "kind" problem for a workflow; readAny() takes both.
        boolean workflow = text.contains("\nkind: Workflow\n");
        GantryException thrown = assertThrows(GantryException.class, () -> {
            if (workflow) {
                new SpecReader().readAny(name, text);
            } else {
                new SpecReader().read(name, text);
            }
        });
        assertEquals(ErrorCode.SPEC_INVALID, thrown.code());
        assertEquals(problems, thrown.problems());
        assertEquals(problems.stream().map(Problem::toString).collect(Collectors.joining("\n")),
                thrown.getMessage());
        return problems;
    }

    private List<Problem> configProblems(String name) {
        ConfigSources sources = new ConfigSources(Optional.of(Path.of(name)), Map.of(), CORPUS, home, Map.of());
        GantryException thrown = assertThrows(GantryException.class, () -> new ConfigLoader().load(sources));
        assertEquals(ErrorCode.CONFIG_INVALID, thrown.code());
        return thrown.problems();
    }
}
