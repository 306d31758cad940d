package dev.gantry.hosts.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.GpuVendor;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Whole probe outputs of four kinds of host, parsed into facts. */
class ProbeReportTest {

    static HostFacts host(String name, String workDir) {
        return ProbeReport.parse(Samples.sample("reports/" + name + ".txt"), workDir);
    }

    @ParameterizedTest
    @ValueSource(strings = {"h100x8-ib", "a10-no-toolkit", "cpu-only", "mi300x"})
    void factsAndSurveyAreGolden(String name) {
        HostFacts facts = host(name, "/mnt/gantry");
        Samples.assertGolden("doctor-" + name + ".json",
                DoctorJson.render(name + ".example.net", facts, PlanFit.survey(facts, "docker")));
    }

    @Test
    void h100HostWithInfiniband() {
        HostFacts facts = host("h100x8-ib", "/mnt/gantry");
        assertEquals(Optional.of(new OsRelease("ubuntu", "Ubuntu", "22.04", "Ubuntu 22.04.4 LTS")), facts.os());
        assertEquals(Optional.of("5.15.0-1061-azure"), facts.kernel());
        assertEquals(96, facts.cpus().getAsInt());
        assertEquals(1814.2, facts.memoryGib().getAsDouble(), 0.05);
        assertEquals(new DiskSpace("/mnt/gantry", "/mnt", 6966.6), round(facts.disk().orElseThrow()));
        assertEquals(8, facts.gpus(GpuVendor.NVIDIA).size());
        assertEquals(Optional.of(GpuVendor.NVIDIA), facts.gpuVendor());
        assertEquals(Optional.of("535.129.03"), facts.nvidiaDriver());
        assertEquals(Optional.of("12.2"), facts.cudaVersion());
        assertEquals(Optional.of("1.13.5"), facts.nvidiaCtkVersion());
        assertTrue(facts.docker().listsNvidiaRuntime());
        assertEquals(ContainerEngine.State.ABSENT, facts.podman().state());
        assertEquals(9, facts.infinibandPorts().size());
        assertEquals(8, facts.activeInfinibandPorts().size(), "the Ethernet port is not an InfiniBand port");
        assertEquals(BootMarker.State.READY, facts.bootMarker().state());
        assertEquals(List.of(), facts.problems());
    }

    @Test
    void a10HostWithoutToolkit() {
        HostFacts facts = host("a10-no-toolkit", "/home/azureuser/gantry");
        assertEquals(1, facts.gpus().size());
        assertEquals(ToolRun.Outcome.NOT_INSTALLED, facts.tool("nvidia-ctk").outcome());
        assertEquals(Optional.empty(), facts.nvidiaCtkVersion());
        assertEquals(List.of("io.containerd.runc.v2", "runc"), facts.docker().runtimes());
        assertEquals(BootMarker.State.ABSENT, facts.bootMarker().state());
        assertEquals(List.of(), facts.problems());
    }

    @Test
    void cpuOnlyHost() {
        HostFacts facts = host("cpu-only", "/home/azureuser/gantry");
        assertEquals(List.of(), facts.gpus());
        assertEquals(Optional.empty(), facts.gpuVendor());
        assertEquals(ToolRun.Outcome.NOT_INSTALLED, facts.tool("nvidia-smi").outcome());
        assertEquals(ContainerEngine.State.UNREACHABLE, facts.docker().state());
        assertEquals(4, facts.cpus().getAsInt());
        assertEquals(12.0, facts.disk().orElseThrow().freeGib(), 0.05);
        assertEquals(List.of(), facts.problems());
    }

    @Test
    void mi300xHost() {
        HostFacts facts = host("mi300x", "/mnt/gantry");
        assertEquals(8, facts.gpus(GpuVendor.AMD).size());
        assertEquals(Optional.of(GpuVendor.AMD), facts.gpuVendor());
        assertEquals(Optional.empty(), facts.cudaVersion());
        assertEquals(new BootMarker(BootMarker.State.FAILED, Optional.of("2026-11-21T17:40:55Z"),
                List.of("step:pull-image")), facts.bootMarker());
        assertEquals(List.of(), facts.problems());
    }

    @Test
    void missingAndBrokenSectionsBecomeProblems() {
        String output = Samples.sample("reports/cpu-only.txt").replace("===gantry-probe:cpus===\n4",
                "===gantry-probe:cpus===\nfour");
        String truncated = output.substring(0, output.indexOf("===gantry-probe:ibv_devinfo==="));
        HostFacts facts = ProbeReport.parse(truncated, "/w");
        assertEquals(List.of("cpus: expected a positive number of CPUs from nproc, got 'four'",
                "ibv_devinfo: section missing from the probe output",
                "ready-marker: section missing from the probe output"),
                facts.problems().stream().map(ProbeProblem::toString).sorted().toList());
        assertEquals(ToolRun.Outcome.NOT_PROBED, facts.tool("ibv_devinfo").outcome());
        assertEquals(BootMarker.State.UNREADABLE, facts.bootMarker().state());
    }

    @Test
    void garbageGivesProblemsNotExceptions() {
        HostFacts facts = ProbeReport.parse("bash: sh: command not found\n", "/w");
        assertEquals(ProbeScript.SECTIONS.size() + 1, facts.problems().size());
        assertEquals(Optional.empty(), facts.os());
    }

    private static DiskSpace round(DiskSpace d) {
        return new DiskSpace(d.path(), d.mountPoint(), Math.round(d.freeGib() * 10) / 10.0);
    }
}
