package dev.gantry.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.Gantry;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.model.JobRecord;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Platform code tested against the manual backend's local transport, as docs/library.md shows: the jobs run on this
 * machine as processes, their records and output under a temporary home.
 */
class FirstProgramTest {
    @TempDir
    Path home;

    // tag::test[]
    /** A Gantry that sees nothing of the machine's configuration: no GANTRY_* variable, no ~/.gantry, no gantry.yaml. */
    private Gantry localGantry() {
        return Gantry.builder()
                .environment(Map.of())
                .home(home)                                  // state database and job output under home/.gantry
                .workingDirectory(home)
                .override("backend", "manual")
                .override("backends.manual.transport", "local")
                .build();
    }

    @Test
    void helloRunsOnThisMachineAndKeepsItsLabel() throws Exception {
        try (Gantry gantry = localGantry()) {
            JobRecord done = FirstProgram.runHello(gantry, "hello-test");
            assertEquals(JobState.SUCCEEDED, done.state(), done.message());
            assertEquals(Map.of("team", "platform"), done.labels());
            List<String> output = new ArrayList<>();
            gantry.logs(done.id(), LogOptions.all(), line -> output.add(line.text()));
            assertEquals(1, output.size(), output.toString());
            assertTrue(output.get(0).startsWith("hello from ") && output.get(0).contains("hello-test"), output.get(0));
        }
    }
    // end::test[]

    @Test
    void theSameKeyGivesTheSameJob() throws Exception {
        try (Gantry gantry = localGantry()) {
            JobRecord first = FirstProgram.runHello(gantry, "hello-twice");
            JobRecord again = FirstProgram.runHello(gantry, "hello-twice");
            assertEquals(first.id(), again.id());
            assertEquals(first.createdAt(), again.createdAt(), "not submitted a second time");
            assertEquals(1, gantry.storedJobs().size());
        }
    }

    @Test
    void aRunListenerHearsEachStepOfTheWorkflow() throws Exception {
        Path spec = Files.writeString(home.resolve("two-steps.yaml"), """
                apiVersion: gantry.dev/v1
                kind: Workflow
                metadata: {name: two-steps}
                spec:
                  steps:
                    - name: prepare
                      workload: {phase: training, model: small, command: [sh, -c, "echo preparing"]}
                    - name: train
                      dependsOn: [prepare]
                      workload: {phase: training, model: small, command: [sh, -c, "echo training"]}
                """);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try (Gantry gantry = Gantry.builder().environment(Map.of()).home(home).workingDirectory(home)
                .override("runs.pollInterval", "1s").build()) {
            assertEquals("SUCCEEDED", FollowRun.follow(gantry, spec).state().name());
        } finally {
            System.setOut(stdout);
        }
        String text = printed.toString(StandardCharsets.UTF_8);
        // The backend may hold train, submitted early, until prepare ends: train ends after prepare either way.
        int prepared = text.indexOf("prepare: SUCCEEDED (attempt 1)");
        assertTrue(prepared >= 0 && text.indexOf("train: SUCCEEDED (attempt 1)") > prepared, text);
    }
}
