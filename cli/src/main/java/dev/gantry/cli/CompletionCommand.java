package dev.gantry.cli;

import java.util.Iterator;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "completion", description = {"Print the shell completion script for bash or zsh: it completes "
        + "commands, options, formats, backend names, run and job ids (asked of gantry as you type) and spec files.",
        "bash: source <(gantry completion bash), or save it as ~/.local/share/bash-completion/completions/gantry. "
                + "zsh: save it as _gantry in a directory of $fpath, or source <(gantry completion zsh) after compinit."})
final class CompletionCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SHELL", completionCandidates = Shells.class,
            description = "bash or zsh.")
    String shell;

    @Override
    public Integer call() {
        if (!Completion.SHELLS.contains(shell)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "SHELL: '" + shell + "' is not supported; "
                    + "choose one of " + String.join(", ", Completion.SHELLS) + " (gantry completion bash)");
        }
        spec.commandLine().getOut().print(Completion.script(shell, CommandTree.everyCommand(spec)));
        spec.commandLine().getOut().flush();
        return Main.OK;
    }

    /** The shells, for completing this command's own argument. */
    static final class Shells implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Completion.SHELLS.iterator();
        }
    }
}
