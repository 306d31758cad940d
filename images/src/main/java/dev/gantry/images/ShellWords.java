package dev.gantry.images;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Writes text as POSIX shell words that the shell reads back unchanged: each value inside single quotes, where the
 * shell expands nothing and every byte, newlines included, is literal. A single quote, the one character that cannot
 * appear inside, closes the quotes, is written escaped and reopens them.
 */
final class ShellWords {
    private ShellWords() {
    }

    static String quoted(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }

    /** A command line: each element of {@code argv} one quoted word, separated by spaces. */
    static String joined(List<String> argv) {
        return argv.stream().map(ShellWords::quoted).collect(Collectors.joining(" "));
    }
}
