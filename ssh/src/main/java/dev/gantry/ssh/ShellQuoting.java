package dev.gantry.ssh;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns an argv into one POSIX shell command line such that {@code sh -c LINE} runs argv[0] with every other element
 * arriving verbatim as one argument. SSH hands a command to the remote user's login shell as a single string, so this
 * is the only way user values reach a remote host. Works for sh, dash, bash, ksh and zsh (not fish or csh).
 */
public final class ShellQuoting {

    /** Words made only of these characters mean the same to every POSIX shell when left bare. */
    private static final Pattern BARE = Pattern.compile("[A-Za-z0-9_@%+:,./-]+");

    /** Bare, these would be keywords rather than a command name or argument. */
    private static final Set<String> RESERVED = Set.of("case", "coproc", "do", "done", "elif", "else", "esac", "fi",
            "for", "function", "if", "in", "select", "then", "time", "until", "while");

    private ShellQuoting() {
    }

    /**
     * One argument as a shell word: left bare when that is unambiguous, else in single quotes, inside which nothing
     * is special; a single quote itself becomes {@code '\''} (end quote, escaped quote, reopen).
     *
     * @throws GantryException SPEC_INVALID for a NUL character, which no process argument can carry
     */
    public static String quote(String argument) {
        if (argument.indexOf('\0') >= 0) {
            throw new GantryException(ErrorCode.SPEC_INVALID, "a command argument contains a NUL character at index "
                    + argument.indexOf('\0') + "; no process argument can carry one, remove it");
        }
        if (BARE.matcher(argument).matches() && !RESERVED.contains(argument)) {
            return argument;
        }
        return "'" + argument.replace("'", "'\\''") + "'";
    }

    /** The argv as one command line: each element quoted, separated by single spaces. */
    public static String command(List<String> argv) {
        if (argv.isEmpty()) {
            throw new GantryException(ErrorCode.SPEC_INVALID,
                    "a command needs at least the program to run; argv is empty");
        }
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < argv.size(); i++) {
            String argument = argv.get(i);
            if (argument == null) {
                throw new GantryException(ErrorCode.SPEC_INVALID, "argv[" + i + "] is null; give a string");
            }
            if (i > 0) {
                line.append(' ');
            }
            try {
                line.append(quote(argument));
            } catch (GantryException e) {
                throw new GantryException(e.code(), "argv[" + i + "]: " + e.getMessage());
            }
        }
        return line.toString();
    }
}
