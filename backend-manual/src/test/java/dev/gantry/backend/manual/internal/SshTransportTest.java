package dev.gantry.backend.manual.internal;

import static dev.gantry.backend.manual.internal.SshJobs.await;
import static dev.gantry.backend.manual.internal.SshJobs.awaitEnd;
import static dev.gantry.backend.manual.internal.SshJobs.awaitOutput;
import static dev.gantry.backend.manual.internal.SshJobs.awaitRunning;
import static dev.gantry.backend.manual.internal.SshJobs.key;
import static dev.gantry.backend.manual.internal.SshJobs.logs;
import static dev.gantry.backend.manual.internal.SshJobs.plan;
import static dev.gantry.backend.manual.internal.SshJobs.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.SecretRef;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.manual.internal.transport.FleetHost;
import dev.gantry.hosts.jobs.HostScan;
import dev.gantry.ssh.SshPool;
import dev.gantry.tck.TckContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The ssh transport against the real test hosts: multi-host rendezvous, rank failure, placement by GPUs, secrets
 * kept off command lines, and the one-command-per-host status poll. Each case has its own work directories.
 */
class SshTransportTest {
    private final SshCase cases = new SshCase(new SshHosts());
    private final SshHosts hosts = cases.hosts();
    private final TckContext context = cases.context();
    private final List<JobRef> jobs = cases.jobs();

    private ManualBackend backend(Map<String, String> extra) {
        return cases.backend(extra);
    }

    private JobRef submit(ManualBackend backend, dev.gantry.api.Plan plan) {
        return cases.submit(backend, plan);
    }

    @AfterEach
    void cleanUp() throws Exception {
        cases.close();
    }

    @Test
    void twoHostRunTellsEachRankTheRendezvous() throws Exception {
        ManualBackend backend = backend(Map.of());
        JobRef job = submit(backend, plan(workload("rendezvous").command("sh", "-c",
                "echo \"$MASTER_ADDR $MASTER_PORT $WORLD_SIZE $NODE_RANK $(hostname)\""), 2, 0));
        JobStatus status = awaitEnd(backend, job);
        assertEquals(JobState.SUCCEEDED, status.state(), status.message());
        assertEquals("all 2 ranks exited with code 0", status.message());
        String master = hosts.host(1).address();
        Map<Integer, String> byRank = new HashMap<>();
        for (LogLine line : logs(backend, job)) {
            byRank.put(line.node(), line.text());
        }
        // Equal hosts: the name breaks the tie, so gantry-h1 is rank 0.
        assertEquals(Map.of(0, master + " 29500 2 0 gantry-h1", 1, master + " 29500 2 1 gantry-h2"), byRank);
    }

    @Test
    void hostsThatShareAWorkDirectoryAreRefusedForAMultiHostJob() throws Exception {
        // The test hosts share one file system: pointing both at one directory is an NFS-shared home in miniature.
        String shared = hosts.workDir("gantry-h1");
        ManualBackend backend = backend(Map.of("hosts[0].workDir", shared, "hosts[1].workDir", shared));
        dev.gantry.api.Plan plan = plan(workload("shared").command("true"), 2, 0);
        GantryException e = assertThrows(GantryException.class,
                () -> backend.submit(plan, SubmitOptions.withKey(key("shared"))));
        assertEquals(dev.gantry.api.ErrorCode.PLAN_REJECTED, e.code());
        assertTrue(e.getMessage().startsWith("hosts gantry-h1 and gantry-h2 share the work directory " + shared),
                e.getMessage());
        // A single-host job there is fine: only ranks of one job collide.
        JobRef one = submit(backend, plan(workload("alone").command("true"), 1, 0));
        assertEquals(JobState.SUCCEEDED, awaitEnd(backend, one).state());
    }

    @Test
    void masterPortIsConfigurable() throws Exception {
        ManualBackend backend = backend(Map.of("masterPort", "23456"));
        JobRef job = submit(backend, plan(workload("port").command("sh", "-c", "echo $MASTER_PORT"), 2, 0));
        assertEquals(JobState.SUCCEEDED, awaitEnd(backend, job).state());
        assertEquals(List.of("23456", "23456"), logs(backend, job).stream().map(LogLine::text).toList());
    }

    @Test
    void aFailedRankFailsTheJobAndStopsTheOthers() throws Exception {
        ManualBackend backend = backend(Map.of());
        JobRef job = submit(backend, plan(workload("rank-fails").command("sh", "-c",
                "if [ \"$NODE_RANK\" = 1 ]; then sleep 1; exit 3; fi; while :; do echo tick; sleep 0.2; done"),
                2, 0));
        JobStatus status = await(backend, job, s -> s.state().isTerminal(), Duration.ofSeconds(20));
        assertEquals(JobState.FAILED, status.state(), status.message());
        assertEquals("rank 1 on gantry-h2: exited with code 3", status.message());
        assertEquals(3, status.exitCode().orElseThrow());
        HostScan.Entry rank0 = backend.scanAll().get("gantry-h1").entries().get(job.id());
        assertTrue(rank0.snapshot().cancelled(), "rank 0 was stopped with a marker");
        assertFalse(rank0.snapshot().alive(), "rank 0's processes are gone");
        assertEquals(JobState.FAILED, backend.status(job).state(), "the job stays FAILED");
    }

    @Test
    void cancelStopsEveryRank() throws Exception {
        ManualBackend backend = backend(Map.of());
        JobRef job = submit(backend, plan(workload("cancel").command("sh", "-c",
                "while :; do echo tick; sleep 0.2; done"), 2, 0));
        awaitRunning(backend, job);
        backend.cancel(job);
        JobStatus status = backend.status(job);
        assertEquals(JobState.CANCELLED, status.state(), status.message());
        for (FleetHost.Scan scan : backend.scanAll().values()) {
            assertFalse(scan.entries().get(job.id()).snapshot().alive());
        }
    }

    @Test
    void placementFillsGpusWithDistinctDevicesThenRefusesNamingEachHost() throws Exception {
        ManualBackend backend = backend(Map.of("hosts[0].gpus", "2", "hosts[1].gpus", "2"));
        Set<String> held = new HashSet<>();
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            JobRef job = submit(backend, plan(workload("gpu" + i).command("sh", "-c",
                    "echo \"$(hostname) $CUDA_VISIBLE_DEVICES\"; sleep 60"), 1, 1));
            String line = awaitOutput(backend, job, lines -> !lines.isEmpty()).get(0).text();
            assertTrue(held.add(line), "GPU handed out twice: " + line + " in " + held);
            order.add(line);
        }
        // Best fit: the partly used host first, so gantry-h1 fills before gantry-h2 is touched.
        assertEquals(List.of("gantry-h1 0", "gantry-h1 1", "gantry-h2 0", "gantry-h2 1"), order);
        GantryException refused = assertThrows(GantryException.class, () -> submit(backend,
                plan(workload("gpu-none-left").command("true"), 1, 1)));
        assertEquals(ErrorCode.PLAN_REJECTED, refused.code());
        assertTrue(refused.getMessage().contains("gantry-h1: 0 of 2 GPUs free, needs 1"), refused.getMessage());
        assertTrue(refused.getMessage().contains("gantry-h2: 0 of 2 GPUs free, needs 1"), refused.getMessage());

        backend.cancel(jobs.get(2)); // frees gantry-h2's GPU 0
        JobRef again = submit(backend, plan(workload("gpu-freed").command("sh", "-c",
                "echo \"$(hostname) $CUDA_VISIBLE_DEVICES\""), 1, 1));
        assertEquals(JobState.SUCCEEDED, awaitEnd(backend, again).state());
        assertEquals("gantry-h2 0", logs(backend, again).get(0).text());
    }

    @Test
    void environmentValuesNeverReachACommandLineAndTheEnvFileIsGone() throws Exception {
        String value = "ssh-secret-" + UUID.randomUUID();
        SecretRef ref = SecretRef.parse("env:SSH_TEST_SECRET");
        context.putSecret(ref, value);
        ManualBackend backend = backend(Map.of());
        JobRef job = submit(backend, plan(workload("secret").secret("TOKEN", ref).env("PLAIN", value)
                .command("sh", "-c", "printf %s \"$TOKEN\" | sha256sum; printf %s \"$PLAIN\" | sha256sum; "
                        + "sleep 30"), 1, 0));
        List<LogLine> lines = awaitOutput(backend, job, l -> l.size() == 2);
        String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(value.getBytes(StandardCharsets.UTF_8)));
        assertEquals(digest, lines.get(0).text().split(" ")[0], "the job got the secret");
        assertEquals(digest, lines.get(1).text().split(" ")[0], "the job got the env value");
        // Every process's command line as the host sees it, read over SSH while the job runs.
        try (SshPool pool = new SshPool()) {
            String cmdlines = pool.exec(hosts.host(1).target(), List.of("sh", "-c",
                    "for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < \"$f\" 2>/dev/null; echo; done"),
                    Duration.ofSeconds(20)).stdoutText();
            assertTrue(cmdlines.contains("gantry-job " + hosts.workDir("gantry-h1") + "/" + job.id()),
                    "the job's wrapper is among the processes read");
            assertFalse(cmdlines.contains(value), "a value was on a command line");
            String dir = hosts.workDir("gantry-h1") + "/" + job.id();
            assertEquals(1, pool.exec(hosts.host(1).target(), List.of("test", "-e", dir + "/env"),
                    Duration.ofSeconds(20)).exitCode(), "the env file was deleted");
            String stored = pool.exec(hosts.host(1).target(), List.of("sh", "-c", "cat \"$1\"/*", "sh", dir),
                    Duration.ofSeconds(20)).stdoutText();
            assertFalse(stored.contains(value), "a value was written into the job directory");
        }
    }

    @Test
    void statusOfManyJobsIsOneRemoteCommandPerHost() throws Exception {
        ManualBackend backend = backend(Map.of());
        List<JobRef> refs = new ArrayList<>();
        refs.add(submit(backend, plan(workload("count-a").command("true"), 1, 0)));
        refs.add(submit(backend, plan(workload("count-b").command("sh", "-c", "exit 4"), 1, 0)));
        refs.add(submit(backend, plan(workload("count-c").command("sleep", "30"), 2, 0)));
        refs.add(new JobRef("manual", "job-never-submitted"));
        awaitEnd(backend, refs.get(0));
        awaitEnd(backend, refs.get(1));
        long before = commands(backend);
        Map<JobRef, JobStatus> statuses = backend.statuses(refs);
        assertEquals(2, commands(backend) - before, "one command per host, whatever the number of jobs");
        assertEquals(JobState.SUCCEEDED, statuses.get(refs.get(0)).state());
        assertEquals(JobState.FAILED, statuses.get(refs.get(1)).state());
        assertEquals(JobState.RUNNING, statuses.get(refs.get(2)).state());
        assertEquals(JobState.UNKNOWN, statuses.get(refs.get(3)).state());
    }

    @Test
    void rankZeroOnAHostThatHasRunNothingYetStarts() throws Exception {
        ManualBackend backend = backend(Map.of());
        JobRef busy = submit(backend, plan(workload("busy").command("sleep", "30"), 1, 0));
        awaitRunning(backend, busy);
        // gantry-h1 carries a job now, so the freer gantry-h2 is rank 0: its work directory nothing has made yet.
        assertFalse(java.nio.file.Files.exists(java.nio.file.Path.of(hosts.workDir("gantry-h2"))));
        JobRef job = submit(backend, plan(workload("fresh-rank0").command("hostname"), 2, 0));
        JobStatus status = awaitEnd(backend, job);
        assertEquals(JobState.SUCCEEDED, status.state(), status.message());
        Map<Integer, String> byRank = new HashMap<>();
        for (LogLine line : logs(backend, job)) {
            byRank.put(line.node(), line.text());
        }
        assertEquals(Map.of(0, "gantry-h2", 1, "gantry-h1"), byRank);
    }

    @Test
    void aHostThatCannotBeReachedIsNamedAndTheOthersStillPlace() throws Exception {
        ManualBackend backend = backend(Map.of("hosts[1].address", "10.200.0.250", "hosts[1].connectTimeout", "1s"));
        JobRef job = submit(backend, plan(workload("one-down").command("hostname"), 1, 0));
        assertEquals(JobState.SUCCEEDED, awaitEnd(backend, job).state());
        assertEquals("gantry-h1", logs(backend, job).get(0).text());
        GantryException refused = assertThrows(GantryException.class, () -> submit(backend,
                plan(workload("two-needed").command("true"), 2, 0)));
        assertTrue(refused.getMessage().contains("gantry-h2: unreachable"), refused.getMessage());
        // The other host fits: the plan may fit once gantry-h2 answers, so this is no verdict on the plan.
        assertEquals(ErrorCode.BACKEND_UNAVAILABLE, refused.code(), refused.getMessage());
        assertTrue(refused.getMessage().contains("host gantry-h2 (backends.manual.hosts[1].address) cannot be "
                + "reached: cannot connect to 10.200.0.250:22"), refused.getMessage());
    }

    @Test
    void followDeliversEveryRanksLinesAndReturnsWhenTheJobEnds() throws Exception {
        ManualBackend backend = backend(Map.of());
        JobRef job = submit(backend, plan(workload("follow").command("sh", "-c",
                "for i in 1 2 3; do echo \"$NODE_RANK:$i\"; sleep 0.3; done"), 2, 0));
        List<LogLine> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        backend.logs(job, dev.gantry.api.backend.LogOptions.following(), lines::add);
        assertTrue(backend.status(job).state().isTerminal(), "follow returned before the job ended");
        assertEquals(List.of("0:1", "0:2", "0:3"), lines.stream().filter(l -> l.node() == 0).map(LogLine::text)
                .toList());
        assertEquals(List.of("1:1", "1:2", "1:3"), lines.stream().filter(l -> l.node() == 1).map(LogLine::text)
                .toList());
    }

    /** A job killed with its VM leaves no exit code: on a Spot host that is an eviction, elsewhere a failure. */
    @Test
    void aJobGoneWithoutAnExitCodeIsPreemptedOnASpotHostAndFailedElsewhere() throws Exception {
        ManualBackend backend = backend(Map.of("hosts[0].spot", "true"));
        JobRef job = submit(backend, plan(workload("vanish").command("sh", "-c",
                "echo \"$(hostname)\"; exec sleep 60"), 2, 0));
        awaitOutput(backend, job, lines -> lines.size() == 2);
        List<ProcessHandle> killed = new java.util.ArrayList<>();
        for (FleetHost.Scan scan : backend.scanAll().values()) {
            long pid = scan.entries().get(job.id()).snapshot().pid().orElseThrow();
            ProcessHandle.of(pid).ifPresent(p -> {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                killed.add(p);
            });
        }
        // Both VMs' processes are gone before the backend looks: a poll that saw rank 1 dead while rank 0 still ran
        // would stop rank 0 itself (a stopped rank, not a vanished one) and name rank 1 below.
        for (ProcessHandle p : killed) {
            p.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
        }
        JobStatus status = await(backend, job, s -> s.state().isTerminal(), Duration.ofSeconds(20));
        // Rank 0 (Spot) reads as evicted, rank 1 (regular) as failed: the failure decides the job.
        assertEquals(JobState.FAILED, status.state(), status.message());
        assertEquals("rank 1 on gantry-h2: process ended without recording an exit code (host rebooted or killed?)",
                status.message());
        ManualBackend spotOnly = backend(Map.of("hosts[0].spot", "true", "hosts[1].spot", "true"));
        JobStatus evicted = spotOnly.status(job);
        assertEquals(JobState.PREEMPTED, evicted.state(), evicted.message());
        assertTrue(evicted.message().startsWith("rank 0 on gantry-h1: process ended without recording an exit code "
                + "on a spot VM"), evicted.message());
    }

    @Test
    void concurrentSubmitsOfOneKeyFromTwoProcessesMakeOneJob() throws Exception {
        List<ManualBackend> processes = List.of(backend(Map.of()), backend(Map.of()));
        dev.gantry.api.Plan plan = plan(workload("concurrent").command("sh", "-c",
                "echo \"ran on $NODE_RANK\""), 2, 0);
        String key = key("concurrent");
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(6);
        try {
            List<java.util.concurrent.Future<JobRef>> refs = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                ManualBackend process = processes.get(i % 2);
                refs.add(threads.submit(() -> process.submit(plan, SubmitOptions.withKey(key))));
            }
            Set<JobRef> distinct = new HashSet<>();
            for (java.util.concurrent.Future<JobRef> ref : refs) {
                distinct.add(ref.get());
            }
            assertEquals(1, distinct.size(), distinct.toString());
            JobRef job = distinct.iterator().next();
            jobs.add(job);
            assertEquals(JobState.SUCCEEDED, awaitEnd(processes.get(0), job).state());
            assertEquals(List.of("ran on 0", "ran on 1"), logs(processes.get(0), job).stream().map(LogLine::text)
                    .sorted().toList(), "each rank ran once");
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * A warm single-node submit is one scan per host and one launch: two remote commands to a fleet of one host,
     * three to a fleet of two (the first host's scan also takes the claim). A retry of it is the scans alone.
     */
    @Test
    void aWarmSingleNodeSubmitIsOneScanPerHostAndOneLaunch() throws Exception {
        for (Map.Entry<Integer, ManualBackend> fleet : Map.of(1, oneHostBackend(), 2, backend(Map.of())).entrySet()) {
            ManualBackend backend = fleet.getValue();
            submit(backend, plan(workload("warm-up").command("true"), 1, 0)); // connects and probes the hosts
            long before = commands(backend);
            String key = key("warm-" + fleet.getKey());
            JobRef job = backend.submit(plan(workload("warm").command("true"), 1, 0), SubmitOptions.withKey(key));
            jobs.add(job);
            assertEquals((long) fleet.getKey() + 1, commands(backend) - before,
                    "submit to " + fleet.getKey() + " host(s)");
            before = commands(backend);
            assertEquals(job, backend.submit(plan(workload("warm").command("true"), 1, 0),
                    SubmitOptions.withKey(key)));
            assertEquals((long) fleet.getKey(), commands(backend) - before, "a retry only scans");
            assertEquals(JobState.SUCCEEDED, awaitEnd(backend, job).state());
        }
    }

    private ManualBackend oneHostBackend() {
        Map<String, String> config = new java.util.TreeMap<>(hosts.config(Map.of()));
        config.keySet().removeIf(k -> k.startsWith("hosts[1]"));
        return cases.track((ManualBackend) new dev.gantry.backend.manual.ManualBackendProvider().create(
                new dev.gantry.api.backend.BackendConfig("manual", config), context));
    }

    @Test
    void doctorProbesEveryHostOnce() {
        ManualBackend backend = backend(Map.of("hosts[1].gpus", "2"));
        long before = commands(backend);
        List<dev.gantry.api.backend.HostReport> reports = backend.doctor(java.util.Optional.empty());
        assertEquals(List.of("gantry-h1", "gantry-h2"), reports.stream().map(r -> r.host()).toList());
        assertEquals(2, commands(backend) - before, "one probe script per host");
        assertTrue(reports.get(0).facts().containsKey("cpus"), reports.get(0).facts().toString());
    }

    @Test
    void acceptingAnyHostKeyIsWarnedAboutNamingTheHost() {
        List<String> warnings = new ArrayList<>();
        dev.gantry.api.backend.BackendContext loud = new dev.gantry.api.backend.BackendContext() {
            @Override
            public java.nio.file.Path stateDirectory() {
                return context.stateDirectory();
            }

            @Override
            public dev.gantry.api.backend.SecretResolver secrets() {
                return context.secrets();
            }

            @Override
            public System.Logger logger() {
                return new CapturingLogger(warnings);
            }
        };
        ManualBackend backend = (ManualBackend) new dev.gantry.backend.manual.ManualBackendProvider().create(
                new dev.gantry.api.backend.BackendConfig("manual", hosts.config(Map.of(
                        "hosts[1].hostKeyFingerprint", "", "hosts[1].insecureAcceptAnyHostKey", "true"))), loud);
        cases.track(backend);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("WARNING backends.manual: insecureAcceptAnyHostKey is set for host "
                + "gantry-h2: its identity is NOT verified"), warnings.get(0));
    }

    /** Records what is logged, as "LEVEL message". */
    private record CapturingLogger(List<String> lines) implements System.Logger {
        @Override
        public String getName() {
            return "test";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, java.util.ResourceBundle bundle, String msg, Throwable thrown) {
            lines.add(level + " " + msg);
        }

        @Override
        public void log(Level level, java.util.ResourceBundle bundle, String format, Object... params) {
            lines.add(level + " " + format);
        }
    }

    private static long commands(ManualBackend backend) {
        return backend.remoteCalls().getAsLong();
    }
}
