package dev.gantry.cli;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;

/**
 * The command tree of one invocation. picocli builds a command's model by reflection over its class, its options and
 * its mixins, about 10 ms a command on a cold JVM; an invocation that names its command gets the root and that command
 * only, and one that names none (the root usage, a mistyped command that wants suggestions) gets every command.
 */
final class CommandTree {
    /** Every command under the root, by name, in the order the usage lists them. */
    static final Map<String, Class<?>> COMMANDS = commands();

    /** The root's options that take a value, so that the value is not taken for the command's name. */
    static final Set<String> ROOT_OPTIONS_WITH_A_VALUE = Set.of("--config", "--backend");

    private CommandTree() {
    }

    /** The root and every command: for the root usage, the reference documentation and completion. */
    static CommandLine full(GantryCommand root) {
        return build(root, null);
    }

    /**
     * Every command, for a command that describes them all (the reference pages, the completion scripts): the tree
     * of its own invocation holds only itself.
     */
    static CommandLine.Model.CommandSpec everyCommand(CommandLine.Model.CommandSpec any) {
        return full((GantryCommand) any.root().userObject()).getCommandSpec();
    }

    /** The root and the command {@code args} names, or every command when they name none that exists. */
    static CommandLine forArguments(GantryCommand root, String... args) {
        String name = commandName(args);
        return build(root, COMMANDS.containsKey(name) ? name : null);
    }

    /** The first argument that is neither an option of the root nor an option's value; null when there is none. */
    static String commandName(String... args) {
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--")) {
                return null;
            }
            if (ROOT_OPTIONS_WITH_A_VALUE.contains(arg)) {
                i++;
            } else if (!arg.startsWith("-")) {
                return arg;
            }
        }
        return null;
    }

    private static CommandLine build(GantryCommand root, String only) {
        CommandFactory factory = new CommandFactory(root);
        CommandLine commandLine = new CommandLine(root, factory);
        for (Map.Entry<String, Class<?>> command : COMMANDS.entrySet()) {
            if (only == null || only.equals(command.getKey())) {
                commandLine.addSubcommand(command.getKey(), new CommandLine(create(factory, command.getValue()),
                        factory));
            }
        }
        return commandLine;
    }

    private static Object create(CommandFactory factory, Class<?> type) {
        try {
            return factory.create(type);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create the command " + type.getName(), e);
        }
    }

    private static Map<String, Class<?>> commands() {
        Map<String, Class<?>> commands = new LinkedHashMap<>();
        commands.put("backends", BackendsCommand.class);
        commands.put("validate", ValidateCommand.class);
        commands.put("plan", PlanCommand.class);
        commands.put("run", RunCommand.class);
        commands.put("list", ListCommand.class);
        commands.put("status", StatusCommand.class);
        commands.put("attach", AttachCommand.class);
        commands.put("retry", RetryCommand.class);
        commands.put("logs", LogsCommand.class);
        commands.put("cancel", CancelCommand.class);
        commands.put("history", HistoryCommand.class);
        commands.put("catalog", CatalogCommand.class);
        commands.put("vm", VmCommand.class);
        commands.put("doctor", DoctorCommand.class);
        commands.put("gc", GcCommand.class);
        commands.put("version", VersionCommand.class);
        commands.put("completion", CompletionCommand.class);
        commands.put("__complete", CompleteCommand.class);
        commands.put("__docs", DocsCommand.class);
        return Collections.unmodifiableMap(commands);
    }
}
