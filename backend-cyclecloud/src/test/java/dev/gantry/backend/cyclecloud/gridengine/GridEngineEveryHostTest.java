package dev.gantry.backend.cyclecloud.gridengine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.backend.cyclecloud.internal.gridengine.QacctRecord;
import dev.gantry.backend.cyclecloud.slurm.TestCluster;
import dev.gantry.ssh.RemoteResult;
import dev.gantry.ssh.SshPool;
import dev.gantry.ssh.SshTarget;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Jobs on every Grid Engine host of the test cluster at once, as a user submits them on the login node (plain
 * {@code qsub}, each pinned to its host with {@code -l hostname}): every one ends by itself with exit 0, round after
 * round. The hosts' execds share one kernel. Each execd marks a job's processes with an additional group id from
 * its {@code gid_range} and, when the job ends, kills every process still carrying that id; with the one global
 * range each execd handed out the same ids, and the first job to end on one host killed those holding its id on the
 * others (exit 137, qacct {@code failed 100 : assumedly after job}: 18 of these 27 jobs). Job lengths are staggered
 * across the hosts so that jobs on different hosts end at different times, as they did when they were killed.
 */
class GridEngineEveryHostTest {
    private static final int ROUNDS = 3;
    /** Host I's job J sleeps SECONDS[(I + J) % 3]: three jobs a host, never ending together with the other hosts'. */
    private static final int[] SECONDS = {1, 2, 3};
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);
    /** The test cluster schedules once a second; other test runs may hold the slots for a while. */
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String JOB = "#!/bin/bash\nsleep \"$1\"\necho \"slept $1 s on $(hostname)\"\n";
    /** Submits each HOST:SECONDS argument after the directory, pinned to HOST; prints the job ids in order. */
    private static final String SUBMIT = "dir=$1; shift; for spec; do qsub -terse -j y -o \"$dir\" "
            + "-l hostname=\"${spec%:*}\" \"$dir/job.sh\" \"${spec#*:}\" || exit 1; done";

    private final TestCluster cluster = TestCluster.get();

    /** One job of the test: where it must run and how long it sleeps. */
    private record Pinned(String host, int seconds) {
    }

    @Test
    void jobsOnEveryHostAtOnceEndByThemselvesWithExitZero() throws Exception {
        List<String> hosts = new ArrayList<>(List.of(cluster.value("GE_HOST")));
        hosts.addAll(List.of(cluster.value("GE_NODES").split(" ")));
        String dir = cluster.sharedDirectory() + "/every-host-" + UUID.randomUUID();
        SshTarget login = cluster.login();
        try (SshPool ssh = new SshPool()) {
            run(ssh, login, List.of("mkdir", "-p", dir));
            ssh.writeFile(login, dir + "/job.sh", JOB.getBytes(StandardCharsets.UTF_8), 0755);
            for (int round = 1; round <= ROUNDS; round++) {
                Map<String, Pinned> jobs = submit(ssh, login, dir, hosts);
                Map<String, QacctRecord> ended = awaitAccounting(ssh, login, jobs);
                for (Map.Entry<String, Pinned> job : jobs.entrySet()) {
                    String id = job.getKey();
                    Pinned pinned = job.getValue();
                    QacctRecord record = ended.get(id);
                    String what = "round " + round + ", job " + id + " on " + pinned.host() + ": " + record.meaning()
                            + " (" + record + ")";
                    assertEquals(pinned.host(), record.hostname(), what);
                    assertEquals(0, record.failedCode(), what);
                    assertEquals(0, record.exitStatus(), what);
                    String out = Files.readString(Path.of(dir, "job.sh.o" + id));
                    assertTrue(out.contains("slept " + pinned.seconds() + " s on " + pinned.host()),
                            what + "; it printed: " + out);
                }
            }
            run(ssh, login, List.of("rm", "-rf", dir));
        }
    }

    /** The jobs of one round, by Grid Engine job id: SECONDS.length jobs on each host, submitted in one command. */
    private static Map<String, Pinned> submit(SshPool ssh, SshTarget login, String dir, List<String> hosts) {
        List<Pinned> pinned = new ArrayList<>();
        for (int i = 0; i < hosts.size(); i++) {
            for (int j = 0; j < SECONDS.length; j++) {
                pinned.add(new Pinned(hosts.get(i), SECONDS[(i + j) % SECONDS.length]));
            }
        }
        List<String> argv = new ArrayList<>(List.of("sh", "-c", SUBMIT, "submit", dir));
        pinned.forEach(p -> argv.add(p.host() + ":" + p.seconds()));
        List<String> ids = run(ssh, login, argv).lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        assertEquals(pinned.size(), ids.size(), "qsub printed one id a job: " + ids);
        Map<String, Pinned> jobs = new LinkedHashMap<>();
        for (int k = 0; k < ids.size(); k++) {
            jobs.put(ids.get(k), pinned.get(k));
        }
        return jobs;
    }

    /** Each job's accounting record, once every one of them has ended. */
    private static Map<String, QacctRecord> awaitAccounting(SshPool ssh, SshTarget login, Map<String, Pinned> jobs)
            throws InterruptedException {
        Map<String, QacctRecord> ended = new LinkedHashMap<>();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (ended.size() < jobs.size()) {
            for (String id : jobs.keySet()) {
                if (!ended.containsKey(id)) {
                    RemoteResult qacct = ssh.exec(login, List.of("env", "LC_ALL=C", "qacct", "-j", id),
                            COMMAND_TIMEOUT);
                    Optional<QacctRecord> record = QacctRecord.latest(qacct.stdoutText() + qacct.stderrText());
                    record.ifPresent(r -> ended.put(id, r));
                }
            }
            if (ended.size() < jobs.size()) {
                if (System.nanoTime() > deadline) {
                    fail("jobs " + jobs.keySet() + " did not all end within " + WAIT + "; ended: " + ended.keySet()
                            + "; qstat: " + run(ssh, login, List.of("qstat", "-u", "*")));
                }
                Thread.sleep(500);
            }
        }
        return ended;
    }

    private static String run(SshPool ssh, SshTarget login, List<String> argv) {
        RemoteResult result = ssh.exec(login, argv, COMMAND_TIMEOUT);
        if (!result.succeeded()) {
            fail(String.join(" ", argv) + " on the login node failed: " + result);
        }
        return result.stdoutText();
    }
}
