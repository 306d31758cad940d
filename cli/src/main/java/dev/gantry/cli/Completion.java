package dev.gantry.cli;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Writes the bash and zsh completion scripts from the picocli command model, so that they know every command, option
 * and positional the CLI has and cannot drift from it (hidden ones are left out).
 *
 * <p>Both scripts share one body in the shell language bash and zsh have in common: tables of the commands'
 * subcommands, options and what each option value or positional is ({@code case} statements), and
 * {@code _gantry_what}, which walks the words typed so far and prints what the word under the cursor may be:
 * {@code words W1 W2...} (fixed words, or ids and backend names asked of {@code gantry __complete}), {@code files} or
 * {@code specs} (files ending .yaml, .yml or .json, and directories). Each shell's own small function turns that into
 * its completions. Names that depend on the installation or the state (backends, run and job ids) are asked of the
 * {@code gantry} being completed at the time, so a script generated once stays right.
 */
final class Completion {
    static final List<String> SHELLS = List.of("bash", "zsh");

    private Completion() {
    }

    static String script(String shell, CommandSpec root) {
        return switch (shell) {
            case "bash" -> bash(root);
            case "zsh" -> zsh(root);
            default -> throw new IllegalArgumentException(shell);
        };
    }

    static String bash(CommandSpec root) {
        return "# bash completion for gantry, written by 'gantry completion bash' from the command model.\n"
                + "# Load it with: source <(gantry completion bash)\n"
                + common(root)
                + """
                _gantry() {
                    local cur="${COMP_WORDS[COMP_CWORD]}" what f
                    what=$(_gantry_what "$COMP_CWORD" "${COMP_WORDS[@]}")
                    COMPREPLY=()
                    case "${what%% *}" in
                        (words) COMPREPLY=($(compgen -W "${what#words}" -- "$cur")) ;;
                        (files)
                            compopt -o filenames 2>/dev/null
                            COMPREPLY=($(compgen -f -- "$cur")) ;;
                        (specs)
                            compopt -o filenames 2>/dev/null
                            while IFS= read -r f; do
                                if [[ -d $f || $f == *.yaml || $f == *.yml || $f == *.json ]]; then
                                    COMPREPLY+=("$f")
                                fi
                            done < <(compgen -f -- "$cur") ;;
                    esac
                }
                complete -F _gantry gantry ./gantry
                """;
    }

    static String zsh(CommandSpec root) {
        return "#compdef gantry\n"
                + "# zsh completion for gantry, written by 'gantry completion zsh' from the command model.\n"
                + "# Install it as _gantry in a directory of $fpath, or load it with: source <(gantry completion zsh)\n"
                + common(root)
                + """
                _gantry() {
                    local what
                    what=$(_gantry_what "$((CURRENT - 1))" "${words[@]}")
                    case "${what%% *}" in
                        (words) compadd -- ${=${what#words}} ;;
                        (files) _files ;;
                        # Not _files -g: when no spec file matches it falls back to every file.
                        (specs) _path_files -g '*.(yaml|yml|json)'; _path_files -/ ;;
                    esac
                }
                if [ "$funcstack[1]" = "_gantry" ]; then
                    _gantry "$@"
                else
                    compdef _gantry gantry ./gantry
                fi
                """;
    }

    /** The tables and the walk over the typed words, valid in bash and in zsh. */
    private static String common(CommandSpec root) {
        Map<String, CommandSpec> commands = new LinkedHashMap<>();
        collect("gantry", root, commands);
        StringBuilder s = new StringBuilder();
        s.append("\n# The subcommands of each command.\n_gantry_subcommands() {\n    case \"$1\" in\n");
        commands.forEach((path, spec) -> {
            List<String> subs = visibleSubcommands(spec);
            if (!subs.isEmpty()) {
                s.append("        (").append(quote(path)).append(") echo ").append(String.join(" ", subs))
                        .append(" ;;\n");
            }
        });
        s.append("    esac\n}\n");

        s.append("\n# The options of each command.\n_gantry_options() {\n    case \"$1\" in\n");
        commands.forEach((path, spec) -> s.append("        (").append(quote(path)).append(") echo ")
                .append(String.join(" ", optionNames(spec))).append(" ;;\n"));
        s.append("    esac\n}\n");

        s.append("\n# What the value of an option is (\"COMMAND|OPTION\"); fails for an option that takes none.\n")
                .append("_gantry_value() {\n    case \"$1|$2\" in\n");
        Map<String, Set<String>> byKind = new LinkedHashMap<>();
        commands.forEach((path, spec) -> {
            for (OptionSpec option : spec.options()) {
                if (option.hidden() || option.arity().max() == 0) {
                    continue;
                }
                // An inherited option is the same everywhere: one pattern for every command.
                String owner = option.scopeType() == CommandLine.ScopeType.INHERIT ? "*" : quote(path);
                Set<String> patterns = byKind.computeIfAbsent(kind(option), k -> new LinkedHashSet<>());
                for (String name : option.names()) {
                    patterns.add(owner + "'|" + name + "'");
                }
            }
        });
        byKind.forEach((kind, patterns) -> s.append("        (").append(String.join("|", patterns)).append(") ")
                .append(kind.isEmpty() ? "echo none" : "echo " + kind).append(" ;;\n"));
        s.append("        (*) return 1 ;;\n    esac\n}\n");

        s.append("\n# What a positional argument is (\"COMMAND|INDEX\").\n_gantry_positional() {\n    case \"$1|$2\" in\n");
        commands.forEach((path, spec) -> {
            for (PositionalParamSpec positional : spec.positionalParameters()) {
                if (positional.hidden()) {
                    continue;
                }
                String kind = kind(positional);
                if (kind.isEmpty()) {
                    continue;
                }
                CommandLine.Range index = positional.index();
                String pattern;
                if (index.isUnspecified() || index.max() == Integer.MAX_VALUE || positional.arity().max() > 1) {
                    pattern = quote(path + "|") + "*";
                } else {
                    List<String> indexes = new ArrayList<>();
                    for (int i = index.min(); i <= index.max(); i++) {
                        indexes.add(quote(path + "|" + i));
                    }
                    pattern = String.join("|", indexes);
                }
                s.append("        (").append(pattern).append(") echo ").append(kind).append(" ;;\n");
            }
        });
        s.append("    esac\n}\n");
        s.append("""

                # Names only the installation or the state knows, asked of the gantry being completed; silent on errors.
                # $1: the program, $2: the --config given on the line (or empty), then what to list.
                _gantry_call() {
                    local program="$1" config="$2"
                    shift 2
                    if [ -n "$config" ]; then
                        "$program" --config "$config" __complete "$@" 2>/dev/null
                    else
                        "$program" __complete "$@" 2>/dev/null
                    fi
                }

                # What the word under the cursor may be. $1: its index among the words, then the words, the program
                # first. Prints "words W1 W2 ...", "files" or "specs", or nothing.
                _gantry_what() {
                    local current="$1" i=0 command=gantry position=0 option="" config="" word="" w kind
                    shift
                    for w in "$@"; do
                        if [ "$i" -eq "$current" ]; then
                            word="$w"
                            break
                        fi
                        if [ "$i" -gt 0 ]; then
                            if [ -n "$option" ]; then
                                # bash splits --option=value at the '=' into three words.
                                if [ "$w" != "=" ]; then
                                    [ "$option" = "--config" ] && config="$w"
                                    option=""
                                fi
                            else
                                case "$w" in
                                    (-*=*) ;;
                                    (-*) _gantry_value "$command" "$w" >/dev/null && option="$w" ;;
                                    (*)
                                        case " $(_gantry_subcommands "$command") " in
                                            (*" $w "*) command="$command $w"; position=0 ;;
                                            (*) position=$((position + 1)) ;;
                                        esac ;;
                                esac
                            fi
                        fi
                        i=$((i + 1))
                    done
                    if [ -n "$option" ]; then
                        kind=$(_gantry_value "$command" "$option")
                    else
                        case "$word" in
                            (-*) echo "words $(_gantry_options "$command")"; return ;;
                        esac
                        kind=$(_gantry_subcommands "$command")
                        if [ -n "$kind" ]; then
                            echo "words $kind"
                            return
                        fi
                        kind=$(_gantry_positional "$command" "$position")
                    fi
                    case "$kind" in
                        (call\\ *) echo "words" $(_gantry_call "$1" "$config" $(echo "${kind#call }")) ;;
                        (none|"") ;;
                        (*) echo "$kind" ;;
                    esac
                }
                """);
        return s.toString();
    }

    private static void collect(String path, CommandSpec spec, Map<String, CommandSpec> into) {
        into.put(path, spec);
        for (String name : visibleSubcommands(spec)) {
            collect(path + " " + name, spec.subcommands().get(name).getCommandSpec(), into);
        }
    }

    /** The subcommands a person is shown, by their names (aliases left out), hidden ones excluded. */
    static List<String> visibleSubcommands(CommandSpec spec) {
        List<String> names = new ArrayList<>();
        spec.subcommands().forEach((name, sub) -> {
            CommandSpec subSpec = sub.getCommandSpec();
            if (!subSpec.usageMessage().hidden() && subSpec.name().equals(name)) {
                names.add(name);
            }
        });
        return names;
    }

    private static List<String> optionNames(CommandSpec spec) {
        List<String> names = new ArrayList<>();
        for (OptionSpec option : spec.options()) {
            if (!option.hidden()) {
                // Long names first: what a person completes after "--".
                List<String> sorted = new ArrayList<>(List.of(option.names()));
                sorted.sort((a, b) -> Integer.compare(b.length(), a.length()));
                names.addAll(sorted);
            }
        }
        return names;
    }

    /**
     * What a value is, as the scripts know it: "words W..." (an enum's constants or an option's completion
     * candidates), "call backends|runs|jobs..." (asked of gantry), "specs", "files", or "" (anything: nothing to
     * offer).
     */
    static String kind(ArgSpec arg) {
        String label = arg.paramLabel();
        if (arg instanceof OptionSpec option && option.longestName().equals("--backend")) {
            return "call backends";
        }
        switch (label) {
            case "RUN|JOB":
                return "call runs jobs";
            case "RUN":
                return "call runs";
            case "JOB":
                return "call jobs";
            case "SPEC":
                return "specs";
            default:
                break;
        }
        Class<?> type = arg.auxiliaryTypes().length > 0 ? arg.auxiliaryTypes()[0] : arg.type();
        if (Path.class.isAssignableFrom(type) || File.class.isAssignableFrom(type) || label.equals("FILE")) {
            return "files";
        }
        if (arg.completionCandidates() != null) {
            List<String> words = new ArrayList<>();
            arg.completionCandidates().forEach(word -> words.add(word.toLowerCase(Locale.ROOT)));
            if (!words.isEmpty()) {
                return "words " + String.join(" ", words);
            }
        }
        return "";
    }

    /** A case pattern that matches the text as it is (command paths have spaces). */
    private static String quote(String text) {
        return "'" + text + "'";
    }

    /** Every command path the scripts know, for tests and the reference: "gantry", "gantry vm", "gantry vm up". */
    static List<String> commandPaths(CommandSpec root) {
        Map<String, CommandSpec> commands = new LinkedHashMap<>();
        collect("gantry", root, commands);
        return commands.keySet().stream().collect(Collectors.toList());
    }
}
