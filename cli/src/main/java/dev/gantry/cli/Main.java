package dev.gantry.cli;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import picocli.CommandLine;

/**
 * The {@code gantry} command. Exit codes: 0 success, 2 usage or validation error, 1 runtime failure. Errors print
 * one line per problem and never a stack trace unless {@code --debug} is given.
 */
public final class Main {
    public static final int OK = 0;
    public static final int RUNTIME_FAILURE = 1;
    public static final int USAGE_ERROR = 2;

    private Main() {
    }

    public static void main(String[] args) {
        if (printedWithoutTheModel(args)) {
            System.exit(OK);
        }
        CliEnvironment env = CliEnvironment.system();
        // Logging is set up when something first logs, not here: starting java.util.logging looks for a
        // System.LoggerFinder on the whole class path, which opens every jar, about 0.05 s of a command that logs
        // nothing. Nothing in this process has logged yet, so the configuration class is sure to be asked.
        LazyLogging.configureOnFirstUse(() -> quietLogging(env, Arrays.asList(args).contains("--debug")));
        int code = execute(env, args);
        System.exit(code);
    }

    /**
     * {@code gantry --help} and {@code gantry --version}, the calls scripts make most, answered without picocli's
     * command model, whose reflection over every command costs more than the JVM's own start. Only where picocli would
     * print the same bytes: the root usage without colours (not a terminal, nothing forcing colours).
     */
    private static boolean printedWithoutTheModel(String[] args) {
        if (args.length != 1) {
            return false;
        }
        String text;
        if (args[0].equals("--version") || args[0].equals("-V")) {
            text = new StringBuilder(BuildFacts.versionLine()).append(System.lineSeparator()).toString();
        } else if ((args[0].equals("--help") || args[0].equals("-h")) && !coloursPossible()) {
            text = RootUsage.stored().orElse(null);
        } else {
            return false;
        }
        if (text == null) {
            return false;
        }
        System.out.print(text);
        System.out.flush();
        return true;
    }

    /** Whether picocli's automatic colours could switch on: a terminal without NO_COLOR, or colours forced. */
    private static boolean coloursPossible() {
        String force = System.getenv("CLICOLOR_FORCE");
        String noColor = System.getenv("NO_COLOR");
        boolean terminal = System.console() != null && (noColor == null || noColor.isEmpty());
        return terminal || System.getProperty("picocli.ansi") != null || force != null && !force.equals("0");
    }

    /** Runs one invocation against the given environment and returns its exit code. */
    public static int run(CliEnvironment env, String... args) {
        quietLogging(env, Arrays.asList(args).contains("--debug"));
        return execute(env, args);
    }

    private static int execute(CliEnvironment env, String... args) {
        GantryCommand root = new GantryCommand(env);
        CommandLine commandLine = CommandTree.forArguments(root, args);
        commandLine.setOut(env.out());
        commandLine.setErr(env.err());
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        if (!env.environment().getOrDefault("NO_COLOR", "").isEmpty()) {
            // https://no-color.org: help is the only coloured output (picocli's, on a terminal); NO_COLOR turns it off.
            commandLine.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        }
        commandLine.setParameterExceptionHandler((e, arguments) -> {
            env.err().println("gantry: error: " + e.getMessage());
            CommandLine.UnmatchedArgumentException.printSuggestions(e, env.err());
            env.err().println("Run '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help' for usage.");
            env.err().flush();
            return USAGE_ERROR;
        });
        commandLine.setExecutionExceptionHandler((e, cmd, parseResult) -> report(env, root.debug, e));
        try {
            return commandLine.execute(args);
        } catch (LinkageError e) {
            // A broken installation (a jar missing from the class path) is reported like any failure, not as a trace.
            env.err().println("gantry: internal error: " + e + " (the installation is incomplete; rebuild with "
                    + "./mvnw package, or run with --debug for details)");
            if (root.debug) {
                e.printStackTrace(env.err());
            }
            return RUNTIME_FAILURE;
        } finally {
            try {
                root.closeGantry();
            } catch (RuntimeException e) {
                report(env, root.debug, e);
            }
            env.out().flush();
            env.err().flush();
        }
    }

    /**
     * Libraries and backends log through java.util.logging (System.Logger); at a terminal their warnings read like the
     * CLI's own ({@code gantry: warning: ...}), and chatter below WARNING appears only with --debug.
     */
    private static void quietLogging(CliEnvironment env, boolean debug) {
        java.util.logging.Logger rootLogger = java.util.logging.Logger.getLogger("");
        for (java.util.logging.Handler handler : rootLogger.getHandlers()) {
            rootLogger.removeHandler(handler);
        }
        java.util.logging.Handler handler = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                if (!isLoggable(record)) {
                    return;
                }
                String level = record.getLevel().intValue() >= java.util.logging.Level.SEVERE.intValue() ? "error"
                        : record.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue() ? "warning" : "debug";
                String message = record.getMessage();
                if (record.getParameters() != null && record.getParameters().length > 0) {
                    message = java.text.MessageFormat.format(message, record.getParameters());
                }
                env.err().println("gantry: " + level + ": " + message);
                env.err().flush();
            }

            @Override
            public void flush() {
                env.err().flush();
            }

            @Override
            public void close() {
            }
        };
        java.util.logging.Level level = debug ? java.util.logging.Level.FINE : java.util.logging.Level.WARNING;
        handler.setLevel(level);
        rootLogger.setLevel(level);
        rootLogger.addHandler(handler);
    }

    static int report(CliEnvironment env, boolean debug, Exception e) {
        PrintWriter err = env.err();
        int code;
        if (e instanceof GantryException g) {
            if (g.problems().isEmpty() || g.code() == ErrorCode.PLAN_REJECTED) {
                for (String line : g.getMessage().split("\n")) {
                    err.println("gantry: error: " + line);
                }
            } else {
                // Validation failures: exactly one FILE:LINE:COL: PATH: message line per problem.
                g.problems().forEach(err::println);
            }
            code = g.code().isUserError() ? USAGE_ERROR : RUNTIME_FAILURE;
        } else {
            err.println("gantry: internal error: " + e + (debug ? "" : " (run with --debug for details)"));
            code = RUNTIME_FAILURE;
        }
        if (debug) {
            StringWriter trace = new StringWriter();
            e.printStackTrace(new PrintWriter(trace));
            err.print(trace);
        }
        err.flush();
        return code;
    }
}
