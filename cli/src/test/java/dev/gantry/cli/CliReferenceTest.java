package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The checked-in CLI reference (docs/cli) is what the command model renders, byte for byte, and its examples are
 * real invocations: each parses against the model and names example files that exist.
 */
class CliReferenceTest {
    /** The repository root: Maven runs the tests in the module's directory. */
    static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
    static final Path DOCS = REPOSITORY.resolve("docs").resolve("cli");

    /** The command tree as Main builds it. */
    static CommandLine commandLine() {
        StringWriter sink = new StringWriter();
        CliEnvironment env = new CliEnvironment(new PrintWriter(sink), new PrintWriter(sink), Map.of(), REPOSITORY,
                REPOSITORY);
        GantryCommand root = new GantryCommand(env);
        return CommandTree.full(root);
    }

    static CommandSpec model() {
        return commandLine().getCommandSpec();
    }

    @Test
    void theCheckedInReferenceIsWhatTheCommandModelRenders() throws IOException {
        Map<String, String> pages = CliReference.render(model());
        List<String> stale = new ArrayList<>();
        for (Map.Entry<String, String> page : pages.entrySet()) {
            Path file = DOCS.resolve(page.getKey());
            if (!Files.exists(file) || !Files.readString(file, StandardCharsets.UTF_8).equals(page.getValue())) {
                stale.add("docs/cli/" + page.getKey() + (Files.exists(file) ? " is out of date" : " is missing"));
            }
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(DOCS, "*.md")) {
            for (Path file : files) {
                if (!pages.containsKey(file.getFileName().toString())) {
                    stale.add("docs/cli/" + file.getFileName() + " documents a command that does not exist");
                }
            }
        }
        if (!stale.isEmpty()) {
            fail(String.join("; ", stale) + ". Regenerate the reference from the repository root with: "
                    + CliReference.REGENERATE + " (then commit docs/cli)");
        }
    }

    @Test
    void everyExampleParsesAgainstTheModelAndItsExampleFilesExist() {
        Pattern command = Pattern.compile("(?:^|\\$\\(|<\\()(gantry [^)]*)");
        Pattern file = Pattern.compile("examples/[\\w./-]+");
        TreeSet<String> paths = new TreeSet<>(Completion.commandPaths(model()));
        paths.remove("gantry");
        assertEquals(paths, new TreeSet<>(CliReference.EXAMPLES.keySet()), "one example per command, no other");
        CliReference.EXAMPLES.forEach((path, lines) -> {
            boolean exercised = false;
            for (String line : lines) {
                Matcher m = command.matcher(line);
                assertTrue(m.find(), path + ": not a gantry invocation: " + line);
                List<String> words = new ArrayList<>(List.of(m.group(1).replaceAll("\"\\$\\w+\"", "ID").split(" ")));
                words.remove(0);
                try {
                    CommandLine.ParseResult parsed = commandLine().parseArgs(words.toArray(String[]::new));
                    while (parsed.hasSubcommand()) {
                        parsed = parsed.subcommand();
                    }
                    // A group's example (gantry vm) runs one of its commands.
                    String ran = parsed.commandSpec().qualifiedName();
                    exercised |= ran.equals(path) || ran.startsWith(path + " ");
                } catch (CommandLine.ParameterException e) {
                    fail(path + ": the example '" + line + "' does not parse: " + e.getMessage());
                }
                Matcher f = file.matcher(line);
                while (f.find()) {
                    assertTrue(Files.isRegularFile(REPOSITORY.resolve(f.group())), path + ": " + f.group()
                            + " does not exist");
                }
            }
            assertTrue(exercised, path + ": no line of its example runs it: " + lines);
        });
    }

    @Test
    void theExamplesThatNeedNoAzureAndNoJobRunHere() throws IOException {
        Path home = Files.createTempDirectory("gantry-reference");
        for (String example : List.of("gantry validate examples/quickstart.yaml examples/llm-finetune.yaml",
                "gantry plan examples/llm-finetune.yaml --spot never --region eastus", "gantry list --all --limit 10",
                "gantry catalog show --output json", "gantry backends --output json",
                "gantry completion bash")) {
            assertTrue(CliReference.EXAMPLES.values().stream().anyMatch(lines -> lines.stream()
                    .anyMatch(line -> line.contains(example))), "not an example (any more): " + example);
            String[] args = example.substring("gantry ".length()).split(" ");
            CliRun run = CliRun.run(home, REPOSITORY, args);
            assertEquals(0, run.exitCode, example + ": " + run);
        }
    }
}
