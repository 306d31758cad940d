package dev.gantry.backend.cyclecloud.internal.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.JobDependency;
import dev.gantry.backend.cyclecloud.internal.login.LoginScript;
import dev.gantry.hosts.jobs.JobVariables;
import dev.gantry.ssh.ShellQuoting;
import dev.gantry.testing.GoldenFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SlurmBatchScriptTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden/slurm");
    private static final String RANK_SH = LoginScript.resource(LoginScript.class, "rank.sh");
    private static final String BODY_SH = LoginScript.resource(SlurmBatchScript.class, "batch-body.sh");

    /**
     * A workload's command whose words mean something to a shell: each must reach the workload as it is, and the
     * two that would run {@code touch injected} must run nothing.
     */
    private static final List<String> HOSTILE = List.of("python3", "train.py", "it's \"quoted\"", "$(id)", "`id`",
            "$(touch injected)", "`touch injected`", "line one\nline two", "", "--lr=0.1", "-n", "$HOME", "a;b|c&d",
            "*", "\\", "grüße 模型 🚀", " leading and trailing blanks ");

    @TempDir
    Path temp;

    private static SlurmBatchScript oneNodeCpu(String jobDir, String slurmBin, String workDir) {
        SbatchDirectives directives = new SbatchDirectives("job-fit-1", Optional.empty(), 1, 1, 0,
                SbatchDirectives.GpuRequest.GPUS_PER_NODE, 8, 0, Optional.empty(), jobDir, false, false, List.of(),
                Optional.empty(), Optional.empty(), Optional.empty());
        return new SlurmBatchScript(directives, "job-fit-1", jobDir, slurmBin, Optional.of(workDir), HOSTILE,
                Optional.empty());
    }

    private static SlurmBatchScript twoNodeSpotGpu() {
        String dir = "/shared/gantry/jobs/job-train-7";
        SbatchDirectives directives = new SbatchDirectives("job-train-7", Optional.of("gpu"), 2, 1, 8,
                SbatchDirectives.GpuRequest.GPUS_PER_NODE, 96, 1_843_200, Optional.of(Duration.ofHours(30)), dir,
                true, true, List.of(new SbatchDirectives.Dependency(JobDependency.Condition.AFTER_SUCCESS, "41"),
                        new SbatchDirectives.Dependency(JobDependency.Condition.AFTER_ANY, "42")),
                Optional.of("ml-team"), Optional.of("high"), Optional.of("gantry-depends-on=job-prep,job-data"));
        return new SlurmBatchScript(directives, "job-train-7", dir, "/opt/slurm/bin/",
                Optional.of("/shared/home/alice/llm"), List.of("bash", "-c", "torchrun --nnodes=$GANTRY_NUM_NODES "
                + "--node_rank=$NODE_RANK --nproc_per_node=$GANTRY_GPUS_PER_NODE --master_addr=$MASTER_ADDR "
                + "--master_port=$MASTER_PORT train.py"), Optional.empty());
    }

    private static SlurmBatchScript pyxis(String jobDir, String slurmBin) {
        SbatchDirectives directives = new SbatchDirectives("job-tune-3", Optional.of("gpu"), 1, 1, 8,
                SbatchDirectives.GpuRequest.GRES, 96, 0, Optional.empty(), jobDir, false, true, List.of(),
                Optional.empty(), Optional.empty(), Optional.empty());
        return new SlurmBatchScript(directives, "job-tune-3", jobDir, slurmBin, Optional.empty(),
                List.of("python", "train.py", "--resume-from", "/shared/checkpoints/run-7"),
                Optional.of(new PyxisContainer("nvcr.io/nvidia/pytorch:24.01-py3",
                        List.of("/shared/checkpoints/run-7"))));
    }

    @Test
    void oneNodeCpuJobWithHostileArgvAndAWorkingDirectory() {
        GOLDEN.assertMatches("one-node-cpu-hostile-argv.sh", oneNodeCpu("/shared/gantry/jobs/job-fit-1", "",
                "/shared/home/alice/project").text());
    }

    @Test
    void twoNodeSpotGpuJobWithDependencies() {
        GOLDEN.assertMatches("two-node-spot-gpu.sh", twoNodeSpotGpu().text());
    }

    @Test
    void pyxisContainerJobWithItsCheckpointMounted() {
        GOLDEN.assertMatches("pyxis-container.sh", pyxis("/shared/gantry/jobs/job-tune-3", "").text());
    }

    @Test
    void theScriptIsItsHeaderThreeAssignmentsTheFixedBodyAndTheSrunLine() {
        String text = twoNodeSpotGpu().text();
        assertTrue(text.startsWith("#!/bin/bash\n#SBATCH --job-name=job-train-7\n"), text);
        assertTrue(text.contains("\njob_dir=/shared/gantry/jobs/job-train-7\nslurm_bin=/opt/slurm/bin/\n"
                + "rank_script=" + ShellQuoting.quote(RANK_SH) + "\n" + BODY_SH), text);
        assertTrue(text.endsWith(" </dev/null &\nwait $!\nfinish $?\n"), text);
    }

    @Test
    void aScriptNeedsACommandAndASlurmBinThatEndsInASlash() {
        SbatchDirectives directives = new SbatchDirectives("job-x", Optional.empty(), 1, 1, 0,
                SbatchDirectives.GpuRequest.GRES, 1, 0, Optional.empty(), "/shared/job-x", false, false, List.of(),
                Optional.empty(), Optional.empty(), Optional.empty());
        assertThrows(IllegalArgumentException.class, () -> new SlurmBatchScript(directives, "job-x", "/shared/job-x",
                "", Optional.empty(), List.of(), Optional.empty()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SlurmBatchScript(
                directives, "job-x", "/shared/job-x", "/opt/slurm/bin", Optional.empty(), List.of("true"),
                Optional.empty()));
        assertEquals("slurmBin ends in '/': /opt/slurm/bin", e.getMessage());
    }

    /**
     * What srun, and after it the rank script and the workload, receive when the script's srun line runs in a real
     * shell: every word as rendered, none run.
     */
    @ParameterizedTest
    @ValueSource(strings = {"/bin/sh", "/bin/bash"})
    void everySrunWordArrivesByteForByteAndNoInjectedCommandRuns(String shell) throws Exception {
        Path bin = fakeCommands();
        String jobDir = jobDirectory(false).toString();
        String workDir = temp.resolve("work").toString();
        SlurmBatchScript script = oneNodeCpu(jobDir, bin + "/", workDir);
        assertEquals(0, runSrunLine(shell, script, bin));
        List<String> expected = new ArrayList<>(List.of("--export=ALL", "--ntasks-per-node=1", "--kill-on-bad-exit=1",
                "--output=" + jobDir + "/rank-%t.out", "--error=" + jobDir + "/rank-%t.err", "--", "/bin/sh", "-c",
                RANK_SH, "gantry-rank", jobDir, workDir));
        expected.addAll(HOSTILE);
        assertEquals(expected, nulSeparated(temp.resolve("log/srun.argv")));
        assertEquals(HOSTILE.subList(1, HOSTILE.size()), nulSeparated(temp.resolve("log/workload.argv")));
        assertNothingInjected();
    }

    @Test
    void theContainersSrunOptionsArriveAsOneWordEachBeforeTheCommand() throws Exception {
        Path bin = fakeCommands();
        Files.writeString(temp.resolve("log/srun-records-only"), "");
        String jobDir = temp.resolve("jobs/job-tune-3").toString();
        SlurmBatchScript script = pyxis(jobDir, bin + "/");
        assertEquals(0, runSrunLine("/bin/sh", script, bin));
        List<String> argv = nulSeparated(temp.resolve("log/srun.argv"));
        assertEquals(List.of("--container-image=nvcr.io#nvidia/pytorch:24.01-py3",
                "--container-mounts=" + jobDir + ":" + jobDir + ",/shared/checkpoints/run-7:/shared/checkpoints/run-7",
                "--"), argv.subList(5, 8));
        assertEquals(List.of("gantry-rank", jobDir, "-", "python", "train.py", "--resume-from",
                "/shared/checkpoints/run-7"), argv.subList(11, argv.size()));
    }

    /** The whole script under bash, with fake srun and scontrol, as Slurm runs it on the first node. */
    @Test
    void aFirstRunRecordsItsStartRunsTheRankAndRecordsItsExitThenRemovesTheEnvironment() throws Exception {
        Run run = run(Map.of(), true);
        assertEquals(3, run.exitCode, run.output);
        String[] started = Files.readString(run.jobDir.resolve("started")).strip().split(" ");
        assertEquals("4242", started[0]);
        assertEquals("0", started[1]);
        assertBetween(run, started[2]);
        String[] exit = Files.readString(run.jobDir.resolve("exit")).strip().split(" ");
        assertEquals("3", exit[0]);
        assertBetween(run, exit[1]);
        assertEquals("0", exit[2]);
        assertFalse(Files.exists(run.jobDir.resolve("env")), "the environment file is removed at the end");
        assertEquals(List.of(), leftovers(run.jobDir, "failure-", ".started", ".exit"));
    }

    @Test
    void theWorkloadGetsItsWordsItsEnvironmentAndTheFirstNodesAddress() throws Exception {
        Run run = run(Map.of(), true);
        assertEquals(HOSTILE.subList(1, HOSTILE.size()), nulSeparated(temp.resolve("log/workload.argv")));
        assertEquals(List.of("MASTER_ADDR=10.1.0.7", "MASTER_PORT=29500", "GANTRY_RESUME=0", "RANK=0", "NODE_RANK=0",
                "GANTRY_NODE_RANK=0", "LOCAL_RANK=0", "TOKEN=s3cr3t 'x' $(id)", "PWD=" + temp.resolve("work")),
                Files.readAllLines(temp.resolve("log/workload.env")));
        assertEquals("stdout of rank 0\n", Files.readString(run.jobDir.resolve("rank-0.out")));
        assertEquals("stderr of rank 0\n", Files.readString(run.jobDir.resolve("rank-0.err")));
        assertEquals(List.of("show hostnames gantry-c[1-2]", "show node -o gantry-c1"),
                Files.readAllLines(temp.resolve("log/scontrol.calls")));
        assertNothingInjected();
    }

    @Test
    void aRequeuedRunResumesAndClearsThePreviousRunsFailures() throws Exception {
        Run run = run(Map.of("SLURM_RESTART_COUNT", "1"), true, "failure-0");
        assertEquals(3, run.exitCode, run.output);
        assertTrue(Files.readAllLines(temp.resolve("log/workload.env")).contains("GANTRY_RESUME=1"));
        assertEquals("1", Files.readString(run.jobDir.resolve("started")).strip().split(" ")[1]);
        assertEquals("1", Files.readString(run.jobDir.resolve("exit")).strip().split(" ")[2]);
        assertFalse(Files.exists(run.jobDir.resolve("failure-0")), "the first run's failure is not this run's");
    }

    @Test
    void withoutItsEnvironmentFileTheJobRunsNothingAndSaysWhy() throws Exception {
        Run run = run(Map.of(), false);
        assertEquals(122, run.exitCode, run.output);
        assertEquals("gantry: " + run.jobDir + "/env is missing: the job was cancelled or its environment removed\n",
                Files.readString(run.jobDir.resolve("failure-batch")));
        assertEquals("122", Files.readString(run.jobDir.resolve("exit")).split(" ")[0]);
        assertFalse(Files.exists(temp.resolve("log/srun.argv")), "srun did not run");
    }

    @Test
    void aCommandThatIsNotThereFailsWithARankFailureRecord() throws Exception {
        Path bin = fakeCommands();
        Path jobDir = jobDirectory(true);
        SlurmBatchScript script = new SlurmBatchScript(oneNodeCpu(jobDir.toString(), "", temp.resolve("work")
                .toString()).directives(), "job-fit-1", jobDir.toString(), "", Optional.empty(), List.of("trian.py"),
                Optional.empty());
        Run run = execute(script, bin, jobDir, Map.of());
        assertEquals(127, run.exitCode, run.output);
        String failure = Files.readString(jobDir.resolve("failure-0"));
        assertTrue(failure.startsWith("gantry: command not found: trian.py (rank 0 on "), failure);
        assertEquals(failure, Files.readString(jobDir.resolve("rank-0.err")));
    }

    /**
     * A node taken down under a requeueable job can end its srun, even with 0, before the script is signalled: the
     * run Slurm requeues records no exit and keeps the environment for the next one.
     */
    @ParameterizedTest(name = "{0}, Requeue={1}: a requeued run {2}")
    @CsvSource({"REQUEUED, 1, true", "PENDING, 1, true", "RUNNING, 1, false", "REQUEUED, 0, false"})
    void ranksThatEndWhileSlurmRequeuesTheJobLeaveNoExitRecord(String state, int requeue, boolean requeued)
            throws Exception {
        Files.createDirectories(temp.resolve("log"));
        Files.writeString(temp.resolve("log/job-state"), state);
        Files.writeString(temp.resolve("log/requeue"), Integer.toString(requeue));
        Run run = run(Map.of(), true);
        assertEquals(requeued, Files.exists(run.jobDir.resolve("env")), run.output);
        assertEquals(!requeued, Files.exists(run.jobDir.resolve("exit")), run.output);
    }

    /**
     * Slurm signals the batch script (SIGTERM) on a requeue, a cancel and at the time limit alike. A job being
     * requeued with {@code scontrol requeue} is COMPLETING, then PENDING (seen on the test cluster's Slurm 22.05): a
     * requeueable job still COMPLETING keeps its environment, as one still RUNNING does.
     */
    @ParameterizedTest(name = "{0}, Requeue={1}: environment kept {2}")
    @CsvSource({"REQUEUED, 1, true", "REQUEUE_HOLD, 1, true", "PENDING, 1, true", "PREEMPTED, 1, true",
        "NODE_FAIL, 0, false", "PREEMPTED, 0, false", "CANCELLED, 1, false", "TIMEOUT, 1, false",
        "COMPLETING, 1, true", "COMPLETING, 0, false", "RUNNING, 1, true", "RUNNING, 0, false"})
    void aStopForARequeueKeepsTheEnvironmentAndAStopForGoodRemovesIt(String state, int requeue, boolean kept)
            throws Exception {
        Path bin = fakeCommands();
        Files.writeString(temp.resolve("log/job-state"), state);
        Files.writeString(temp.resolve("log/requeue"), Integer.toString(requeue));
        Files.writeString(temp.resolve("log/srun-waits"), "");
        Path jobDir = jobDirectory(true);
        Path script = jobDir.resolve("job.sh");
        Files.writeString(script, oneNodeCpu(jobDir.toString(), "", temp.resolve("work").toString()).text());
        Process process = start(script, bin, Map.of());
        try {
            waitFor(temp.resolve("log/srun.argv"));
            process.destroy(); // SIGTERM
            assertTrue(process.waitFor(20, TimeUnit.SECONDS));
            assertEquals(143, process.exitValue());
        } finally {
            process.destroyForcibly();
            Files.writeString(temp.resolve("log/srun-stop"), "");
        }
        assertEquals(kept, Files.exists(jobDir.resolve("env")));
        assertFalse(Files.exists(jobDir.resolve("exit")), "a stopped run records no exit");
    }

    /** The script's assignments (everything above its body), then its srun line, in {@code shell -c}. */
    private int runSrunLine(String shell, SlurmBatchScript script, Path bin) throws Exception {
        String text = script.text();
        String line = text.substring(0, text.indexOf(BODY_SH)) + String.join(" ", script.srun()) + "\n";
        ProcessBuilder builder = new ProcessBuilder(shell, "-c", line).directory(temp.toFile())
                .redirectErrorStream(true);
        builder.environment().put("PATH", bin + ":/usr/bin:/bin");
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(20, TimeUnit.SECONDS), output);
        assertEquals("", output);
        return process.exitValue();
    }

    private record Run(int exitCode, String output, Path jobDir, Instant before, Instant after) {
    }

    private Run run(Map<String, String> env, boolean withEnvFile, String... staleFiles) throws Exception {
        Path bin = fakeCommands();
        Path jobDir = jobDirectory(withEnvFile);
        for (String stale : staleFiles) {
            Files.writeString(jobDir.resolve(stale), "gantry: from an earlier run\n");
        }
        return execute(oneNodeCpu(jobDir.toString(), "", temp.resolve("work").toString()), bin, jobDir, env);
    }

    private Run execute(SlurmBatchScript script, Path bin, Path jobDir, Map<String, String> env) throws Exception {
        Path file = jobDir.resolve("job.sh");
        Files.writeString(file, script.text());
        Instant before = Instant.now().minusSeconds(1);
        Process process = start(file, bin, env);
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), output);
        return new Run(process.exitValue(), output, jobDir, before, Instant.now().plusSeconds(1));
    }

    /** bash runs the script as sbatch would: in the job directory, with Slurm's variables and nothing else. */
    private Process start(Path script, Path bin, Map<String, String> env) throws IOException {
        ProcessBuilder builder = new ProcessBuilder("/bin/bash", script.toString()).directory(script.getParent()
                .toFile()).redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().put("PATH", bin + ":/usr/bin:/bin");
        builder.environment().put("HOME", temp.toString());
        builder.environment().put("SLURM_JOB_ID", "4242");
        builder.environment().put("SLURM_JOB_NODELIST", "gantry-c[1-2]");
        builder.environment().putAll(env);
        return builder.start();
    }

    /** The job directory as submit.sh leaves it: the script's directory, with the 0600 environment file. */
    private Path jobDirectory(boolean withEnvFile) throws IOException {
        Files.createDirectories(temp.resolve("work"));
        Path jobDir = Files.createDirectories(temp.resolve("jobs/job-fit-1"));
        if (withEnvFile) {
            Map<String, String> env = new LinkedHashMap<>();
            env.put("GANTRY_RESUME", "0");
            env.put("MASTER_PORT", "29500");
            env.put("TOKEN", "s3cr3t 'x' $(id)");
            env.put("WORKLOAD_EXIT", "3");
            Path file = jobDir.resolve("env");
            Files.write(file, JobVariables.environmentFile(env));
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        }
        return jobDir;
    }

    /**
     * Fake srun (records its argv, then runs the command after {@code --} as rank 0 on node 0 with its output where
     * srun's options say), scontrol (two nodes, the first at 10.1.0.7) and the workload's python3 (records its argv
     * and environment), in {@code bin}; their records in {@code log}.
     */
    private Path fakeCommands() throws IOException {
        Path bin = Files.createDirectories(temp.resolve("bin"));
        Path log = Files.createDirectories(temp.resolve("log"));
        executable(bin.resolve("srun"), """
                #!/bin/sh
                log=LOG
                printf '%s\\0' "$@" >"$log/.srun.argv" && mv "$log/.srun.argv" "$log/srun.argv"
                [ -e "$log/srun-records-only" ] && exit 0
                if [ -e "$log/srun-waits" ]; then
                  n=0
                  while [ -d "$log" ] && [ ! -e "$log/srun-stop" ] && [ "$n" -lt 600 ]; do
                    sleep 0.05
                    n=$((n + 1))
                  done
                  exit 0
                fi
                out= err=
                while [ $# -gt 0 ]; do
                  case $1 in
                    --output=*) out=$(printf '%s' "${1#--output=}" | sed 's/%t/0/') ;;
                    --error=*) err=$(printf '%s' "${1#--error=}" | sed 's/%t/0/') ;;
                    --) shift; break ;;
                  esac
                  shift
                done
                SLURM_PROCID=0 SLURM_NODEID=0
                export SLURM_PROCID SLURM_NODEID
                exec "$@" >"$out" 2>"$err"
                """.replace("LOG", log.toString()));
        executable(bin.resolve("scontrol"), """
                #!/bin/sh
                log=LOG
                case "$1 $2" in
                  "show job") printf 'JobId=%s JobName=job-fit-1 JobState=%s Reason=None Requeue=%s Restarts=0\\n' "$4" \
                      "$(cat "$log/job-state" 2>/dev/null || echo RUNNING)" \
                      "$(cat "$log/requeue" 2>/dev/null || echo 1)"; exit 0 ;;
                esac
                printf '%s\\n' "$*" >>"$log/scontrol.calls"
                case "$1 $2" in
                  "show hostnames") printf 'gantry-c1\\ngantry-c2\\n' ;;
                  "show node") printf 'NodeName=%s Arch=x86_64 CoresPerSocket=1 CPUAlloc=8 CPUTot=8 Gres=(null) \
                NodeAddr=10.1.0.7 NodeHostName=%s Version=23.02.7 OS=Linux\\n' "$4" "$4" ;;
                esac
                """.replace("LOG", log.toString()));
        executable(bin.resolve("python3"), """
                #!/bin/sh
                log=LOG
                printf '%s\\0' "$@" >"$log/workload.argv"
                for name in MASTER_ADDR MASTER_PORT GANTRY_RESUME RANK NODE_RANK GANTRY_NODE_RANK LOCAL_RANK TOKEN PWD
                do
                  eval "printf '%s=%s\\n' $name \\"\\${$name-unset}\\""
                done >"$log/workload.env"
                echo "stdout of rank $RANK"
                echo "stderr of rank $RANK" >&2
                exit "${WORKLOAD_EXIT:-0}"
                """.replace("LOG", log.toString()));
        return bin;
    }

    private static void executable(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
    }

    private void assertNothingInjected() throws IOException {
        try (Stream<Path> files = Files.walk(temp)) {
            List<Path> injected = files.filter(f -> f.getFileName().toString().equals("injected")).toList();
            assertEquals(List.of(), injected, "a command in an argument ran");
        }
        assertFalse(Files.exists(Path.of("injected")), "a command in an argument ran in the build's directory");
    }

    private static void assertBetween(Run run, String epochSeconds) {
        Instant at = Instant.ofEpochSecond(Long.parseLong(epochSeconds));
        assertTrue(!at.isBefore(run.before) && !at.isAfter(run.after), at + " not within the run");
    }

    private static List<String> leftovers(Path dir, String... prefixes) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(name -> Arrays.stream(prefixes).anyMatch(name::startsWith)).toList();
        }
    }

    private static List<String> nulSeparated(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        List<String> words = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                words.add(new String(bytes, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        assertEquals(bytes.length, start, "every word ends with a NUL");
        return words;
    }

    private static void waitFor(Path file) throws InterruptedException {
        for (int i = 0; i < 400 && !Files.exists(file); i++) {
            Thread.sleep(50);
        }
        assertTrue(Files.exists(file), file + " did not appear");
    }
}
