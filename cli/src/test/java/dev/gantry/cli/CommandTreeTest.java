package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

class CommandTreeTest {
    private final GantryCommand root = new GantryCommand(new CliEnvironment(new PrintWriter(new StringWriter()),
            new PrintWriter(new StringWriter()), Map.of(), Path.of("."), Path.of(".")));

    @Test
    void eachCommandIsListedUnderTheNameItsClassDeclares() {
        CommandTree.COMMANDS.forEach((name, type) ->
                assertEquals(name, type.getAnnotation(CommandLine.Command.class).name(), type.getName()));
        assertEquals(List.copyOf(CommandTree.COMMANDS.keySet()),
                List.copyOf(CommandTree.full(root).getSubcommands().keySet()));
    }

    @Test
    void theRootOptionsThatTakeAValueAreKnownToTheCommandFinder() {
        Set<String> withValue = CommandTree.full(root).getCommandSpec().options().stream()
                .filter(option -> option.arity().max() > 0)
                .map(OptionSpec::longestName).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(withValue, new TreeSet<>(CommandTree.ROOT_OPTIONS_WITH_A_VALUE),
                "a root option with a value must be in ROOT_OPTIONS_WITH_A_VALUE, or its value reads as the command");
    }

    @Test
    void theCommandIsTheFirstArgumentThatIsNoOptionNorAnOptionsValue() {
        assertEquals("plan", CommandTree.commandName("--config", "plan.yaml", "plan", "a.yaml"));
        assertEquals("run", CommandTree.commandName("--backend=manual", "--debug", "run", "x"));
        assertEquals("vm", CommandTree.commandName("--backend", "vm", "vm", "up"));
        assertNull(CommandTree.commandName("--help"));
        assertNull(CommandTree.commandName());
        assertNull(CommandTree.commandName("--", "plan"));
    }

    @Test
    void anInvocationGetsTheCommandItNamesOrEveryCommand() {
        assertEquals(Set.of("plan"), CommandTree.forArguments(root, "plan", "x.yaml").getSubcommands().keySet());
        assertEquals(Set.of("vm"), CommandTree.forArguments(root, "--debug", "vm", "up").getSubcommands().keySet());
        assertEquals(CommandTree.COMMANDS.keySet(), CommandTree.forArguments(root, "pla").getSubcommands().keySet());
        assertEquals(CommandTree.COMMANDS.keySet(), CommandTree.forArguments(root, "--help").getSubcommands().keySet());
    }

    @Test
    void aMistypedCommandStillGetsSuggestions() {
        CliRun run = CliRun.run(Path.of(System.getProperty("java.io.tmpdir")), Path.of("."), "pla");
        assertEquals(Main.USAGE_ERROR, run.exitCode, run.toString());
        assertEquals(true, run.err.contains("plan"), run.toString());
    }
}
