package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command of every README under examples/ (the {@link ReadmeTranscript} convention), run from the repository
 * root as a user of a fresh clone runs it, with a private home and state directory: it must exit 0 and print every
 * line its README shows, compared after {@link OutputMask} (ids, times, hashes). Lines are looked for anywhere in the
 * output: steps that run side by side print in any order. {@code ./gantry ARGS} runs the command's entry point on
 * this module's class path (the launcher would build the CLI first; the build under test is that build), and
 * {@code java -cp CLASSPATH CLASS ARGS} runs CLASS on the same class path, which holds the examples module.
 */
class ExampleReadmesTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path EXAMPLES = ROOT.resolve("examples");
    /**
     * The runnable examples, each with at least one command; any other README under examples/ (a module's) is run
     * for the commands it has.
     */
    private static final Set<String> RUNNABLE = Set.of("batch-inference", "fine-tune", "platform", "train-and-serve");

    @TempDir
    Path home;

    @TestFactory
    Stream<DynamicTest> everyCommandOfEveryExampleReadmeRunsAndPrintsWhatTheReadmeShows() throws IOException {
        List<Path> readmes;
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            readmes = files.map(dir -> dir.resolve("README.md")).filter(Files::isRegularFile).sorted().toList();
        }
        Set<String> found = readmes.stream().map(r -> r.getParent().getFileName().toString())
                .collect(Collectors.toSet());
        assertTrue(found.containsAll(RUNNABLE), "examples/*/README.md: " + found + ", expected " + RUNNABLE);
        List<DynamicTest> tests = new ArrayList<>();
        for (Path readme : readmes) {
            String example = readme.getParent().getFileName().toString();
            List<ReadmeTranscript.Command> commands = ReadmeTranscript.parse(Files.readString(readme)).commands();
            assertFalse(RUNNABLE.contains(example) && commands.isEmpty(),
                    readme + " has no ```console block with a '$ ' command");
            for (ReadmeTranscript.Command command : commands) {
                tests.add(DynamicTest.dynamicTest(example + ": " + command.line(), () -> check(example, command)));
            }
        }
        return tests.stream();
    }

    private void check(String example, ReadmeTranscript.Command command) throws Exception {
        long start = System.nanoTime();
        Process process = start(command.line());
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(2, TimeUnit.MINUTES), command.line() + " did not end");
        String seconds = String.format("%.1f s", (System.nanoTime() - start) / 1e9);
        assertEquals(0, process.exitValue(), command.line() + " exited " + process.exitValue() + ":\n" + output);
        Set<String> printed = output.lines().map(OutputMask::mask).collect(Collectors.toSet());
        List<String> missing = command.shownOutput().stream().filter(line -> !line.isBlank())
                .filter(line -> !printed.contains(OutputMask.mask(line))).toList();
        assertEquals(List.of(), missing, "lines examples/" + example + "/README.md shows that this run of '"
                + command.line() + "' did not print; it printed:\n" + output);
        System.out.println("examples/" + example + ": " + command.line() + ": exit 0, " + command.shownOutput().size()
                + " shown lines found, " + seconds);
    }

    private Process start(String line) throws IOException {
        List<String> words = words(line);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("java.class.path");
        List<String> argv = new ArrayList<>();
        if (words.get(0).equals("./gantry")) {
            argv.addAll(List.of(java, "-cp", classPath, Main.class.getName()));
            argv.addAll(words.subList(1, words.size()));
        } else if (words.get(0).equals("java") && words.size() > 3 && words.get(1).equals("-cp")) {
            argv.addAll(List.of(java, "-cp", classPath));
            argv.addAll(words.subList(3, words.size()));
        } else {
            throw new AssertionError("a README command must be './gantry ARGS' or 'java -cp CLASSPATH CLASS ARGS' "
                    + "(what this test knows how to run), got: " + line);
        }
        ProcessBuilder builder = new ProcessBuilder(argv).directory(ROOT.toFile()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().keySet().removeIf(name -> name.startsWith("GANTRY_") || name.startsWith("AZURE_")
                || name.startsWith("XDG_"));
        builder.environment().put("HOME", home.toString());
        builder.environment().put("GANTRY_STATE_DIR", home.resolve("state").toString());
        return builder.start();
    }

    /** The words of a command line as sh splits it, for the quoting READMEs use: double quotes, nothing nested. */
    static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean quoted = false;
        boolean any = false;
        for (char c : line.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
                any = true;
            } else if (Character.isWhitespace(c) && !quoted) {
                if (any) {
                    words.add(word.toString());
                }
                word.setLength(0);
                any = false;
            } else {
                word.append(c);
                any = true;
            }
        }
        if (any) {
            words.add(word.toString());
        }
        return words;
    }
}
