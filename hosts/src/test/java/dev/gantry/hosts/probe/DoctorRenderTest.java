package dev.gantry.hosts.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.hosts.json.internal.Json;
import java.util.List;
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
    void jsonRoundTripsThroughTheReader() throws Exception {
        HostFacts facts = ProbeReportTest.host("h100x8-ib", "/mnt/gantry");
        String json = DoctorJson.render("gpu-1 \"lab\"", facts, PlanFit.evaluate(facts, Plans.plan(Plans.ND_H100_V5),
                "docker"));
        JsonNode root = Json.parse(json);
        assertEquals("gpu-1 \"lab\"", root.get("host").textValue());
        assertEquals(Boolean.TRUE, root.get("ok").booleanValue());
        JsonNode parsedFacts = root.get("facts");
        assertEquals(8, parsedFacts.get("gpus").size());
        assertEquals(96.0, parsedFacts.get("cpus").doubleValue());
        assertEquals(11, root.get("findings").size());
        assertTrue(json.endsWith("}\n"));
    }

    @Test
    void jsonWithAMissingFindingIsNotOk() throws Exception {
        HostFacts facts = ProbeReportTest.host("cpu-only", "/w");
        JsonNode root = Json.parse(DoctorJson.render("h", facts,
                PlanFit.evaluate(facts, Plans.plan(Plans.D4S_V5), "docker")));
        assertEquals(Boolean.FALSE, root.get("ok").booleanValue());
        JsonNode facts2 = root.get("facts");
        assertTrue(facts2.get("cudaVersion").isNull());
        assertEquals("unreachable", facts2.get("docker").get("state").textValue());
    }
}
