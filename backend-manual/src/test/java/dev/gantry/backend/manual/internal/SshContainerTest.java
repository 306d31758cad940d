package dev.gantry.backend.manual.internal;

import static dev.gantry.backend.manual.internal.SshJobs.await;
import static dev.gantry.backend.manual.internal.SshJobs.awaitEnd;
import static dev.gantry.backend.manual.internal.SshJobs.awaitOutput;
import static dev.gantry.backend.manual.internal.SshJobs.logs;
import static dev.gantry.backend.manual.internal.SshJobs.plan;
import static dev.gantry.backend.manual.internal.SshJobs.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Architecture;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.SecretRef;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.HostCheck;
import dev.gantry.api.backend.HostReport;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.manual.PodmanSandbox;
import dev.gantry.backend.manual.internal.transport.FleetHost;
import dev.gantry.hosts.container.ContainerLaunch;
import dev.gantry.ssh.RemoteResult;
import dev.gantry.ssh.SshPool;
import dev.gantry.ssh.TestHosts;
import dev.gantry.tck.TckContext;
import dev.gantry.testing.TestPodman;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Container mode over SSH: real Podman on the real test hosts (logged in as root, whose Podman runs rootful), with
 * the busybox test image. The hosts share this machine's process table, file system and Podman storage, so what a
 * host did is checked over SSH and in Podman's own listing.
 */
class SshContainerTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final SshCase cases = new SshCase(SshHosts.asRoot());
    private final SshHosts hosts = cases.hosts();
    private final TckContext context = cases.context();
    private final SshPool pool = new SshPool();

    @BeforeAll
    static void podmanAndTheTestImage() {
        TestPodman.prepare();
    }

    /** Podman as the sandbox needs it, no network of its own unless a case removes that (multi-node). */
    private ManualBackend backend(Map<String, String> extra) {
        Map<String, String> config = new TreeMap<>(PodmanSandbox.config(Map.of()));
        config.putAll(extra);
        config.values().removeIf(String::isEmpty); // an empty value removes a sandbox setting
        return cases.backend(config);
    }

    private JobRef submit(ManualBackend backend, Plan plan) {
        return cases.submit(backend, plan);
    }

    private static Workload.Builder contained(String name) {
        return workload(name).container(TestPodman.IMAGE);
    }

    private RemoteResult onHost(int k, String... argv) {
        return pool.exec(hosts.host(k).target(), List.of(argv), Optional.empty(), Duration.ofSeconds(20));
    }

    private String jobDir(int k, JobRef job) {
        return hosts.workDir("gantry-h" + k) + "/" + job.id();
    }

    @AfterEach
    void cleanUp() throws Exception {
        try {
            cases.close();
        } finally {
            pool.close();
        }
    }

    @Test
    void theImageRunsOnTheHostWithItsArgvVerbatimAndTheSecretOffEveryCommandLine() throws Exception {
        String value = "ssh-container-secret-" + UUID.randomUUID();
        SecretRef ref = SecretRef.parse("env:SSH_CONTAINER_SECRET");
        context.putSecret(ref, value);
        ManualBackend backend = backend(Map.of());
        JobRef job = submit(backend, plan(contained("argv").secret("TOKEN", ref)
                .command("sh", "-c", "printf '<%s>' \"$@\"; echo; [ \"$TOKEN\" = \"$EXPECTED\" ] && echo secret-ok; "
                        + "echo rank=$NODE_RANK world=$WORLD_SIZE; sleep 30", "sh", "two words", "$(id)", "it's")
                .env("EXPECTED", value), 1, 0));
        List<LogLine> lines = awaitOutput(backend, job, l -> l.size() >= 3);
        assertEquals("<two words><$(id)><it's>", lines.get(0).text());
        assertEquals("secret-ok", lines.get(1).text());
        assertEquals("rank=0 world=1", lines.get(2).text());

        String dir = jobDir(1, job);
        String cmdlines = onHost(1, "sh", "-c",
                "for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < \"$f\" 2>/dev/null; echo; done").stdoutText();
        assertTrue(cmdlines.contains("--name gantry-" + job.id()), "podman run is among the processes read");
        assertFalse(cmdlines.contains(value), "a value was on a command line");
        assertEquals("600", onHost(1, "stat", "-c", "%a", dir + "/" + ContainerLaunch.ENV_FILE).stdoutText().strip(),
                "the container's env file is private while the job runs");

        backend.cancel(job);
        assertEquals(JobState.CANCELLED, awaitEnd(backend, job).state());
        assertEquals(1, onHost(1, "test", "-e", dir + "/" + ContainerLaunch.ENV_FILE).exitCode(),
                "the env file is gone once the job was stopped");
        assertEquals("", TestPodman.podman("ps", "-a", "--filter", "name=gantry-" + job.id(), "--format",
                "{{.Names}}").output(), "cancel removed the container");
    }

    @Test
    void anExitCodeAndStderrComeBackFromTheContainer() throws Exception {
        ManualBackend backend = backend(Map.of());
        JobRef job = submit(backend, plan(contained("exit").command("sh", "-c", "echo oops >&2; exit 7"), 1, 0));
        JobStatus status = awaitEnd(backend, job);
        assertEquals(JobState.FAILED, status.state(), status.toString());
        assertEquals(7, status.exitCode().orElseThrow());
        assertTrue(logs(backend, job).stream().anyMatch(l -> l.stream() == LogLine.Stream.STDERR
                && l.text().equals("oops")), "stderr of the container");
        assertEquals(1, onHost(1, "test", "-e", jobDir(1, job) + "/" + ContainerLaunch.ENV_FILE).exitCode(),
                "the wrapper removed the env file when the container exited");
    }

    /**
     * Two ranks in containers on two hosts: rank 1 reaches rank 0 at MASTER_ADDR:MASTER_PORT, over TCP. Rank 1's
     * message is on nc's input before it connects (a here-document): BusyBox nc -l, its input at end, shuts its
     * side at once, and a client still to read a piped echo took that for the end and sent nothing.
     */
    @Test
    void twoRanksMeetAtTheRendezvousOnTheHostsNetwork() throws Exception {
        ManualBackend backend = backend(Map.of("containerRunOptions[0]", "", "masterPort", "29517"));
        JobRef job = submit(backend, plan(contained("rendezvous").command("sh", "-c",
                "if [ \"$NODE_RANK\" = 0 ]; then nc -l -p \"$MASTER_PORT\"; else "
                        + "for i in $(seq 1 100); do nc \"$MASTER_ADDR\" \"$MASTER_PORT\" <<EOF && exit 0\n"
                        + "hello from rank $NODE_RANK of $WORLD_SIZE\nEOF\nsleep 0.1; done; exit 1; fi"), 2, 0));
        JobStatus status = await(backend, job, s -> s.state().isTerminal(), WAIT);
        assertEquals(JobState.SUCCEEDED, status.state(), status + " " + logs(backend, job));
        List<LogLine> lines = logs(backend, job);
        assertTrue(lines.stream().anyMatch(l -> l.node() == 0 && l.text().equals("hello from rank 1 of 2")),
                "rank 0 received rank 1's message: " + lines);
    }

    @Test
    void aFailingRankStopsTheOtherRanksContainer() throws Exception {
        ManualBackend backend = backend(Map.of("containerRunOptions[0]", ""));
        JobRef job = submit(backend, plan(contained("rank-fails").command("sh", "-c",
                "if [ \"$NODE_RANK\" = 1 ]; then sleep 1; exit 3; fi; sleep 60"), 2, 0));
        JobStatus status = await(backend, job, s -> s.state().isTerminal(), WAIT);
        assertEquals(JobState.FAILED, status.state(), status.toString());
        assertTrue(status.message().startsWith("rank 1 on "), status.message());
        assertEquals("", TestPodman.podman("ps", "-a", "--filter", "name=gantry-" + job.id(), "--format",
                "{{.Names}}").output(), "rank 0's container was removed with it");
    }

    /**
     * The GPUs placement chose reach the runtime's command line: a stand-in runtime records its argv, so the device
     * flags of a second job on a host whose first two GPUs are taken can be read (there is no GPU here).
     */
    @Test
    void aContainerGetsTheGpusPlacementChoseAndNoHostNumbering() throws Exception {
        Path standIn = Files.createTempFile(Path.of("/tmp"), "gantry-runtime-", ".sh");
        try {
            Files.writeString(standIn, "#!/bin/sh\n"
                    + "for a; do [ \"$a\" = rm ] && exit 0; [ \"$a\" = run ] && break; done\n"
                    + "printf '%s\\n' \"$@\" > runtime-argv\n"
                    + "while [ $# -gt 1 ] && [ \"$1\" != --env-file ]; do shift; done\n"
                    + "cat \"$2\" > runtime-env\n"
                    + "exec sleep 60\n");
            Files.setPosixFilePermissions(standIn, PosixFilePermissions.fromString("rwxr-xr-x"));
            ManualBackend backend = backend(Map.of("containerRuntimePath", standIn.toString(), "hosts[0].gpus", "4",
                    "hosts[1].gpus", "0"));
            JobRef first = submit(backend, gpuPlan("gpus-first"));
            JobRef second = submit(backend, gpuPlan("gpus-second"));
            for (JobRef job : List.of(first, second)) {
                await(backend, job, s -> s.state() == JobState.RUNNING, WAIT);
            }
            List<String> argv = readWhenThere(jobDir(1, second) + "/runtime-argv");
            int firstDevice = argv.indexOf("--device");
            assertEquals(List.of("--device", "nvidia.com/gpu=2", "--device", "nvidia.com/gpu=3"),
                    argv.subList(firstDevice, firstDevice + 4), argv.toString());
            List<String> env = readWhenThere(jobDir(1, second) + "/runtime-env");
            assertTrue(env.contains("NODE_RANK=0"), env.toString());
            assertTrue(env.stream().noneMatch(line -> line.startsWith("CUDA_VISIBLE_DEVICES")),
                    "the runtime numbers the container's GPUs from 0; the host's indexes would hide them: " + env);
        } finally {
            Files.deleteIfExists(standIn);
        }
    }

    /**
     * A submit that died after launching rank 0, retried with its key once rank 0 has ended: the retry launches rank
     * 1 only and writes no env file for rank 0 again (nothing would delete a second copy of its secrets).
     */
    @Test
    void aRetriedSubmitWritesNoEnvFileForARankAlreadyLaunched() throws Exception {
        ManualBackend first = backend(Map.of("containerRunOptions[0]", ""));
        Plan plan = plan(contained("retry").command("sh", "-c", "echo rank $NODE_RANK"), 2, 0);
        String key = SshJobs.key("retry");
        first.stages((reached, rank) -> {
            if (reached.equals("launched") && rank == 0) {
                throw new IllegalStateException("the submitting process died after launching rank 0");
            }
        });
        assertThrows(IllegalStateException.class, () -> first.submit(plan, SubmitOptions.withKey(key)));
        Map<String, FleetHost.Scan> scans = first.scanAll();
        String rank0Host = scans.entrySet().stream().filter(e -> e.getValue().entries().values().stream()
                .anyMatch(entry -> entry.placement().map(p -> p.rank() == 0).orElse(false)))
                .map(Map.Entry::getKey).findFirst().orElseThrow();
        int k = rank0Host.equals("gantry-h1") ? 1 : 2;
        String id = "job-" + key;
        String envFile = hosts.workDir(rank0Host) + "/" + id + "/" + ContainerLaunch.ENV_FILE;
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (onHost(k, "test", "-e", hosts.workDir(rank0Host) + "/" + id + "/exit").exitCode() != 0) {
            assertTrue(System.nanoTime() < deadline, "rank 0 did not end");
            Thread.sleep(100);
        }
        assertEquals(1, onHost(k, "test", "-e", envFile).exitCode(), "rank 0's container removed its env file");

        ManualBackend retry = backend(Map.of("containerRunOptions[0]", ""));
        JobRef job = cases.track(retry.submit(plan, SubmitOptions.withKey(key)));
        assertEquals(JobState.SUCCEEDED, await(retry, job, s -> s.state().isTerminal(), WAIT).state());
        assertEquals(1, onHost(k, "test", "-e", envFile).exitCode(), "the retry wrote rank 0's secrets again");
        assertEquals(List.of("rank 0", "rank 1"), logs(retry, job).stream().map(LogLine::text).sorted().toList(),
                "each rank ran once");
    }

    /** Doctor over SSH checks the runtime the settings name, on every host: Podman is there, Docker is not. */
    @Test
    void doctorChecksTheConfiguredRuntimeOnEveryHost() {
        Plan plan = plan(contained("doctor").command("true"), 1, 0);
        List<HostReport> podman = backend(Map.of()).doctor(Optional.of(plan));
        assertEquals(List.of("gantry-h1", "gantry-h2"), podman.stream().map(HostReport::host).toList());
        for (HostReport report : podman) {
            HostCheck runtime = check(report, "container.runtime");
            assertEquals(HostCheck.Status.OK, runtime.status(), runtime.toString());
            assertTrue(runtime.found().contains("podman"), runtime.toString());
        }
        Map<String, String> docker = new TreeMap<>();
        docker.put("containerRuntime", "docker");
        docker.put("containerRuntimeOptions[0]", "");
        docker.put("containerRuntimeOptions[1]", "");
        for (int i = 2; i < TestPodman.globalOptions().size(); i++) {
            docker.put("containerRuntimeOptions[" + i + "]", "");
        }
        HostCheck missing = check(backend(docker).doctor(Optional.of(plan)).get(0), "container.runtime");
        assertEquals(HostCheck.Status.MISSING, missing.status(), missing.toString());
        assertTrue(missing.found().contains("docker"), missing.toString());
        assertFalse(missing.fix().isBlank(), "a missing runtime says how to fix it: " + missing);
    }

    private static HostCheck check(HostReport report, String name) {
        return report.checks().stream().filter(c -> c.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(report.host() + " has no " + name + " check: "
                        + report.checks()));
    }

    private static Plan gpuPlan(String name) {
        VmSize twoGpus = new VmSize("test-2gpu", "NC", 1, 0.5, Optional.of(new GpuSpec("A100", 2, 80,
                GpuVendor.NVIDIA)), false, Architecture.X64, Set.of("V2"));
        Workload w = contained(name).command("true").resources(Resources.builder().gpus(2).vcpus(1).memoryGib(0.1)
                .build()).build();
        return Plan.builder(w, twoGpus).build();
    }

    private List<String> readWhenThere(String file) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            RemoteResult r = onHost(1, "cat", file);
            if (r.succeeded() && !r.stdoutText().isEmpty()) {
                return r.stdoutText().lines().toList();
            }
            Thread.sleep(100);
        }
        throw new AssertionError(file + " was not written on " + TestHosts.host(1).name());
    }
}
