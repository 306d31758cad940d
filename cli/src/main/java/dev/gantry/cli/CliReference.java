package dev.gantry.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The CLI reference in {@code docs/cli}, rendered from the command model: one Markdown page per command and nested
 * command (synopsis, description, arguments, options with their defaults, an example) and {@code README.md} indexing
 * them with the global options and the completion set-up. A test renders it and compares it with the checked-in
 * files, so the reference cannot go stale; {@code ./gantry __docs docs/cli} writes it.
 */
final class CliReference {
    /** How the pages are regenerated: named in every page and in the test's failure. */
    static final String REGENERATE = "./gantry __docs docs/cli";

    /**
     * One example per command: real invocations against the repository's examples/*.yaml (a test parses every
     * line against the command model and checks the files exist). "$run" and "$job" are ids printed by the lines
     * before them; a retry waits (attach) until the cancelled run's driver has stopped.
     */
    static final Map<String, List<String>> EXAMPLES = Map.ofEntries(
            Map.entry("gantry backends", List.of("gantry backends --output json")),
            Map.entry("gantry validate", List.of("gantry validate examples/quickstart.yaml examples/llm-finetune.yaml")),
            Map.entry("gantry plan", List.of("gantry plan examples/llm-finetune.yaml --spot never --region eastus")),
            Map.entry("gantry run", List.of("gantry run examples/quickstart.yaml",
                    "gantry run examples/local-workflow.yaml --logs")),
            Map.entry("gantry list", List.of("gantry list --all --limit 10")),
            Map.entry("gantry status", List.of("job=$(gantry run examples/quickstart.yaml --detach)",
                    "gantry status \"$job\" --output json")),
            Map.entry("gantry attach", List.of("run=$(gantry run examples/local-workflow.yaml --detach)",
                    "gantry attach \"$run\"")),
            Map.entry("gantry retry", List.of("run=$(gantry run examples/local-workflow.yaml --detach)",
                    "gantry cancel \"$run\"", "gantry attach \"$run\"", "gantry retry \"$run\"")),
            Map.entry("gantry logs", List.of("job=$(gantry run examples/quickstart.yaml --detach)",
                    "gantry logs \"$job\" --follow --stream stdout")),
            Map.entry("gantry cancel", List.of("run=$(gantry run examples/local-workflow.yaml --detach)",
                    "gantry cancel \"$run\"")),
            Map.entry("gantry history", List.of("job=$(gantry run examples/quickstart.yaml --detach)",
                    "gantry history \"$job\"")),
            Map.entry("gantry catalog", List.of("gantry catalog show")),
            Map.entry("gantry catalog show", List.of("gantry catalog show --output json")),
            Map.entry("gantry catalog refresh", List.of("gantry catalog refresh --region eastus --region westus3")),
            Map.entry("gantry vm", List.of("gantry vm list")),
            Map.entry("gantry vm up", List.of("gantry vm up examples/quickstart.yaml --resource-group gantry-rg "
                    + "--count 1")),
            Map.entry("gantry vm list", List.of("gantry vm list --output json")),
            Map.entry("gantry vm down", List.of("gantry vm down --all")),
            Map.entry("gantry doctor", List.of("gantry doctor examples/quickstart.yaml")),
            Map.entry("gantry gc", List.of("gantry gc --backend batch --dry-run", "gantry gc --backend batch")),
            Map.entry("gantry version", List.of("gantry version")),
            Map.entry("gantry completion", List.of("source <(gantry completion bash)")));

    private CliReference() {
    }

    /** Every page by file name, README.md first. */
    static Map<String, String> render(CommandSpec root) {
        Map<String, CommandSpec> commands = new LinkedHashMap<>();
        collect("gantry", root, commands);
        Map<String, String> pages = new LinkedHashMap<>();
        pages.put("README.md", index(root, commands));
        commands.forEach((path, spec) -> {
            if (!path.equals("gantry")) {
                pages.put(fileName(path), page(path, spec));
            }
        });
        return pages;
    }

    static String fileName(String path) {
        return path.equals("gantry") ? "README.md" : path.substring("gantry ".length()).replace(' ', '-') + ".md";
    }

    private static void collect(String path, CommandSpec spec, Map<String, CommandSpec> into) {
        into.put(path, spec);
        for (String name : Completion.visibleSubcommands(spec)) {
            collect(path + " " + name, spec.subcommands().get(name).getCommandSpec(), into);
        }
    }

    private static String header(String title) {
        return "# " + title + "\n\n<!-- Generated from the command model by " + REGENERATE + "; do not edit. -->\n\n";
    }

    private static String index(CommandSpec root, Map<String, CommandSpec> commands) {
        StringBuilder s = new StringBuilder(header("gantry command reference"));
        paragraphs(s, root.usageMessage().description());
        s.append("## Synopsis\n\n```\n").append(synopsis(root)).append("```\n\n");
        s.append("## Commands\n\n| Command | What it does |\n| --- | --- |\n");
        commands.forEach((path, spec) -> {
            if (!path.equals("gantry")) {
                s.append("| [`").append(path).append("`](").append(fileName(path)).append(") | ")
                        .append(cell(firstSentence(spec))).append(" |\n");
            }
        });
        s.append("\n## Global options\n\nEvery command takes these.\n\n");
        optionTable(s, root.options().stream().filter(o -> !o.hidden()).toList());
        s.append("""

                Progress of long waits (`run`, `attach`, `retry`, `vm up`, `catalog refresh`) goes to standard error,
                never to standard output, so `--output json` prints the JSON alone: on a terminal a line redrawn in
                place with the elapsed time, otherwise plain lines that start with the ISO-8601 UTC time (a step that
                waits is repeated at most every 30 seconds). `--quiet` silences it; warnings and errors still print.

                Colour: only `--help` is coloured, and only on a terminal; `NO_COLOR` set to any non-empty value
                (https://no-color.org) turns it off. Progress carries no colour; a live view moves the cursor only
                when standard error is a terminal.

                """);
        for (String line : root.usageMessage().footer()) {
            if (!line.isBlank()) {
                s.append(line).append("\n\n");
            }
        }
        s.append("""
                ## Shell completion

                `gantry completion bash` and `gantry completion zsh` print a completion script made from the same
                command model as these pages: it completes commands (also nested ones, `gantry vm up`), options,
                option values that are known (output formats, Spot policies, log streams), spec files (`.yaml`,
                `.yml`, `.json`) where a command takes a SPEC and any file for FILE options. Backend names and run and
                job ids are asked of `gantry` as you type (a hidden `gantry __complete`, which only reads the state
                database and never creates one), so the script stays right after you install a backend or start a run.

                bash, for the current shell:

                ```sh
                source <(gantry completion bash)
                ```

                bash, for every new shell (bash-completion loads it on first use):

                ```sh
                mkdir -p ~/.local/share/bash-completion/completions
                gantry completion bash > ~/.local/share/bash-completion/completions/gantry
                ```

                zsh: save it as `_gantry` in a directory of `$fpath`, before `compinit` runs in `~/.zshrc`:

                ```sh
                mkdir -p ~/.zfunc
                gantry completion zsh > ~/.zfunc/_gantry
                # in ~/.zshrc, before compinit:
                fpath=(~/.zfunc $fpath)
                autoload -Uz compinit && compinit
                ```

                or, for the current zsh (after `compinit`): `source <(gantry completion zsh)`.

                ## Regenerating these pages

                """);
        s.append("They are generated from the command model; after changing a command, run `").append(REGENERATE)
                .append("` and commit the result. A test (`CliReferenceTest`, part of `./mvnw verify`) fails while "
                        + "they differ from the command model.\n");
        return s.toString();
    }

    private static String page(String path, CommandSpec spec) {
        StringBuilder s = new StringBuilder(header(path));
        paragraphs(s, spec.usageMessage().description());
        s.append("## Synopsis\n\n```\n").append(synopsis(spec)).append("```\n\n");
        List<String> subs = Completion.visibleSubcommands(spec);
        if (!subs.isEmpty()) {
            s.append("## Commands\n\n| Command | What it does |\n| --- | --- |\n");
            for (String name : subs) {
                String sub = path + " " + name;
                s.append("| [`").append(sub).append("`](").append(fileName(sub)).append(") | ")
                        .append(cell(firstSentence(spec.subcommands().get(name).getCommandSpec()))).append(" |\n");
            }
            s.append('\n');
        }
        List<PositionalParamSpec> positionals = spec.positionalParameters().stream().filter(p -> !p.hidden()).toList();
        if (!positionals.isEmpty()) {
            s.append("## Arguments\n\n| Argument | Required | Description |\n| --- | --- | --- |\n");
            for (PositionalParamSpec positional : positionals) {
                String label = positional.paramLabel() + (positional.arity().max() > 1 ? "..." : "");
                s.append("| `").append(cell(label)).append("` | ").append(positional.arity().min() > 0 ? "yes" : "no")
                        .append(" | ").append(cell(description(positional))).append(" |\n");
            }
            s.append('\n');
        }
        List<OptionSpec> own = spec.options().stream()
                .filter(o -> !o.hidden() && o.scopeType() != CommandLine.ScopeType.INHERIT).toList();
        if (!own.isEmpty()) {
            s.append("## Options\n\n");
            optionTable(s, own);
            s.append('\n');
        }
        s.append("Also takes the [global options](README.md#global-options): ")
                .append(String.join(", ", spec.options().stream()
                        .filter(o -> !o.hidden() && o.scopeType() == CommandLine.ScopeType.INHERIT)
                        .map(o -> "`" + o.longestName() + "`").toList()))
                .append(".\n\n");
        List<String> example = EXAMPLES.get(path);
        if (example == null) {
            throw new IllegalStateException("no example for '" + path + "': add one to CliReference.EXAMPLES");
        }
        s.append("## Example\n\n```sh\n");
        example.forEach(line -> s.append(line).append('\n'));
        s.append("```\n");
        return s.toString();
    }

    private static void optionTable(StringBuilder s, List<OptionSpec> options) {
        s.append("| Option | Value | Default | Description |\n| --- | --- | --- | --- |\n");
        for (OptionSpec option : options) {
            List<String> names = new ArrayList<>();
            for (String name : option.names()) {
                names.add("`" + name + "`");
            }
            String value = option.arity().max() == 0 ? "" : "`" + option.paramLabel() + "`";
            String fallback = option.defaultValue() == null || option.arity().max() == 0 ? ""
                    : "`" + option.defaultValue() + "`";
            s.append("| ").append(String.join(", ", names)).append(" | ").append(value).append(" | ")
                    .append(fallback).append(" | ").append(cell(description(option))).append(" |\n");
        }
    }

    /** The description as --help shows it, ${DEFAULT-VALUE} and other variables filled in. */
    private static String description(ArgSpec arg) {
        return String.join(" ", arg.description());
    }

    private static String synopsis(CommandSpec spec) {
        CommandLine.Help help = new CommandLine.Help(spec, CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        return help.synopsis(0);
    }

    private static void paragraphs(StringBuilder s, String[] description) {
        for (String paragraph : description) {
            s.append(paragraph).append("\n\n");
        }
    }

    private static String firstSentence(CommandSpec spec) {
        String[] description = spec.usageMessage().description();
        return description.length == 0 ? "" : description[0];
    }

    /** Text for a table cell: a | would end the cell, even in a code span (GitHub renders \| as |). */
    private static String cell(String text) {
        return text.replace("|", "\\|");
    }
}
