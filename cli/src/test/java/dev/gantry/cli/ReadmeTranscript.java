package dev.gantry.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The commands of a README and the output it shows for each. The convention of examples' READMEs: a fenced block
 * opened with {@code ```console} holds commands, each on a line that starts with {@code "$ "}, each followed by its
 * real output up to the next command or the end of the block; a line {@code ...} stands for lines left out. Blocks of
 * any other language ({@code sh}, {@code yaml}) are not run.
 */
record ReadmeTranscript(List<Command> commands) {
    static final String OPEN = "```console";
    static final String LEFT_OUT = "...";

    /** One command line (without its {@code "$ "}) and the lines of output the README shows, {@code ...} dropped. */
    record Command(String line, List<String> shownOutput) {
    }

    static ReadmeTranscript parse(String markdown) {
        List<Command> commands = new ArrayList<>();
        boolean inBlock = false;
        String command = null;
        List<String> shown = new ArrayList<>();
        for (String line : markdown.split("\n", -1)) {
            if (!inBlock) {
                inBlock = line.strip().equals(OPEN);
                continue;
            }
            if (line.startsWith("```") || line.startsWith("$ ")) {
                if (command != null) {
                    commands.add(new Command(command, List.copyOf(shown)));
                }
                command = line.startsWith("$ ") ? line.substring(2).strip() : null;
                shown.clear();
                inBlock = !line.startsWith("```");
            } else if (command != null && !line.equals(LEFT_OUT)) {
                shown.add(line);
            }
        }
        return new ReadmeTranscript(List.copyOf(commands));
    }
}
