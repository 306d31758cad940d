package dev.gantry.runs.provision;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The Run Command message format against golden cases ({@code provision/runcommand/output.golden.json}). */
class RunCommandOutputTest {
    static JsonNode golden(String name) throws IOException {
        try (InputStream in = RunCommandOutputTest.class.getResourceAsStream("/provision/runcommand/" + name)) {
            return new ObjectMapper().readTree(in);
        }
    }

    static Stream<Arguments> cases() throws IOException {
        List<Arguments> cases = new ArrayList<>();
        golden("output.golden.json").forEach(c -> cases.add(Arguments.of(c.path("case").asText(), c)));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void splitsTheAgentsMessageIntoItsStreams(String name, JsonNode golden) {
        Optional<RunCommandOutput> parsed = RunCommandOutput.parse(List.of(golden.path("message").asText()));

        JsonNode expected = golden.path("output");
        if (expected.isNull()) {
            assertEquals(Optional.empty(), parsed);
        } else {
            assertEquals(Optional.of(new RunCommandOutput(expected.path("stdout").asText(),
                    expected.path("stderr").asText(), expected.path("status").asText())), parsed);
        }
    }

    @Test
    void theFirstMessageWithScriptOutputIsTheOneRead() {
        List<String> messages = new ArrayList<>();
        messages.add(null);
        messages.add("Provisioning succeeded");
        messages.add("Enable succeeded: \n[stdout]\nyes\n[stderr]\n\n");
        messages.add("Enable succeeded: \n[stdout]\nno\n[stderr]\n\n");

        assertEquals("yes", RunCommandOutput.parse(messages).orElseThrow().stdout());
    }
}
