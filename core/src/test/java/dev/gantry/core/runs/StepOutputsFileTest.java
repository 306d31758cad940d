package dev.gantry.core.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Workload;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The wrapper of a step with outputs, run by this machine's /bin/sh as a job would run it. */
class StepOutputsFileTest {
    @TempDir
    Path tmp;

    private record Ran(int code, List<String> lines) {
    }

    private Ran run(String... command) throws Exception {
        Workload workload = StepOutputs.collecting(Workload.builder("w").phase(Phase.TRAINING).model(ModelClass.SMALL)
                .command(List.of(command)).build());
        ProcessBuilder builder = new ProcessBuilder(workload.command()).redirectErrorStream(true);
        builder.environment().put("TMPDIR", tmp.toString());
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(20, TimeUnit.SECONDS));
        return new Ran(process.exitValue(), out.lines().toList());
    }

    @Test
    void linesWrittenToTheFileArePrintedAsOutputsAfterTheProgramAndItsCodeIsKept() throws Exception {
        Ran ran = run("sh", "-c", "echo working; echo 'MODEL_URI=blob://store/model 7' >> \"$GANTRY_OUTPUTS\"; "
                + "printf 'NOT A LINE\\nSCORE=0.91' >> \"$GANTRY_OUTPUTS\"; exit 3");
        assertEquals(3, ran.code());
        assertEquals(List.of("working", "gantry-output MODEL_URI=blob://store/model 7", "gantry-output SCORE=0.91"),
                ran.lines(), "a last line without a newline counts; one without NAME= is not an output");
        assertEquals(Map.of("MODEL_URI", "blob://store/model 7", "SCORE", "0.91"), StepOutputs.parse(ran.lines()));
        try (var left = Files.list(tmp)) {
            assertEquals(0, left.count(), "the outputs file is removed");
        }
    }

    @Test
    void theProgramGetsItsArgumentsVerbatimAndASigtermPassedOn() throws Exception {
        Ran verbatim = run("printf", "%s|", "a b", "$HOME", "'q'", "*", "");
        assertEquals(List.of("a b|$HOME|'q'|*||"), verbatim.lines());

        Path ready = tmp.resolve("ready");
        Workload workload = StepOutputs.collecting(Workload.builder("w").phase(Phase.TRAINING)
                .model(ModelClass.SMALL).command("sh", "-c", "trap 'echo SAVED=yes >> \"$GANTRY_OUTPUTS\"; exit 0' "
                        + "TERM; touch " + ready + "; while :; do sleep 0.1; done").build());
        Path output = Files.createTempFile("gantry-outputs-test", ".log");
        ProcessBuilder builder = new ProcessBuilder(workload.command()).redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().put("TMPDIR", tmp.toString());
        Process process = builder.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!Files.exists(ready)) {
            assertTrue(System.nanoTime() < deadline, "the program did not start");
            Thread.sleep(20);
        }
        process.destroy(); // SIGTERM to the wrapper only, as a container's stop sends it to PID 1
        assertTrue(process.waitFor(10, TimeUnit.SECONDS));
        String out = Files.readString(output);
        Files.delete(output);
        assertEquals(0, process.exitValue(), out);
        assertEquals(List.of("gantry-output SAVED=yes"), out.lines().toList(),
                "the program got the SIGTERM, saved, and its output was collected");
    }
}
