package dev.gantry.backend.manual.internal.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DoctorRenderTest {

    @Test
    void tableForAnA10HostAgainstAnH100PlanIsGolden() {
        List<ProbeFinding> findings = PlanFit.evaluate(ProbeReportTest.host("a10-no-toolkit", "/home/azureuser/gantry"),
                Plans.plan(Plans.ND_H100_V5), "docker");
        String table = DoctorTable.render(findings);
        Samples.assertGolden("table-a10-vs-h100-plan.txt", table);
        assertEquals("6 OK, 3 MISSING, 2 WARN", DoctorTable.summary(findings));
    }

    @Test
    void tableForTheH100HostSurveyIsGolden() {
        Samples.assertGolden("table-h100x8-ib-survey.txt",
                DoctorTable.render(PlanFit.survey(ProbeReportTest.host("h100x8-ib", "/mnt/gantry"), "docker")));
    }

    @Test
    void tableCellsStayOnOneLineWithoutTrailingSpaces() {
        String table = DoctorTable.render(List.of(
                new ProbeFinding(Check.PROBE, FindingStatus.WARN, "line one\nline\ttwo", "x", "fix it"),
                ProbeFinding.ok(Check.DISK, "90 GiB", "")));
        assertEquals("""
                CHECK  STATUS  FOUND              NEEDED  FIX
                probe  WARN    line one line two  x       fix it
                disk   OK      90 GiB                     -
                """, table);
        table.lines().forEach(line -> assertFalse(line.endsWith(" "), line));
    }

    @Test
    void jsonEscapesToolOutput() {
        StringBuilder out = new StringBuilder();
        JsonText.quote("say \"hi\"\\ \n\t\u0001\u2028", out);
        assertEquals("\"say \\\"hi\\\"\\\\ \\n\\t\\u0001\\u2028\"", out.toString());
    }

    @Test
    void jsonRoundTripsThroughTheReader() throws Exception {
        HostFacts facts = ProbeReportTest.host("h100x8-ib", "/mnt/gantry");
        String json = DoctorJson.render("gpu-1 \"lab\"", facts, PlanFit.evaluate(facts, Plans.plan(Plans.ND_H100_V5),
                "docker"));
        Map<?, ?> root = (Map<?, ?>) JsonReader.parse(json);
        assertEquals("gpu-1 \"lab\"", root.get("host"));
        assertEquals(Boolean.TRUE, root.get("ok"));
        Map<?, ?> parsedFacts = (Map<?, ?>) root.get("facts");
        assertEquals(8, ((List<?>) parsedFacts.get("gpus")).size());
        assertEquals(96.0, parsedFacts.get("cpus"));
        assertEquals(11, ((List<?>) root.get("findings")).size());
        assertTrue(json.endsWith("}\n"));
    }

    @Test
    void jsonWithAMissingFindingIsNotOk() throws Exception {
        HostFacts facts = ProbeReportTest.host("cpu-only", "/w");
        Map<?, ?> root = (Map<?, ?>) JsonReader.parse(DoctorJson.render("h", facts,
                PlanFit.evaluate(facts, Plans.plan(Plans.D4S_V5), "docker")));
        assertEquals(Boolean.FALSE, root.get("ok"));
        Map<?, ?> facts2 = (Map<?, ?>) root.get("facts");
        assertEquals(null, facts2.get("cudaVersion"));
        assertEquals("unreachable", ((Map<?, ?>) facts2.get("docker")).get("state"));
    }

    @Test
    void readerRejectsMalformedJsonWithTheOffset() {
        JsonReader.MalformedJson e = org.junit.jupiter.api.Assertions.assertThrows(JsonReader.MalformedJson.class,
                () -> JsonReader.parse("{\"a\": [1, 2,]}"));
        assertEquals("malformed JSON at offset 12: expected a value, found ']'", e.getMessage());
        org.junit.jupiter.api.Assertions.assertThrows(JsonReader.MalformedJson.class,
                () -> JsonReader.parse("{\"a\": 1} trailing"));
    }

    @Test
    void readerDecodesEscapesAndLiterals() throws Exception {
        assertEquals(Map.of("s", "a\"b\\c\nd\u00e9", "t", true, "n", -1.5e2),
                JsonReader.parse("{\"s\": \"a\\\"b\\\\c\\nd\\u00e9\", \"t\": true, \"n\": -1.5e2}"));
        assertEquals(java.util.Arrays.asList(null, false), JsonReader.parse("[null, false]"));
    }

    @Test
    void readerLimitsNesting() throws Exception {
        String deep = "[".repeat(JsonReader.MAX_DEPTH) + "]".repeat(JsonReader.MAX_DEPTH);
        assertTrue(JsonReader.parse(deep) instanceof List);
        String hostile = "[".repeat(100_000);
        JsonReader.MalformedJson e = org.junit.jupiter.api.Assertions.assertThrows(JsonReader.MalformedJson.class,
                () -> JsonReader.parse(hostile));
        assertEquals("malformed JSON at offset 64: nested deeper than 64", e.getMessage());
    }
}
