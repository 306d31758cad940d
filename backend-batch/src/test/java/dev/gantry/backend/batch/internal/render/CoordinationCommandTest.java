package dev.gantry.backend.batch.internal.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.azure.batch.protocol.models.EnvironmentSetting;
import com.microsoft.azure.batch.protocol.models.TaskAddParameter;
import dev.gantry.api.NodeBoot;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.backend.SubmitOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two nodes of a multi-instance task played on this machine: each "node" has its own shared directory; the other
 * node's address is this machine's own, as each shell's {@code hostname} gives it, and the master's one it does not
 * have. The commands run as Batch runs them.
 */
class CoordinationCommandTest {
    private static final String MASTER = "10.1.0.4";
    /** Each rank says who it is and where it meets the others, then exits with 3 times its rank. */
    private static final String PROGRAM = "printf '%s %s %s %s %s' \"$RANK\" \"$NODE_RANK\" \"$GANTRY_NODE_RANK\""
            + " \"$MASTER_ADDR\" \"$WORLD_SIZE\"; exit $((RANK * 3))";

    @TempDir
    Path dir;

    @Test
    void ranksAreNumberedByTheHostListAndTheFailingRankIsNamed() throws Exception {
        TaskAddParameter task = twoNodeTask();
        assertEquals(CoordinationCommand.APPLICATION_LINE, task.commandLine());
        String coordination = Shells.body(task.multiInstanceSettings().coordinationCommandLine());
        for (List<String> shell : Shells.available()) {
            Path master = Files.createDirectories(dir.resolve(shell.size() + "-" + shell.get(0).hashCode() + "-m"));
            Path other = Files.createDirectories(dir.resolve(shell.size() + "-" + shell.get(0).hashCode() + "-o"));
            // The other node runs its rank to the end: its subtask's exit code is the rank's.
            String address = address(shell);
            Shells.Run rank1 = Shells.run(shell, coordination, task.environmentSettings(), node(other, false, address),
                    other);
            assertEquals(3, rank1.exit(), shell.toString());
            assertTrue(rank1.stderr().contains("gantry: rank 1 exited with code 3"), rank1.stderr());
            assertEquals("1 1 1 " + MASTER + " 2", Files.readString(other.resolve("rank-1.stdout")));
            assertEquals("3\n", Files.readString(other.resolve("rank-1.exit")));

            // The master returns at once; rank 0 goes on in the background and the primary waits for it.
            Shells.Run coordinate = Shells.run(shell, coordination, task.environmentSettings(),
                    node(master, true, address), master);
            assertEquals(0, coordinate.exit(), coordinate.stderr());
            Shells.Run primary = Shells.run(shell, Shells.body(task.commandLine()), task.environmentSettings(),
                    node(master, true, address), master);
            assertEquals(0, primary.exit(), primary.stderr());
            assertEquals("0 0 0 " + MASTER + " 2", Files.readString(master.resolve("rank-0.stdout")));
        }
    }

    @Test
    void eachRankGetsHostileArgumentsAndTheSecretsFromTheTaskRootByteForByte() throws Exception {
        List<String> argv = new java.util.ArrayList<>(List.of("sh", "-c",
                "for a in \"$@\" \"$TOKEN\"; do printf '%s\\000' \"$a\"; done", "dump"));
        argv.addAll(LauncherTest.HOSTILE);
        Plan plan = Plan.builder(LauncherTest.workload(argv).resources(Resources.builder().nodes(2)).build(),
                        ExamplePlans.D2).region("eastus").image(ExamplePlans.UBUNTU)
                .boot(new NodeBoot(Optional.empty(), Optional.of(ExamplePlans.NODE_AGENT))).build();
        TaskAddParameter task = assertInstanceOf(TaskBody.Ready.class, TaskBody.render(new TaskBody.Input(plan,
                SubmitOptions.withKey("hostile"), "mlbatch", "gantry-d2s-v5-mn-0123456789ab", 29500,
                Duration.ofDays(7), List.of(), Optional.of(new TaskBody.SecretsBlob("https://s.blob.core.windows.net/"
                + "c/hostile.env", "/identity"))))).task();
        assertEquals(Launcher.SECRETS_FILE, task.multiInstanceSettings().commonResourceFiles().get(0).filePath());
        String secret = "s3cr'et $HOME\n`x`\n";
        List<String> expected = new java.util.ArrayList<>(LauncherTest.HOSTILE);
        expected.add(secret);
        for (List<String> shell : Shells.available()) {
            Path node = Files.createDirectories(dir.resolve("hostile-" + Shells.available().indexOf(shell)));
            Path root = Files.createDirectories(node.resolve("root"));
            Files.writeString(root.resolve(Launcher.SECRETS_FILE), SecretsFile.render(Map.of("TOKEN",
                    new dev.gantry.api.backend.Secret(secret))));
            Map<String, String> env = node(node, true, address(shell));
            env.put("AZ_BATCH_TASK_DIR", root.toString());
            assertEquals(0, Shells.run(shell, Shells.body(task.multiInstanceSettings().coordinationCommandLine()),
                    task.environmentSettings(), env, node).exit());
            Shells.Run primary = Shells.run(shell, Shells.body(task.commandLine()), task.environmentSettings(), env,
                    node);
            assertEquals(0, primary.exit(), primary.stderr());
            assertEquals(expected, Shells.fields(Files.readAllBytes(node.resolve("rank-0.stdout"))), shell.toString());
            assertTrue(!Files.exists(root.resolve(Launcher.SECRETS_FILE)), "loaded and deleted");
        }
    }

    @Test
    void aNodeOutsideTheHostListFailsSayingSo() throws Exception {
        TaskAddParameter task = twoNodeTask();
        Map<String, String> env = node(dir, false, "10.9.9.9");
        env.put("AZ_BATCH_HOST_LIST", MASTER + ",10.9.9.9");
        Shells.Run run = Shells.run(List.of("/bin/sh"), Shells.body(task.multiInstanceSettings()
                .coordinationCommandLine()), task.environmentSettings(), env, dir);
        assertEquals(CoordinationCommand.NO_RANK, run.exit());
        assertTrue(run.stderr().contains("gantry: no address of this node (") && run.stderr().contains(
                ") is in AZ_BATCH_HOST_LIST"), run.stderr());
    }

    /** This machine's first address as the shell's hostname gives it: the "other" node's own. */
    private String address(List<String> shell) throws Exception {
        Shells.Run run = Shells.run(shell, "hostname -I 2>/dev/null || hostname -i 2>/dev/null", List.of(), Map.of(),
                dir);
        String[] words = run.out().strip().split("\\s+");
        assertTrue(!words[0].isEmpty() && !words[0].equals(MASTER), shell + " gives this machine no address");
        return words[0];
    }

    /** A node's Batch variables; {@code address} is the node it is not the master of (the other one). */
    private static Map<String, String> node(Path shared, boolean isMaster, String address) {
        Map<String, String> env = new HashMap<>();
        env.put("AZ_BATCH_TASK_SHARED_DIR", shared.toString());
        env.put("AZ_BATCH_MASTER_NODE", MASTER + ":6000");
        env.put("AZ_BATCH_HOST_LIST", MASTER + "," + address);
        env.put("AZ_BATCH_IS_CURRENT_NODE_MASTER", String.valueOf(isMaster));
        return env;
    }

    private static TaskAddParameter twoNodeTask() {
        Plan plan = Plan.builder(LauncherTest.workload(List.of("sh", "-c", PROGRAM))
                        .resources(Resources.builder().nodes(2)).build(), ExamplePlans.D2)
                .region("eastus").image(ExamplePlans.UBUNTU)
                .boot(new NodeBoot(Optional.empty(), Optional.of(ExamplePlans.NODE_AGENT))).build();
        TaskBody.Result result = TaskBody.render(new TaskBody.Input(plan, SubmitOptions.withKey("two-nodes"),
                "mlbatch", "gantry-d2s-v5-mn-0123456789ab", 29500, Duration.ofDays(7), List.of(), Optional.empty()));
        TaskAddParameter task = assertInstanceOf(TaskBody.Ready.class, result).task();
        assertEquals(2, task.multiInstanceSettings().numberOfInstances());
        List<EnvironmentSetting> env = task.environmentSettings();
        assertTrue(env.stream().noneMatch(s -> s.name().equals("MASTER_ADDR")), "set per node");
        return task;
    }
}
