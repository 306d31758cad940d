package dev.gantry.backend.cyclecloud.internal.gridengine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.JobDependency;
import dev.gantry.backend.cyclecloud.internal.GoldenFiles;
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
                jobDir.toString(), "", requireSuccess, Optional.of(temp.toString()), command);
    }

    @Test
    void aSpotJobWithADependencyAndHostileWords() {
        List<String> command = new ArrayList<>(List.of("printf", "<%s>\\n"));
        command.addAll(HOSTILE);
        GridEngineBatchScript script = new GridEngineBatchScript(directives("/shared/gantry/jobs/job-fit-1", true,
                List.of(new QsubDirectives.Dependency(JobDependency.Condition.AFTER_SUCCESS, "41"),
                        new QsubDirectives.Dependency(JobDependency.Condition.AFTER_ANY, "42"))), "job-fit-1",
                "/shared/gantry/jobs/job-fit-1", "/opt/sge/bin/", List.of("job-prep"),
                Optional.of("/shared/home/alice/project"), command);
        GoldenFiles.assertMatches("gridengine/batch/spot-with-dependencies.sh", script.text().lines().toList());
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
        assertThrows(IllegalArgumentException.class, () -> new GridEngineBatchScript(d, "job-x", "/shared/job-x", "",
                List.of("job-a; touch x"), Optional.empty(), List.of("true")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new GridEngineBatchScript(d,
                "job-x", "/shared/job-x", "/opt/sge/bin", List.of(), Optional.empty(), List.of("true")));
        assertEquals("geBin ends in '/': /opt/sge/bin", e.getMessage());
    }

    @Test
    void wordsWithControlCharactersTakeBashsEscapedForm() {
        assertEquals("'plain word'", GridEngineBatchScript.oneLine("plain word"));
        assertEquals("$'a\\nb\\tc\\\\d\\'e\\x07'", GridEngineBatchScript.oneLine("a\nb\tc\\d'e\u0007"));
    }

    private Path jobDirectory() throws IOException {
        Path dir = Files.createDirectories(temp.resolve("jobs/job-fit-1"));
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
