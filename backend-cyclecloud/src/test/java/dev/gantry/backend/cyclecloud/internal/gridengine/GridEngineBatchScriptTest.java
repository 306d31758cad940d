package dev.gantry.backend.cyclecloud.internal.gridengine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.JobDependency;
import dev.gantry.testing.GoldenFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GridEngineBatchScriptTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden");
    /** Words that mean something to a shell, or to qsub on a line of their own. */
    private static final List<String> HOSTILE = List.of("it's \"quoted\"", "$(touch injected)", "`touch injected`",
            "line one\nline two", "x\n#$ -N hijacked\n#$ -q nowhere", "", "-n", "$HOME", "a;b|c&d", "*", "\\",
            "tab\there", "bell\u0007", "grüße 模型 🚀", " leading and trailing blanks ");

    @TempDir
    Path temp;

    private static QsubDirectives directives(String dir, boolean spot, List<QsubDirectives.Dependency> holds) {
        return new QsubDirectives("job-fit-1", Optional.of("all.q"), Optional.of("ml-team"), 4, Optional.of("smp"),
                Optional.empty(), 2048, "h_vmem", 0, "gpu", false, dir, spot, holds);
    }

    private GridEngineBatchScript script(Path jobDir, List<String> requireSuccess, List<String> command) {
        return new GridEngineBatchScript(directives(jobDir.toString(), true, List.of(
                new QsubDirectives.Dependency(JobDependency.Condition.AFTER_SUCCESS, "41"))), "job-fit-1",
                jobDir.toString(), 1, "", requireSuccess, Optional.of(temp.toString()), command);
    }

    @Test
    void aSpotJobWithADependencyAndHostileWords() {
        List<String> command = new ArrayList<>(List.of("printf", "<%s>\\n"));
        command.addAll(HOSTILE);
        GridEngineBatchScript script = new GridEngineBatchScript(directives("/shared/gantry/jobs/job-fit-1", true,
                List.of(new QsubDirectives.Dependency(JobDependency.Condition.AFTER_SUCCESS, "41"),
                        new QsubDirectives.Dependency(JobDependency.Condition.AFTER_ANY, "42"))), "job-fit-1",
                "/shared/gantry/jobs/job-fit-1", 1, "/opt/sge/bin/", List.of("job-prep"),
                Optional.of("/shared/home/alice/project"), command);
        GOLDEN.assertLines("gridengine/batch/spot-with-dependencies.sh", script.text().lines().toList());
    }

    /** qsub reads a #$ line anywhere in a script: only the header may have one. */
    @Test
    void noWordOfTheCommandStartsALineThatQsubWouldRead() {
        List<String> command = new ArrayList<>(List.of("true"));
        command.addAll(HOSTILE);
        String text = script(temp.resolve("job-fit-1"), List.of(), command).text();
        List<String> directiveLines = text.lines().filter(l -> l.startsWith("#$")).toList();
        assertEquals(directives(temp.resolve("job-fit-1").toString(), true, List.of(
                new QsubDirectives.Dependency(JobDependency.Condition.AFTER_SUCCESS, "41"))).lines(), directiveLines);
    }

    @Test
    void theRankGetsEveryWordByteForByteAndTheRunIsRecorded() throws Exception {
        Path dir = jobDirectory();
        List<String> command = new ArrayList<>(List.of("printf", "<%s>\\n"));
        command.addAll(HOSTILE);
        int code = run(script(dir, List.of(), command), dir, Map.of("JOB_ID", "17"));
        assertEquals(0, code);
        StringBuilder expected = new StringBuilder();
        HOSTILE.forEach(w -> expected.append('<').append(w).append(">\n"));
        assertEquals(expected.toString(), Files.readString(dir.resolve("rank-0.out"), StandardCharsets.UTF_8));
        assertEquals("17 0", Files.readString(dir.resolve("started")).strip().substring(0, 4));
        assertEquals("0", Files.readString(dir.resolve("exit")).split(" ")[0]);
        assertFalse(Files.exists(dir.resolve("env")), "the environment file is removed at the end");
        assertFalse(Files.exists(temp.resolve("injected")), "an injected command ran");
    }

    @Test
    void theWorkloadGetsItsEnvironmentAndTheContractsVariables() throws Exception {
        Path dir = jobDirectory();
        int code = run(script(dir, List.of(), List.of("sh", "-c", "echo \"$TOKEN|$RANK|$NODE_RANK|$MASTER_ADDR|"
                + "$GANTRY_RESUME|$PWD\"")), dir, Map.of("JOB_ID", "17"));
        assertEquals(0, code);
        assertEquals("s3cr3t 'x' $(id)|0|0|" + hostname() + "|0|" + temp + "\n",
                Files.readString(dir.resolve("rank-0.out")));
    }

    @Test
    void aRerunCountsOneMoreRunAndResumes() throws Exception {
        Path dir = jobDirectory();
        Files.writeString(dir.resolve("started"), "17 0 1700000000\n");
        Files.writeString(dir.resolve("failure-0"), "gantry: the first run's failure\n");
        int code = run(script(dir, List.of(), List.of("sh", "-c", "echo $GANTRY_RESUME; exit 4")), dir,
                Map.of("JOB_ID", "17", "RESTARTED", "1"));
        assertEquals(4, code);
        assertEquals("1\n", Files.readString(dir.resolve("rank-0.out")));
        assertEquals("1", Files.readString(dir.resolve("started")).split(" ")[1]);
        assertEquals("4", Files.readString(dir.resolve("exit")).split(" ")[0]);
        assertEquals("1", Files.readString(dir.resolve("exit")).strip().split(" ")[2]);
        assertFalse(Files.exists(dir.resolve("failure-0")), "the first run's failure is not this run's");
    }

    @Test
    void aDependencyThatFailedKeepsTheWorkloadFromRunningAndSaysWhich() throws Exception {
        Path dir = jobDirectory();
        Path prep = Files.createDirectories(temp.resolve("jobs/job-prep"));
        Files.writeString(prep.resolve("exit"), "3 1700000000 0\n");
        Path ok = Files.createDirectories(temp.resolve("jobs/job-ok"));
        Files.writeString(ok.resolve("exit"), "0 1700000000 0\n");
        int code = run(script(dir, List.of("job-ok", "job-prep"), List.of("touch", temp.resolve("ran").toString())),
                dir, Map.of("JOB_ID", "18"));
        assertEquals(125, code);
        assertEquals("job-prep 3\n", Files.readString(dir.resolve("unsatisfied")));
        assertFalse(Files.exists(temp.resolve("ran")), "the workload must not run");
        assertFalse(Files.exists(dir.resolve("env")));
    }

    @Test
    void aDependencyWithoutAnExitRecordDidNotSucceed() throws Exception {
        Path dir = jobDirectory();
        Files.createDirectories(temp.resolve("jobs/job-killed"));
        assertEquals(125, run(script(dir, List.of("job-killed"), List.of("true")), dir, Map.of("JOB_ID", "19")));
        assertEquals("job-killed none\n", Files.readString(dir.resolve("unsatisfied")));
    }

    @Test
    void onlyGantryIdsCanBeRequiredAndTheDirectoryOfCommandsEndsInASlash() {
        QsubDirectives d = directives("/shared/job-x", false, List.of());
        assertThrows(IllegalArgumentException.class, () -> new GridEngineBatchScript(d, "job-x", "/shared/job-x", 1, "",
                List.of("job-a; touch x"), Optional.empty(), List.of("true")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new GridEngineBatchScript(d,
                "job-x", "/shared/job-x", 1, "/opt/sge/bin", List.of(), Optional.empty(), List.of("true")));
        assertEquals("geBin ends in '/': /opt/sge/bin", e.getMessage());
    }

    @Test
    void aJobOfSeveralHostsNeedsAParallelEnvironment() {
        QsubDirectives one = new QsubDirectives("job-x", Optional.empty(), Optional.empty(), 1, Optional.empty(),
                Optional.empty(), 0, "h_vmem", 0, "gpu", false, "/shared/job-x", false, List.of());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new GridEngineBatchScript(
                one, "job-x", "/shared/job-x", 2, "", List.of(), Optional.empty(), List.of("true")));
        assertEquals("2 hosts need a parallel environment (-pe)", e.getMessage());
    }

    @Test
    void twoHostsOneRankEach() {
        GridEngineBatchScript script = new GridEngineBatchScript(twoHosts("/shared/gantry/jobs/job-fit-2"),
                "job-fit-2", "/shared/gantry/jobs/job-fit-2", 2, "/opt/sge/bin/", List.of(),
                Optional.of("/shared/home/alice/project"), List.of("torchrun", "--nnodes=$GANTRY_NUM_NODES",
                "it's"));
        GOLDEN.assertLines("gridengine/batch/two-hosts.sh", script.text().lines().toList());
    }

    /**
     * The other host's rank starts through qrsh -inherit, here a stand-in that does what Grid Engine's does with its
     * words: joins them into one line for a shell on the other host. The command still arrives word for word.
     */
    @Test
    void theOtherHostsRankGetsTheWordsTheEnvironmentAndItsRank() throws Exception {
        Path dir = jobDirectory("job-fit-2");
        List<String> command = new ArrayList<>(List.of("sh", "-c", "echo \"$TOKEN|$RANK|$NODE_RANK|$GANTRY_NODE_RANK|"
                + "$MASTER_ADDR|$GANTRY_RESUME|$PWD\"; printf '<%s>\\n' \"$@\"", "sh"));
        command.addAll(HOSTILE);
        int code = run(severalHosts(dir, command), dir, hostsFile(dir, "node-b"));
        assertEquals(0, code, Files.readString(temp.resolve("script.log")));
        StringBuilder words = new StringBuilder();
        HOSTILE.forEach(w -> words.append('<').append(w).append(">\n"));
        assertEquals("s3cr3t 'x' $(id)|0|0|0|" + hostname() + "|0|" + temp + "\n" + words,
                Files.readString(dir.resolve("rank-0.out")));
        assertEquals("s3cr3t 'x' $(id)|1|1|1|" + hostname() + "|0|" + temp + "\n" + words,
                Files.readString(dir.resolve("rank-1.out")));
        assertEquals("0", Files.readString(dir.resolve("exit")).split(" ")[0]);
        assertFalse(Files.exists(dir.resolve("env")), "the environment file is removed at the end");
        assertFalse(Files.exists(temp.resolve("injected")), "an injected command ran");
        assertEquals(List.of("-inherit -nostdin node-b /bin/bash " + dir + "/node.sh 1 " + hostname() + " 0"),
                Files.readAllLines(temp.resolve("qrsh.log")), "qrsh gets Gantry's words only, never the command's");
    }

    @Test
    void theFirstFailingRankEndsTheJobWithItsStatusAndStopsTheOthers() throws Exception {
        Path dir = jobDirectory("job-fit-2");
        int code = run(severalHosts(dir, List.of("sh", "-c", "if [ \"$NODE_RANK\" = 1 ]; then exit 7; fi; sleep 30")),
                dir, hostsFile(dir, "node-b"));
        assertEquals(7, code);
        assertEquals("7", Files.readString(dir.resolve("exit")).split(" ")[0]);
    }

    @Test
    void hostsOtherThanTheNodesAskedForAreAFailureThatSaysWhy() throws Exception {
        Path dir = jobDirectory("job-fit-2");
        int code = run(severalHosts(dir, List.of("touch", temp.resolve("ran").toString())), dir,
                hostsFile(dir, "node-b", "node-c"));
        assertEquals(123, code);
        assertEquals("gantry: Grid Engine granted the job 3 host(s) (" + hostname() + " node-b node-c), and it needs "
                + "2, one rank each: the parallel environment onepernode must allocate a fixed number of slots per "
                + "host (allocation_rule N, qconf -sp onepernode)\n", Files.readString(dir.resolve("failure-batch")));
        assertFalse(Files.exists(temp.resolve("ran")), "no rank runs");
    }

    private static QsubDirectives twoHosts(String dir) {
        return new QsubDirectives("job-fit-2", Optional.of("nodes.q"), Optional.empty(), 2,
                Optional.of("onepernode"), Optional.empty(), 4096, "h_vmem", 1, "gpu", false, dir, false, List.of());
    }

    /** A two-host script whose qrsh is {@code qrsh} in the temporary directory: it logs its words, then runs them. */
    private GridEngineBatchScript severalHosts(Path dir, List<String> command) throws IOException {
        Path bin = Files.createDirectories(temp.resolve("bin"));
        Path qrsh = bin.resolve("qrsh");
        Files.writeString(qrsh, "#!/bin/sh\necho \"$*\" >>'" + temp.resolve("qrsh.log") + "'\n"
                + "shift 3\nexec sh -c \"$*\"\n");
        assertTrue(qrsh.toFile().setExecutable(true));
        return new GridEngineBatchScript(twoHosts(dir.toString()), "job-fit-2", dir.toString(), 2, bin + "/",
                List.of(), Optional.of(temp.toString()), command);
    }

    /** The job's $PE_HOSTFILE: this host first, then the others, one slot each. */
    private Map<String, String> hostsFile(Path dir, String... others) throws Exception {
        StringBuilder lines = new StringBuilder(hostname() + " 1 nodes.q@" + hostname() + " UNDEFINED\n");
        for (String other : others) {
            lines.append(other).append(" 1 nodes.q@").append(other).append(" UNDEFINED\n");
        }
        Path file = Files.writeString(temp.resolve("pe_hostfile"), lines);
        return Map.of("JOB_ID", "20", "PE_HOSTFILE", file.toString(), "PE", "onepernode", "HOSTNAME", hostname());
    }

    @Test
    void wordsWithControlCharactersTakeBashsEscapedForm() {
        assertEquals("'plain word'", GridEngineBatchScript.oneLine("plain word"));
        assertEquals("$'a\\nb\\tc\\\\d\\'e\\x07'", GridEngineBatchScript.oneLine("a\nb\tc\\d'e\u0007"));
    }

    private Path jobDirectory() throws IOException {
        return jobDirectory("job-fit-1");
    }

    private Path jobDirectory(String id) throws IOException {
        Path dir = Files.createDirectories(temp.resolve("jobs/" + id));
        Files.writeString(dir.resolve("env"), "TOKEN='s3cr3t '\\''x'\\'' $(id)'\nGANTRY_RESUME=0\n");
        return dir;
    }

    private static String hostname() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("hostname").start();
        String name = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor();
        return name;
    }

    /** The script as Grid Engine's shepherd runs it: bash, in the job's directory, with the given variables. */
    private int run(GridEngineBatchScript script, Path dir, Map<String, String> env) throws Exception {
        Path file = dir.resolve("job.sh");
        Files.writeString(file, script.text());
        ProcessBuilder builder = new ProcessBuilder("/bin/bash", file.toString()).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(temp.resolve("script.log").toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the script ended");
        return process.exitValue();
    }
}
