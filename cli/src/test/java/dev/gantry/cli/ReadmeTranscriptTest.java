package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The README convention ExampleReadmesTest runs, and what its mask does and does not hide. */
class ReadmeTranscriptTest {
    @Test
    void commandsComeFromConsoleBlocksOnlyWithTheirShownOutputLessLeftOutLines() {
        String readme = String.join("\n", "# Title", "```sh", "$ ./mvnw package", "```", "text", "```console",
                "$ ./gantry plan a.yaml", "a: 1 x Standard_E2as_v5", "...", "reasons:", "$ ./gantry run \"b c.yaml\"",
                "```", "```yaml", "backend: manual", "```", "");
        assertEquals(List.of(new ReadmeTranscript.Command("./gantry plan a.yaml", List.of("a: 1 x Standard_E2as_v5",
                        "reasons:")), new ReadmeTranscript.Command("./gantry run \"b c.yaml\"", List.of())),
                ReadmeTranscript.parse(readme).commands());
        assertEquals(List.of("./gantry", "run", "b c.yaml"), ExampleReadmesTest.words("./gantry run \"b c.yaml\""));
    }

    @Test
    void theMaskHidesWhatChangesFromRunToRun() {
        assertEquals(OutputMask.mask("17:57:03  finetune  submitting  attempt 2 as job "
                        + "fine-tune-here-20261205-175701-3255a6.finetune.2 on Spot in eastus"),
                OutputMask.mask("09:01:59 finetune submitting attempt 2 as job "
                        + "fine-tune-here-20261206-090158-0a1b2c.finetune.2 on Spot in eastus"));
        assertEquals(OutputMask.mask("run started 1 jobs, spec sha256:30c2212c5d23, commit a0d1e2e8863d with "
                + "uncommitted changes"), OutputMask.mask("run started 1 jobs, spec sha256:aaaaaaaaaaaa, commit "
                + "bbbbbbbbbbbb"));
        assertEquals(OutputMask.mask("finetune  SUCCEEDED  2  1  5.1s  $0.0000  attempt 2 succeeded"),
                OutputMask.mask("finetune SUCCEEDED 2 1 <1s $0.0001 attempt 2 succeeded"));
    }

    @Test
    void theMaskKeepsWhatTheExampleComputes() {
        assertNotEquals(OutputMask.mask("epoch 3/6  perplexity 5.18  checkpoint saved"),
                OutputMask.mask("epoch 3/6  perplexity 5.19  checkpoint saved"));
        assertNotEquals(OutputMask.mask("finetune  SUCCEEDED  2  1  5.1s"),
                OutputMask.mask("finetune  SUCCEEDED  1  0  5.1s"));
        assertNotEquals(OutputMask.mask("price $3.6047/h per node"), OutputMask.mask("price $3.6048/h per node"));
    }
}
