package dev.gantry.runs.provision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.azure.fakes.ArmFake;
import dev.gantry.ssh.TestHosts;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What the host-key script printed, read as fingerprints ({@code provision/runcommand/host-keys.golden.json}). */
class HostKeyScriptTest {
    static Stream<Arguments> cases() throws IOException {
        List<Arguments> cases = new ArrayList<>();
        RunCommandOutputTest.golden("host-keys.golden.json")
                .forEach(c -> cases.add(Arguments.of(c.path("case").asText(), c)));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void readsTheMarkedKeyLines(String name, JsonNode golden) {
        Optional<RunCommandOutput> output = Optional.of(new RunCommandOutput(golden.path("stdout").asText(), "",
                "Enable succeeded"));
        if (golden.has("error")) {
            GantryException e = assertThrows(GantryException.class, () -> HostKeyScript.fingerprints("vm-1", output));
            assertEquals(ErrorCode.REMOTE_ERROR, e.code());
            assertTrue(e.getMessage().startsWith("Run Command on VM vm-1 "), e.getMessage());
            assertTrue(e.getMessage().contains(golden.path("error").asText()), e.getMessage());
        } else {
            List<String> expected = new ArrayList<>();
            golden.path("fingerprints").forEach(f -> expected.add(f.asText()));
            assertEquals(expected, HostKeyScript.fingerprints("vm-1", output));
        }
    }

    @Test
    void theArmFakeAnswersRunCommandWithTheMarkerThisScriptPrints() {
        assertEquals(HostKeyScript.MARKER, ArmFake.HOST_KEY_MARKER);
        assertEquals(VmTemplate.nicName("train-1"), "train-1-nic", "the fake's private-address control keys NICs so");
    }

    @Test
    void noScriptOutputSaysTheAgentMayNotRunYet() {
        GantryException e = assertThrows(GantryException.class,
                () -> HostKeyScript.fingerprints("vm-1", Optional.empty()));

        assertTrue(e.getMessage().contains("VM agent may not be running yet"), e.getMessage());
    }

    @Test
    void theScriptReadsEveryHostKeyFileAndTakesNoInput() {
        String script = String.join("\n", HostKeyScript.LINES);

        assertTrue(script.contains("/etc/ssh/ssh_host_*_key.pub"), script);
        assertTrue(script.contains("printf '" + HostKeyScript.MARKER + "%s\\n'"), script);
        assertTrue(!script.contains("$1") && !script.contains("$@"), "no parameters reach the script");
        assertTrue(script.indexOf("cloud-init status --wait") < script.indexOf("/etc/ssh/"),
                "the keys are read once cloud-init, which replaces them on first boot, is done: " + script);
    }

    @Test
    void theScriptPrintsWhatTheParserReadsWhenRunBySh() throws Exception {
        // The fixed script, run by a real sh, reading the key directory of the test host gantry-h1.
        String keys = TestHosts.stateDir().resolve("h1").toString();
        Process sh = new ProcessBuilder("sh", "-c", String.join("\n", HostKeyScript.LINES.stream()
                .map(line -> line.replace("/etc/ssh/", keys + "/"))
                .toList())).redirectErrorStream(true).start();
        String out = new String(sh.getInputStream().readAllBytes());
        assertEquals(0, sh.waitFor());

        assertEquals(List.of(TestHosts.host(1).fingerprint()), HostKeyScript.fingerprints("h1",
                Optional.of(new RunCommandOutput(out, "", "Enable succeeded"))));
    }
}
