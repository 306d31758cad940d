package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The completion scripts in the real shells: bash runs its completion function as bash's completion would (the
 * words in COMP_WORDS, the function filling COMPREPLY); zsh checks the script's syntax, and an interactive zsh on a
 * pseudo-terminal (zsh/zpty) with compinit loads the script, is typed a line and TAB, and prints the line as
 * completion left it. The call-backs run a real gantry JVM.
 */
class CompletionTest {
    @TempDir
    Path home;
    @TempDir
    Path work;

    Path bashScript;
    Path zshScript;

    @BeforeEach
    void scripts() throws IOException {
        CliRun bash = CliRun.run(home, work, "completion", "bash");
        assertEquals(0, bash.exitCode, bash.toString());
        bashScript = Files.writeString(work.resolve("gantry.bash"), bash.out);
        CliRun zsh = CliRun.run(home, work, "completion", "zsh");
        assertEquals(0, zsh.exitCode, zsh.toString());
        zshScript = Files.writeString(work.resolve("_gantry"), zsh.out);
        Files.createDirectories(work.resolve("specs"));
        for (String name : List.of("train.yaml", "serve.yml", "flow.json", "notes.txt")) {
            Files.writeString(work.resolve("specs").resolve(name), "");
        }
    }

    @Test
    void bashCompletesCommandsNestedCommandsOptionsAndFormats() throws Exception {
        assertEquals(List.of("plan"), bash("gantry", "pl"));
        assertEquals(List.of("up", "list", "down"), bash("gantry", "vm", ""));
        assertEquals(List.of("show", "refresh"), bash("gantry", "--debug", "catalog", ""));
        assertEquals(List.of("--output"), bash("gantry", "plan", "--out"));
        assertEquals(List.of("table", "json"), bash("gantry", "plan", "--output", ""));
        assertEquals(List.of("json"), bash("gantry", "plan", "--output", "=", "j"), "bash splits --output=j at '='");
        assertEquals(List.of("never", "allowed", "preferred"), bash("gantry", "plan", "--spot", ""));
        assertEquals(List.of("bash", "zsh"), bash("gantry", "completion", ""));
        assertTrue(bash("gantry", "vm", "up", "--").containsAll(List.of("--resource-group", "--wait-timeout",
                "--quiet", "--output")), "options of the nested command and the inherited ones");
        assertFalse(bash("gantry", "run", "--").contains("--timeout"), "hidden options are left out");
        assertFalse(bash("gantry", "").contains("__complete"), "hidden commands are left out");
    }

    @Test
    void bashOffersSpecFilesForSpecArgumentsAndAnyFileForFileOptions() throws Exception {
        assertEquals(List.of("specs/flow.json", "specs/serve.yml", "specs/train.yaml"),
                sorted(bash("gantry", "plan", "specs/")));
        assertEquals(List.of("specs/flow.json", "specs/serve.yml", "specs/train.yaml"),
                sorted(bash("gantry", "--quiet", "vm", "up", "--count", "2", "specs/")),
                "an option's value is not taken for the positional");
        assertEquals(List.of("specs"), bash("gantry", "run", "sp"), "directories, to go into");
        assertEquals(List.of("specs/flow.json", "specs/notes.txt", "specs/serve.yml", "specs/train.yaml"),
                sorted(bash("gantry", "plan", "--catalog", "specs/")));
    }

    @Test
    void bashAsksGantryForBackendNamesAndIds() throws Exception {
        Files.writeString(work.resolve("hello.yaml"), String.join("\n",
                "apiVersion: gantry.dev/v1",
                "kind: Workload",
                "metadata: {name: hello}",
                "spec: {phase: training, model: small, resources: {vcpus: 1, memoryGib: 1}, command: [echo, hi]}",
                ""));
        CliRun run = CliRun.run(home, work, "run", "hello.yaml", "--output", "json");
        assertEquals(0, run.exitCode, run.toString());
        String job = Json.MAPPER.readTree(run.out).get("id").asText();
        Path gantry = launcher();

        assertEquals(List.of("manual"), bash(gantry.toString(), "--backend", "ma"));
        assertEquals(List.of(job), bash(gantry.toString(), "status", "hel"));
    }

    @Test
    void theCallBackListsNothingAndCreatesNoStateWhereThereIsNone() {
        CliRun ids = CliRun.run(home, work, "__complete", "runs", "jobs");

        assertEquals(0, ids.exitCode, ids.toString());
        assertEquals("", ids.out);
        assertEquals("", ids.err);
        assertFalse(Files.exists(home.resolve("state").resolve("state.db")), "looking created a state database");
        CliRun unknown = CliRun.run(home, work, "__complete", "hosts");
        assertEquals(2, unknown.exitCode);
        assertEquals("", unknown.out + unknown.err, "silent, even on a bad request");
    }

    @Test
    void anUnknownShellIsAUsageErrorNamingTheShellsThereAre() {
        CliRun fish = CliRun.run(home, work, "completion", "fish");

        assertEquals(2, fish.exitCode, fish.toString());
        assertEquals("", fish.out);
        assertTrue(fish.err.startsWith("gantry: error: SHELL: 'fish' is not supported; choose one of bash, zsh"),
                fish.err);
    }

    @Test
    void zshLoadsTheScriptAndItsFunctionOffersWhatBashDoes() throws Exception {
        Process check = new ProcessBuilder("zsh", "-n", zshScript.toString()).redirectErrorStream(true).start();
        String syntax = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(check.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, check.exitValue(), "zsh -n: " + syntax);

        String harness = String.join("\n",
                "autoload -Uz compinit && compinit -u -d " + work.resolve(".zcompdump"),
                "source " + zshScript,
                "print -r -- \"compdef: $_comps[gantry]\"",
                "compadd() { [[ $1 == -- ]] && shift; print -r -- \"compadd: $*\"; }",
                "_files() { print -r -- \"_files: $*\"; }",
                "_path_files() { print -r -- \"_path_files: $*\"; }",
                "t() { words=(\"$@\"); CURRENT=${#words}; _gantry; }",
                "t gantry pl",
                "t gantry vm ''",
                "t gantry plan --out",
                "t gantry plan --output ''",
                "t gantry plan ''",
                "t gantry plan --catalog ''",
                "");
        List<String> lines = shell("zsh", "-f", "-c", harness);
        assertEquals("compdef: _gantry", lines.get(0), "loading the script registers _gantry for gantry");
        assertTrue(lines.get(1).startsWith("compadd: backends validate plan "), lines.toString());
        assertEquals("compadd: up list down", lines.get(2));
        assertTrue(lines.get(3).startsWith("compadd: --output -o --region"), lines.toString());
        assertEquals("compadd: table json", lines.get(4));
        assertEquals("_path_files: -g *.(yaml|yml|json)", lines.get(5));
        assertEquals("_path_files: -/", lines.get(6));
        assertEquals("_files: ", lines.get(7));
        assertEquals(8, lines.size(), lines.toString());
    }

    @Test
    void anInteractiveZshCompletesWhatIsTypedWithTab() throws Exception {
        List<String> typed = List.of("gantry pl", "gantry vm u", "gantry --quiet catalog re", "gantry plan --outp",
                "gantry plan --output j", "gantry plan specs/tr", "gantry plan specs/no", "gantry plan --catalog specs/no");
        StringBuilder keys = new StringBuilder();
        for (String line : typed) {
            // TAB completes; then the line, as completion left it, is printed: Ctrl-A puts the print in front of it.
            keys.append("zpty -w -n z ").append(quote(line)).append("$'\\t\\C-aprint -r -- LINE:\\n'\n");
        }
        String harness = String.join("\n",
                "zmodload zsh/zpty",
                "zpty z zsh -f -i",
                "zpty -w z 'PS1=\"%% \"; autoload -Uz compinit; compinit -u -d " + work.resolve(".zcompdump-i")
                        + "; source " + zshScript + "'",
                keys.toString(),
                "zpty -w z 'print -r -- DONE'",
                "out=''",
                "for i in {1..300}; do",
                "  while zpty -r -t z chunk; do out+=$chunk; done",
                "  [[ $out == *$'\\nDONE'* ]] && break",
                "  sleep 0.2",
                "done",
                "zpty -d z",
                "print -r -- \"${out//$'\\r'/}\"",
                "");
        List<String> completed = shell("zsh", "-f", "-c", harness).stream().filter(l -> l.startsWith("LINE:"))
                .map(l -> l.substring("LINE:".length()).stripTrailing()).toList();

        assertEquals(List.of("gantry plan", "gantry vm up", "gantry --quiet catalog refresh", "gantry plan --output",
                "gantry plan --output json", "gantry plan specs/train.yaml", "gantry plan specs/no",
                "gantry plan --catalog specs/notes.txt"), completed,
                "a SPEC is offered spec files only, a FILE option any file");
    }

    private static String quote(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }

    /** What bash's completion offers for the words, the last one being completed, in the work directory. */
    private List<String> bash(String... words) throws Exception {
        StringBuilder array = new StringBuilder();
        for (String word : words) {
            array.append(" '").append(word.replace("'", "'\\''")).append('\'');
        }
        String harness = String.join("\n",
                "source " + bashScript,
                "COMP_WORDS=(" + array + ")",
                "COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))",
                "COMP_LINE=\"${COMP_WORDS[*]}\"",
                "COMP_POINT=${#COMP_LINE}",
                "_gantry",
                "for reply in \"${COMPREPLY[@]}\"; do printf '%s\\n' \"$reply\"; done",
                "");
        return shell("bash", "--norc", "--noprofile", "-c", harness);
    }

    private List<String> shell(String... command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).directory(work.toFile());
        builder.environment().put("HOME", home.toString());
        builder.environment().put("GANTRY_STATE_DIR", home.resolve("state").toString());
        builder.environment().keySet().removeIf(k -> k.startsWith("GANTRY_") && !k.equals("GANTRY_STATE_DIR"));
        Process process = builder.start();
        byte[] out = process.getInputStream().readAllBytes();
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the shell did not finish");
        assertEquals(0, process.exitValue(), String.join(" ", command) + ": " + err);
        assertEquals("", err, "the completion printed on standard error");
        List<String> lines = new ArrayList<>();
        new String(out, StandardCharsets.UTF_8).lines().forEach(lines::add);
        return lines;
    }

    /** A gantry command for the call-backs: this test's class path in a JVM of its own. */
    private Path launcher() throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> classPath = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        Path script = work.resolve("gantry-under-test");
        Files.writeString(script, "#!/bin/sh\nexec '" + java + "' -cp '" + String.join(File.pathSeparator, classPath)
                + "' dev.gantry.cli.Main \"$@\"\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    private static List<String> sorted(List<String> list) {
        List<String> copy = new ArrayList<>(list);
        copy.sort(null);
        return copy;
    }
}
