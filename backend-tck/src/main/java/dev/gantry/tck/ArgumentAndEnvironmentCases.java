package dev.gantry.tck;

import static dev.gantry.tck.Kit.assertState;
import static dev.gantry.tck.Kit.key;
import static dev.gantry.tck.Kit.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Checkpoint;
import dev.gantry.api.Plan;
import dev.gantry.api.SecretRef;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.JobEnvironment;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.SubmitOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Arguments and environment: arguments, environment values and secrets arrive verbatim, the working directory is the
 * workload's, and every job sees the job-environment contract.
 */
abstract class ArgumentAndEnvironmentCases extends KitCases {
    /**
     * Arguments that a shell would change if a backend ever let one interpret them. Each must arrive verbatim.
     */
    static final List<String> HOSTILE_ARGUMENTS = List.of(
            "two words", "  leading and trailing  ", "it's", "say \"hi\"", "$HOME", "${PATH}", "$(id)", "`id`",
            "line one\nline two", "a;b", "a && b", "a | b", "*", "?", "[a]", "~", "~root", "-n", "--flag=x", "",
            "héllo wörld ✓ 日本", "back\\slash", "\\n", "tab\there", "#comment", "a>b", "<in", "!bang", "100%",
            "%s %d", "=", "end\\");

    ArgumentAndEnvironmentCases(Kit kit) {
        super(kit);
    }

    @Test
    void argumentsArriveVerbatim() throws Exception {
        List<String> argv = new ArrayList<>(List.of("printf", "<%s>\\n"));
        argv.addAll(HOSTILE_ARGUMENTS);
        JobRef job = kit.submit(workload("argv").command(argv).build());
        assertState(JobState.SUCCEEDED, kit.awaitEnd(job));
        String expected = HOSTILE_ARGUMENTS.stream().map(a -> "<" + a + ">").collect(Collectors.joining("\n"));
        assertEquals(expected, kit.text(job, LogLine.Stream.STDOUT));
    }

    @Test
    void environmentValuesArriveVerbatim() throws Exception {
        Map<String, String> env = new LinkedHashMap<>();
        for (int i = 0; i < HOSTILE_ARGUMENTS.size(); i++) {
            env.put("TCK_VALUE_" + i, HOSTILE_ARGUMENTS.get(i));
        }
        String script = env.keySet().stream().map(name -> "\"$" + name + "\"").collect(Collectors.joining(" "));
        JobRef job = kit.submit(workload("env").command("sh", "-c", "printf '<%s>\\n' " + script).env(env).build());
        assertState(JobState.SUCCEEDED, kit.awaitEnd(job));
        String expected = HOSTILE_ARGUMENTS.stream().map(a -> "<" + a + ">").collect(Collectors.joining("\n"));
        assertEquals(expected, kit.text(job, LogLine.Stream.STDOUT));
    }

    @Test
    void printenvSeesOneValue() throws Exception {
        JobRef job = kit.submit(workload("printenv").command("printenv", "TCK_ONE").env("TCK_ONE", "a b 'c' \"d\" $e")
                .build());
        assertState(JobState.SUCCEEDED, kit.awaitEnd(job));
        assertEquals("a b 'c' \"d\" $e", kit.text(job, LogLine.Stream.STDOUT));
    }

    @Test
    void secretsAreResolvedIntoTheEnvironmentAtSubmit() throws Exception {
        String value = "tck-secret-" + UUID.randomUUID();
        SecretRef ref = SecretRef.parse("env:TCK_SECRET_SOURCE");
        context.putSecret(ref, value);
        Workload w = workload("secret").command("sh", "-c", "printf '%s\\n' \"$TCK_TOKEN\" | tr a-z A-Z")
                .secret("TCK_TOKEN", ref).build();
        Plan plan = fixture.plan(w);
        assertFalse(plan.toString().contains(value), "the plan must hold the reference, not the value");
        JobRef job = kit.submit(plan, key("secret"));
        assertState(JobState.SUCCEEDED, kit.awaitEnd(job));
        // The job prints the value upper-cased, so the clear value must appear nowhere the backend stored.
        assertEquals(value.toUpperCase(java.util.Locale.ROOT), kit.text(job, LogLine.Stream.STDOUT));
        kit.assertSecretNotStored(value);
    }

    @Test
    void workingDirectoryIsHonoured() throws Exception {
        String dir = fixture.workingDirectory(context);
        JobRef job = kit.submit(workload("pwd").command("sh", "-c", "pwd").workingDir(dir).build());
        assertState(JobState.SUCCEEDED, kit.awaitEnd(job));
        assertEquals(dir, kit.text(job, LogLine.Stream.STDOUT));
    }

    @Test
    void theJobEnvironmentContractIsSet() throws Exception {
        // A path no host has yet: a container backend mounts it from the host, which must be able to create it.
        String checkpoint = context.scratchDirectory().resolve("checkpoint-" + UUID.randomUUID()).toString();
        Plan plan = fixture.plan(workload("contract").command(KitScripts.printContract())
                .checkpoint(new Checkpoint(checkpoint, Duration.ofMinutes(5))).build());
        JobRef job = kit.submit(plan, SubmitOptions.withKey(key("contract")).attempt(3).resuming(true));
        assertState(JobState.SUCCEEDED, kit.awaitEnd(job));
        Map<String, String> seen = new LinkedHashMap<>();
        for (String line : kit.lines(job, new LogOptions(false, OptionalInt.empty(), true, false))) {
            int eq = line.indexOf('=');
            seen.put(eq < 0 ? line : line.substring(0, eq), eq < 0 ? null : line.substring(eq + 1));
        }
        assertEquals(JobEnvironment.NAMES, List.copyOf(seen.keySet()), "one line per name: " + seen);
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put(JobEnvironment.JOB_ID, job.id());
        expected.put(JobEnvironment.ATTEMPT, "3");
        expected.put(JobEnvironment.RESUME, "1");
        expected.put(JobEnvironment.CHECKPOINT_DIR, checkpoint);
        expected.put(JobEnvironment.NODE_RANK_GANTRY, "0");
        expected.put(JobEnvironment.NUM_NODES, "1");
        expected.put(JobEnvironment.GPUS_PER_NODE, Integer.toString(
                plan.workload().resources().gpus().orElse(plan.gpusPerNode())));
        expected.put(JobEnvironment.MASTER_ADDR, seen.get(JobEnvironment.MASTER_ADDR));
        expected.put(JobEnvironment.MASTER_PORT, seen.get(JobEnvironment.MASTER_PORT));
        expected.put(JobEnvironment.WORLD_SIZE, "1");
        expected.put(JobEnvironment.NODE_RANK, "0");
        expected.put(JobEnvironment.RANK, "0");
        expected.put(JobEnvironment.LOCAL_RANK, "0");
        assertEquals(expected, seen);
        assertNotNull(seen.get(JobEnvironment.MASTER_ADDR), "MASTER_ADDR is set");
        assertFalse(seen.get(JobEnvironment.MASTER_ADDR).isBlank(), "MASTER_ADDR is an address");
        int port = Integer.parseInt(seen.get(JobEnvironment.MASTER_PORT));
        assertTrue(port >= 1 && port <= 65535, "MASTER_PORT is a port: " + port);
    }
}
