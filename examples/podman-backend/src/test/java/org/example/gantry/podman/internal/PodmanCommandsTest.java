package org.example.gantry.podman.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Checkpoint;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.tck.BackendFixture;
import dev.gantry.testing.GoldenFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Podman's command lines: one argument per element, no environment value on them, the right mounts. */
class PodmanCommandsTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden/commands");
    private static final PodmanSettings SETTINGS = PodmanSettings.bind(new BackendConfig("podman", Map.of(
            "podmanOptions[0]", "--root", "podmanOptions[1]", "/var/lib/podman-jobs",
            "runOptions[0]", "--network=none", "stopTimeout", "5s")));
    private static final Path LOG = Path.of("/state/jobs/train-1/output.log");

    @Test
    void aJobOverTheHostRootMountsItsWorkingDirectoryAndCheckpoint() {
        Workload workload = workload("quickstart").command("python3", "train.py", "--epochs", "5")
                .env("SEED", "7").checkpoint(new Checkpoint("/data/ckpt", Duration.ofMinutes(5))).build();
        Map<String, String> env = new LinkedHashMap<>();
        env.put("SEED", "7");
        env.put("GANTRY_JOB_ID", "train-1");
        List<String> argv = run(workload, env, Optional.empty(),
                Optional.of("/home/me/project"));
        GOLDEN.assertMatches("host-root.txt", String.join("\n", argv) + "\n");
    }

    @Test
    void aJobWithAnImageGetsItsWorkingDirectoryButNoHostMount() {
        Workload workload = workload("infer").container("docker.io/library/busybox:1.36")
                .command("sh", "-c", "echo \"$A\"; pwd").workingDir("/srv/app").build();
        List<String> argv = run(workload, Map.of("A", "x"), Optional.of(Path.of("/var/tmp/gantry-podman-1.env")),
                Optional.empty());
        GOLDEN.assertMatches("image.txt", String.join("\n", argv) + "\n");
    }

    @Test
    void environmentValuesAndSecretsAreNeverArguments() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("TOKEN", "s3cr3t value");
        env.put("MULTI", "line one\nline two");
        Workload workload = workload("w").command("printenv", "TOKEN").build();
        List<String> argv = run(workload, env, Optional.empty(), Optional.of("/w"));
        assertTrue(argv.contains("TOKEN") && argv.contains("MULTI"), "the names are: " + argv);
        assertFalse(String.join(" ", argv).contains("s3cr3t"), "no value on the command line: " + argv);
        assertFalse(String.join(" ", argv).contains("line one"), "no value on the command line: " + argv);
    }

    @Test
    void theDefaultImageRunsWorkloadsWithoutOne() {
        PodmanSettings settings = PodmanSettings.bind(new BackendConfig("podman",
                Map.of("defaultImage", "docker.io/library/python:3.12-slim")));
        Workload workload = workload("w").command("python3", "-V").build();
        List<String> argv = PodmanCommands.run(settings, Plan.builder(workload, BackendFixture.smallCpuSize()).build(),
                "k", LOG, ContainerEnvironment.of(Map.of()), Optional.empty(), Optional.empty());
        assertEquals(List.of("docker.io/library/python:3.12-slim", "python3", "-V"),
                argv.subList(argv.size() - 3, argv.size()));
        assertFalse(argv.contains("--rootfs"), "an image, not the host's root: " + argv);
    }

    @Test
    void statusListsEveryJobInOneCallAndStopWaitsTheStopTimeout() {
        assertEquals(List.of("podman", "--root", "/var/lib/podman-jobs", "ps", "--all", "--no-trunc", "--filter",
                "label=org.example.gantry.podman.job", "--format", PodmanCommands.LIST_FORMAT),
                PodmanCommands.list(SETTINGS));
        assertEquals(List.of("podman", "--root", "/var/lib/podman-jobs", "stop", "--time", "5", "gantry-podman-k"),
                PodmanCommands.stop(SETTINGS, "k"));
        assertEquals(List.of("podman", "--root", "/var/lib/podman-jobs", "kill", "--signal", "KILL", "gantry-podman-k"),
                PodmanCommands.kill(SETTINGS, "k"));
    }

    private static Workload.Builder workload(String name) {
        return Workload.builder(name).phase(Phase.TRAINING).model(ModelClass.SMALL);
    }

    private static List<String> run(Workload workload, Map<String, String> env, Optional<Path> envFile,
                                    Optional<String> hostWorkingDirectory) {
        return PodmanCommands.run(SETTINGS, Plan.builder(workload, BackendFixture.smallCpuSize()).build(),
                "train-1", LOG, ContainerEnvironment.of(env), envFile, hostWorkingDirectory);
    }
}
