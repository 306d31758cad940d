package dev.gantry.backend.batch.internal.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.azure.batch.protocol.models.EnvironmentSetting;
import dev.gantry.api.Checkpoint;
import dev.gantry.api.ModelClass;
import dev.gantry.api.NodeBoot;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Secret;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.testing.GoldenFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LauncherTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden/launcher");
    /** Values a shell would change if any reached it as code: each must arrive byte for byte. */
    static final List<String> HOSTILE = List.of("$HOME", "${PATH}", "a'b", "a\"b", "back\\slash", "line1\nline2",
            "trailing newline\n", "two trailing\n\n", " spaced  out ", "\ttab", "*", "?", "[a-z]*", "-n", "-e", "--",
            "-", "$(echo pwned)", "`echo pwned`", "x;y", "a|b", "&", "~", "é ünïcödé", "", "%s%d", "100%", "'", "\"");
    /** Prints each argument, then each H_i variable, every one followed by a NUL. */
    private static final String DUMP = "for a in \"$@\"; do printf '%s\\000' \"$a\"; done; printf 'ENV\\000';"
            + " i=0; while [ $i -lt " + HOSTILE.size() + " ]; do eval \"printf '%s\\000' \\\"\\$H_$i\\\"\";"
            + " i=$((i + 1)); done";

    @TempDir
    Path dir;

    @Test
    void theCommandLineIsFixed() {
        GOLDEN.assertMatches("launcher.txt", Launcher.COMMAND_LINE + "\n");
        GOLDEN.assertMatches("coordination.txt", CoordinationCommand.COORDINATION_LINE + "\n");
        GOLDEN.assertMatches("application.txt", CoordinationCommand.APPLICATION_LINE + "\n");
        GOLDEN.assertMatches("start-task.txt", PoolBody.START_COMMAND + "\n");
        for (String line : List.of(Launcher.COMMAND_LINE, CoordinationCommand.COORDINATION_LINE,
                CoordinationCommand.APPLICATION_LINE, PoolBody.START_COMMAND)) {
            Shells.body(line);
        }
    }

    @Test
    void hostileArgumentsAndVariablesArriveByteForByte() throws Exception {
        List<String> argv = new ArrayList<>(List.of("sh", "-c", DUMP, "dump"));
        argv.addAll(HOSTILE);
        Workload.Builder builder = workload(argv);
        for (int i = 0; i < HOSTILE.size(); i++) {
            builder.env("H_" + i, HOSTILE.get(i));
        }
        List<EnvironmentSetting> env = settings(builder.build());
        List<String> expected = new ArrayList<>(HOSTILE);
        expected.add("ENV");
        expected.addAll(HOSTILE);
        for (List<String> shell : Shells.available()) {
            Shells.Run run = Shells.run(shell, Shells.body(Launcher.COMMAND_LINE), env, Map.of(), dir);
            assertEquals(0, run.exit(), shell + ": " + run.stderr());
            assertEquals(expected, Shells.fields(run.stdout()), shell.toString());
        }
    }

    @Test
    void aMissingProgramExits127NamingItAsTheManualBackendDoes() throws Exception {
        for (String program : List.of("gantry-no-such-command", "/no/such/dir/prog", "-weird name")) {
            List<EnvironmentSetting> env = settings(workload(List.of(program, "x")).build());
            for (List<String> shell : Shells.available()) {
                Shells.Run run = Shells.run(shell, Shells.body(Launcher.COMMAND_LINE), env, Map.of(), dir);
                assertEquals(127, run.exit(), shell.toString());
                assertEquals("gantry: command not found: " + program + "\n", run.stderr(), shell.toString());
            }
        }
    }

    @Test
    void theWorkingDirectoryContractNamesAndSecretsAreInPlace() throws Exception {
        Path work = Files.createDirectories(dir.resolve("work dir $x 'q'"));
        String print = "printf '%s|' \"$(pwd)\" \"$RANK\" \"$NODE_RANK\" \"$GANTRY_NODE_RANK\" \"$MASTER_ADDR\""
                + " \"$WORLD_SIZE\" \"${GANTRY_ARGC-unset}\" \"${GANTRY_ARG_0-unset}\" \"${GANTRY_WORKDIR-unset}\""
                + " \"$TOKEN\" \"$OTHER\"";
        Workload workload = workload(List.of("sh", "-c", print)).workingDir(work.toString()).build();
        List<EnvironmentSetting> env = settings(workload);
        Map<String, Secret> secrets = new LinkedHashMap<>();
        secrets.put("TOKEN", new Secret("s3cr'et\n$HOME `x` \\n"));
        secrets.put("OTHER", new Secret(""));
        for (List<String> shell : Shells.available()) {
            Path secretsFile = dir.resolve(Launcher.SECRETS_FILE);
            Files.writeString(secretsFile, SecretsFile.render(secrets), StandardCharsets.UTF_8);
            Shells.Run run = Shells.run(shell, Shells.body(Launcher.COMMAND_LINE), env,
                    Map.of("AZ_BATCH_TASK_WORKING_DIR", dir.toString()), dir);
            assertEquals(0, run.exit(), shell + ": " + run.stderr());
            assertEquals(work + "|0|0|0|127.0.0.1|1|unset|unset|unset|s3cr'et\n$HOME `x` \\n||", run.out(),
                    shell.toString());
            assertFalse(Files.exists(secretsFile), "the launcher deletes the secrets file once loaded");
        }
    }

    @Test
    void theStartTaskRunsTheBootScriptAndFailsWithIt() throws Exception {
        String script = "#!/bin/sh\nset -eu\necho 'booted' \"$0\"\nexit \"${BOOT_EXIT:-0}\"\n";
        List<EnvironmentSetting> env = PoolBody.startTask(script).environmentSettings();
        for (List<String> shell : Shells.available()) {
            Shells.Run ok = Shells.run(shell, Shells.body(PoolBody.START_COMMAND), env, Map.of(), dir);
            assertEquals(0, ok.exit(), ok.stderr());
            assertEquals("booted ./gantry-boot.sh\n", ok.out());
            assertEquals(script, Files.readString(dir.resolve("gantry-boot.sh")), "left on the node as it was given");
            Shells.Run failed = Shells.run(shell, Shells.body(PoolBody.START_COMMAND), env, Map.of("BOOT_EXIT", "4"),
                    dir);
            assertEquals(4, failed.exit(), "a failing boot fails the start task, which waitForSuccess holds to");
        }
    }

    @Test
    void aWorkingDirectoryThatIsNotThereFailsNamingIt() throws Exception {
        List<EnvironmentSetting> env = settings(workload(List.of("true")).workingDir("/no/such/dir").build());
        Shells.Run run = Shells.run(List.of("/bin/sh"), Shells.body(Launcher.COMMAND_LINE), env, Map.of(), dir);
        assertEquals(1, run.exit());
        assertTrue(run.stderr().contains("gantry: cannot enter the working directory /no/such/dir"), run.stderr());
    }

    @Test
    void aRerunOfTheTaskResumesFromItsCheckpointDirectoryAndAFirstRunDoesNot() throws Exception {
        Path checkpoints = dir.resolve("check points $x");
        Workload workload = workload(List.of("sh", "-c", "printf %s \"$GANTRY_RESUME\""))
                .checkpoint(new Checkpoint(checkpoints.toString(), Duration.ofMinutes(5))).build();
        List<EnvironmentSetting> env = settings(workload);
        Map<String, String> task = Map.of("AZ_BATCH_JOB_ID", "gantry-d2s", "AZ_BATCH_TASK_ID", "t-1");
        for (List<String> shell : Shells.available()) {
            Files.createDirectories(checkpoints);
            try (var files = Files.list(checkpoints)) {
                for (Path file : files.toList()) {
                    Files.delete(file);
                }
            }
            assertEquals("0", launch(shell, env, task).out(), shell + ": the task's first run starts afresh");
            assertTrue(Files.exists(checkpoints.resolve(Launcher.RUN_MARKER_PREFIX + "gantry-d2s-t-1-0")),
                    "the first run leaves its mark in the checkpoint directory");
            assertEquals("1", launch(shell, env, task).out(), shell + ": Batch's rerun of the same task resumes");
            assertEquals("0", launch(shell, env, Map.of("AZ_BATCH_JOB_ID", "gantry-d2s", "AZ_BATCH_TASK_ID", "t-2"))
                    .out(), shell + ": another task's first run does not");
        }
        Files.delete(checkpoints.resolve(Launcher.RUN_MARKER_PREFIX + "gantry-d2s-t-1-0"));
        Files.delete(checkpoints.resolve(Launcher.RUN_MARKER_PREFIX + "gantry-d2s-t-2-0"));
        Files.delete(checkpoints);
        assertEquals("0", launch(List.of("/bin/sh"), env, task).out(), "a missing checkpoint directory is made");
        assertTrue(Files.isDirectory(checkpoints));

        List<EnvironmentSetting> resumed = settings(workload, SubmitOptions.withKey("launcher-test").attempt(2)
                .resuming(true));
        Path fresh = Files.createDirectories(dir.resolve("fresh"));
        assertEquals("1", Shells.run(List.of("/bin/sh"), Shells.body(Launcher.COMMAND_LINE), resumed, task, fresh)
                .out(), "Gantry's own resubmit says resume already");
        List<EnvironmentSetting> none = settings(workload(List.of("sh", "-c", "printf %s \"$GANTRY_RESUME\"")).build());
        Path noCheckpoint = Files.createDirectories(dir.resolve("none"));
        assertEquals("0", Shells.run(List.of("/bin/sh"), Shells.body(Launcher.COMMAND_LINE), none, task, noCheckpoint)
                .out(), "without a checkpoint there is nothing to resume from");
    }

    private Shells.Run launch(List<String> shell, List<EnvironmentSetting> env, Map<String, String> task)
            throws Exception {
        Shells.Run run = Shells.run(shell, Shells.body(Launcher.COMMAND_LINE), env, task, dir);
        assertEquals(0, run.exit(), shell + ": " + run.stderr());
        return run;
    }

    static Workload.Builder workload(List<String> argv) {
        return Workload.builder("launcher").phase(Phase.INFERENCE).model(ModelClass.SMALL).command(argv);
    }

    static List<EnvironmentSetting> settings(Workload workload) {
        return settings(workload, SubmitOptions.withKey("launcher-test"));
    }

    static List<EnvironmentSetting> settings(Workload workload, SubmitOptions options) {
        Plan plan = Plan.builder(workload, ExamplePlans.D2).region("eastus").image(ExamplePlans.UBUNTU)
                .boot(new NodeBoot(Optional.empty(), Optional.of(ExamplePlans.NODE_AGENT))).build();
        return assertInstanceOf(TaskBody.Ready.class, TaskBody.render(new TaskBody.Input(plan,
                options, "mlbatch", "gantry-d2s-v5-0123456789ab", 29500,
                Duration.ofDays(7), List.of(), Optional.empty()))).task().environmentSettings();
    }
}
