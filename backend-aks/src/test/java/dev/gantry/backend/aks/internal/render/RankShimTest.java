package dev.gantry.backend.aks.internal.render;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The shim run by this machine's /bin/sh, as the kubelet hands it over (every {@code $$} back to {@code $}). */
class RankShimTest {
    /** Runs the container's command as the kubelet would, with the given environment, and returns its output. */
    private static String run(List<String> argv, Map<String, String> env) throws IOException, InterruptedException {
        List<String> command = RankShim.command(argv).stream().map(text -> text.replace("$$", "$")).toList();
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove(RankShim.REQUEUES_VARIABLE);
        builder.environment().putAll(env);
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), out);
        return out;
    }

    private static List<String> printResume() {
        return List.of("sh", "-c", "printf %s \"$GANTRY_RESUME\"");
    }

    @Test
    void aFirstRunKeepsTheContractsResume() throws Exception {
        assertEquals("0", run(printResume(), Map.of("GANTRY_RESUME", "0")));
        assertEquals("0", run(printResume(), Map.of("GANTRY_RESUME", "0", RankShim.REQUEUES_VARIABLE, "")),
                "the downward API gives an empty value while the annotation is absent");
        assertEquals("0", run(printResume(), Map.of("GANTRY_RESUME", "0", RankShim.REQUEUES_VARIABLE, "0")));
        assertEquals("1", run(printResume(), Map.of("GANTRY_RESUME", "1")), "a resumed attempt stays resumed");
    }

    @Test
    void aRequeuedRankResumes() throws Exception {
        assertEquals("1", run(printResume(), Map.of("GANTRY_RESUME", "0", RankShim.REQUEUES_VARIABLE, "1")));
        assertEquals("1", run(printResume(), Map.of("GANTRY_RESUME", "0", RankShim.REQUEUES_VARIABLE, "3")));
    }

    @Test
    void theArgvArrivesVerbatimThroughTheShim() throws Exception {
        List<String> argv = new ArrayList<>(List.of("printf", "<%s>\\n"));
        argv.addAll(KitArguments.HOSTILE);
        String expected = KitArguments.HOSTILE.stream().map(a -> "<" + a + ">\n").collect(Collectors.joining());
        assertEquals(expected, run(argv, Map.of()));
    }

    @Test
    void aMissingProgramExitsWith127UnderTheShimsName() throws Exception {
        List<String> command = RankShim.command(List.of("gantry-no-such-program")).stream()
                .map(text -> text.replace("$$", "$")).toList();
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(127, process.waitFor(), out);
    }
}
