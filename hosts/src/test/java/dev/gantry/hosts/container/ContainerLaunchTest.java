package dev.gantry.hosts.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Architecture;
import dev.gantry.api.Checkpoint;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.hosts.LocalHost;
import dev.gantry.hosts.jobs.JobDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContainerLaunchTest {
    private static final VmSize CPU = new VmSize("Standard_D4s_v5", "D", 4, 16, Optional.empty(), false,
            Architecture.X64, Set.of("V2"));
    /** A runtime binary that accepts any arguments and does nothing: the I/O around the command is under test. */
    private static final ContainerSettings DOCKER_STUB = new ContainerSettings(ContainerRuntime.DOCKER, "/bin/true",
            List.of(), ContainerSettings.DEFAULT_ULIMITS, List.of());

    @TempDir
    Path temp;

    private static Workload.Builder workload() {
        return Workload.builder("train").phase(Phase.TRAINING).model(ModelClass.SMALL).command("sh", "-c", "true")
                .container("localhost/gantry-test-busybox:latest");
    }

    @Test
    void anImageWithoutARuntimeNamesTheImageAndTheSetting() {
        ContainerLaunch launch = new ContainerLaunch(LocalHost.detect(), ContainerSettings.none(), "backends.manual");
        Plan plan = Plan.builder(workload().build(), CPU).build();
        assertFalse(launch.runs(plan.workload()));
        assertEquals(List.of(Problem.of("container.image", "no container runtime is configured to run the image "
                + "'localhost/gantry-test-busybox:latest'; set backends.manual.containerRuntime to podman (or docker), "
                + "or remove container to run the command directly")),
                launch.problems(plan));
    }

    @Test
    void aConfiguredRuntimeAcceptsTheImageAndRefusesAnUnmountableCheckpoint() {
        ContainerLaunch launch = new ContainerLaunch(LocalHost.detect(), DOCKER_STUB, "backends.manual");
        assertEquals(List.of(), launch.problems(Plan.builder(workload().build(), CPU).build()));
        Workload odd = workload().checkpoint(new Checkpoint("/mnt/a:b", Duration.ofMinutes(5))).build();
        assertEquals(List.of("checkpoint.path"),
                launch.problems(Plan.builder(odd, CPU).build()).stream().map(Problem::path).toList());
    }

    @Test
    void aMultiNodeContainerJobRefusesANetworkTheRanksCannotMeetOn() {
        ContainerSettings isolated = new ContainerSettings(ContainerRuntime.PODMAN, "podman", List.of(),
                ContainerSettings.DEFAULT_ULIMITS, List.of("--network=none"));
        ContainerLaunch launch = new ContainerLaunch(LocalHost.detect(), isolated, "backends.manual");
        assertEquals(List.of(), launch.problems(Plan.builder(workload().build(), CPU).build()),
                "one node may keep its own network");
        List<Problem> problems = launch.problems(Plan.builder(workload().build(), CPU).nodes(2).build());
        assertEquals(List.of("backends.manual.containerRunOptions"), problems.stream().map(Problem::path).toList());
        assertEquals("chooses the container network 'none', but the 2 ranks of this job meet at "
                + "MASTER_ADDR:MASTER_PORT, an address of rank 0's host, which only the host's network reaches; remove "
                + "the network option (Gantry then runs multi-node containers with --network=host)",
                problems.get(0).message());
    }

    @Test
    void aWorkloadWithoutImageRunsDirectlyEvenWithARuntime() {
        ContainerLaunch launch = new ContainerLaunch(LocalHost.detect(), DOCKER_STUB, "backends.manual");
        assertFalse(launch.runs(workload().container((dev.gantry.api.ContainerSpec) null).build()));
    }

    @Test
    void prepareGivesTheEnvFileToTheLaunchAndStoppedRemovesIt() throws Exception {
        LocalHost host = LocalHost.detect();
        JobDirectory job = new JobDirectory(host, temp.resolve("job-a").toString());
        assertTrue(job.create());
        Path checkpoints = temp.resolve("ckpt/deep");
        Workload w = workload().checkpoint(new Checkpoint(checkpoints.toString(), Duration.ofMinutes(5))).build();
        Map<String, String> env = new LinkedHashMap<>();
        env.put("TOKEN", "s3cret");
        env.put("PEM", "line one\nline two");
        env.put("GANTRY_JOB_ID", "job-a");

        ContainerLaunch launch = new ContainerLaunch(host, DOCKER_STUB, "backends.manual");
        ContainerLaunch.Launch prepared = launch.prepare(Plan.builder(w, CPU).build(), "job-a", 0, job,
                launch.envFile(w, env), GpuSlice.none());

        Path envFile = Path.of(job.file(ContainerLaunch.ENV_FILE));
        assertFalse(Files.exists(envFile), "the launch writes the env file, under its lock, not prepare");
        assertEquals(ContainerLaunch.ENV_FILE, prepared.envFile().name());
        assertEquals("TOKEN=s3cret\nPEM\nGANTRY_JOB_ID=job-a\n", prepared.envFile().text());
        host.writePrivate(envFile.toString(), prepared.envFile().text()); // as the launch does
        assertEquals(Map.of("PEM", "line one\nline two"), prepared.runtimeEnvironment());
        assertTrue(Files.isDirectory(checkpoints), "the checkpoint directory exists before it is mounted");
        assertEquals(envFile.toString(), prepared.argv().get(prepared.argv().indexOf("--env-file") + 1));
        assertTrue(prepared.argv().stream().noneMatch(a -> a.contains("s3cret")), prepared.argv().toString());

        assertEquals("gantry-job-a\n", Files.readString(Path.of(job.file(ContainerLaunch.MARKER))));
        launch.stopped(job);
        assertFalse(Files.exists(envFile), "the env file outlived the job");
    }

    @Test
    void aMultiLineValueTheRuntimeWouldReadItselfIsRefusedNamingEveryOne() {
        ContainerLaunch launch = new ContainerLaunch(LocalHost.detect(), DOCKER_STUB, "backends.manual");
        Workload w = workload().env("PATH", "/a\n/b").env("LD_PRELOAD", "x\ny").env("FINE", "one\ntwo")
                .secret("HOME", dev.gantry.api.SecretRef.parse("env:SOME_HOME")).build();
        Map<String, String> env = new LinkedHashMap<>(w.env());
        env.put("HOME", "/root\n");
        GantryException e = assertThrows(GantryException.class, () -> launch.envFile(w, env));
        assertEquals(ErrorCode.SPEC_INVALID, e.code());
        assertEquals(List.of("env.PATH", "env.LD_PRELOAD", "secrets.HOME"),
                e.problems().stream().map(Problem::path).toList());
        assertEquals("has a line break (or is longer than 32 KiB), which a line of the container's env file cannot "
                + "hold, and PATH cannot travel in the container runtime's own environment instead because the "
                + "runtime reads it; remove the line breaks or use another variable name",
                e.problems().get(0).message());
        assertEquals(Map.of("FINE", "one\ntwo"), launch.envFile(w, Map.of("FINE", "one\ntwo")).byName());
    }

    @Test
    void stoppedLeavesABareJobAlone() throws Exception {
        LocalHost host = LocalHost.detect();
        JobDirectory job = new JobDirectory(host, temp.resolve("job-b").toString());
        assertTrue(job.create());
        Path stranger = Path.of(job.file(ContainerLaunch.ENV_FILE));
        Files.writeString(stranger, "kept");
        new ContainerLaunch(host, DOCKER_STUB, "backends.manual").stopped(job);
        assertTrue(Files.exists(stranger), "a job without the container marker is not a container job");
    }
}
