package dev.gantry.hosts.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Interconnect;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.Resources;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Table tests: each row is a sample host, a plan, the configured runtime and the findings that are not OK. */
class PlanFitTest {
    private static final Map<String, Plan> PLANS = Map.of(
            "h100x8", Plans.plan(Plans.ND_H100_V5),
            "h100x8-2nodes", Plans.plan(Plans.ND_H100_V5, Resources.defaults(), 2),
            "h100-ib-explicit", Plans.plan(Plans.ND_H100_V5, Resources.builder().gpus(8)
                    .interconnect(Interconnect.INFINIBAND).build(), 1),
            "a10", Plans.plan(Plans.NV_A10_V5),
            "a10-needs-40gib", Plans.plan(Plans.NV_A10_V5, Resources.builder().gpuMemoryGib(40).build(), 1),
            "mi300x", Plans.plan(Plans.ND_MI300X_V5),
            "mi300x-2nodes", Plans.plan(Plans.ND_MI300X_V5, Resources.defaults(), 2),
            "cpu", Plans.plan(Plans.D4S_V5),
            "cpu-needs-8vcpus-64gib", Plans.plan(Plans.D4S_V5, Resources.builder().gpus(0).vcpus(8).memoryGib(64)
                    .build(), 1));

    @ParameterizedTest(name = "{0} host, {1} plan, {2}")
    @CsvSource(delimiter = '|', value = {
        // host          | plan                   | runtime | findings that are not OK
        "h100x8-ib       | h100x8                 | docker  | ''",
        "h100x8-ib       | h100x8-2nodes          | docker  | ''",
        "h100x8-ib       | h100x8                 | podman  | container.runtime=MISSING container.nvidia-runtime=MISSING",
        "h100x8-ib       | a10                    | none    | ''",
        "a10-no-toolkit  | a10                    | docker  | container.nvidia-runtime=MISSING",
        "a10-no-toolkit  | a10                    | none    | ''",
        "a10-no-toolkit  | a10-needs-40gib        | none    | gpu.memory=MISSING",
        "a10-no-toolkit  | h100x8                 | docker  | gpu.count=MISSING gpu.memory=MISSING container.nvidia-runtime=MISSING cpu.vcpus=WARN memory=WARN",
        "a10-no-toolkit  | h100x8-2nodes          | none    | gpu.count=MISSING gpu.memory=MISSING infiniband=MISSING cpu.vcpus=WARN memory=WARN",
        "a10-no-toolkit  | h100-ib-explicit       | none    | gpu.count=MISSING gpu.memory=MISSING infiniband=MISSING cpu.vcpus=WARN memory=WARN",
        "cpu-only        | cpu                    | none    | disk=WARN",
        "cpu-only        | cpu                    | docker  | container.runtime=MISSING disk=WARN",
        "cpu-only        | cpu-needs-8vcpus-64gib | none    | cpu.vcpus=MISSING memory=MISSING disk=WARN",
        "cpu-only        | a10                    | none    | gpu.count=MISSING gpu.vendor=MISSING gpu.memory=MISSING gpu.driver=MISSING cpu.vcpus=WARN memory=WARN disk=WARN",
        "mi300x          | mi300x                 | docker  | boot.marker=WARN",
        "mi300x          | mi300x-2nodes          | docker  | boot.marker=WARN",
        "mi300x          | h100x8                 | docker  | gpu.count=MISSING gpu.vendor=MISSING gpu.memory=MISSING gpu.driver=MISSING container.nvidia-runtime=MISSING boot.marker=WARN",
        "h100x8-ib       | mi300x                 | docker  | gpu.count=MISSING gpu.vendor=MISSING gpu.memory=MISSING gpu.driver=MISSING",
    })
    void findings(String host, String plan, String runtime, String notOk) {
        List<ProbeFinding> findings = PlanFit.evaluate(ProbeReportTest.host(host, "/mnt/gantry"), PLANS.get(plan),
                runtime);
        assertEquals(Arrays.stream(Check.values()).filter(c -> c != Check.PROBE).toList(),
                findings.stream().map(ProbeFinding::check).toList(), "one finding per check, in order");
        assertEquals(notOk, findings.stream().filter(f -> f.status() != FindingStatus.OK)
                .map(f -> f.check().checkName() + "=" + f.status()).collect(Collectors.joining(" ")));
        findings.forEach(f -> assertEquals(f.status() == FindingStatus.OK, f.fix().isEmpty(),
                f.check().checkName() + ": a fix exactly when not OK"));
    }

    @Test
    void explicitResourcesAreNeededExactlyAndSizesNominally() {
        HostFacts h100 = ProbeReportTest.host("h100x8-ib", "/mnt/gantry");
        List<ProbeFinding> nominal = PlanFit.evaluate(h100, PLANS.get("h100x8"), "docker");
        // 79.6 GiB reported meets 90% of the size's nominal 80 GiB.
        assertEquals(new ProbeFinding(Check.GPU_MEMORY, FindingStatus.OK, "79.6 GiB per GPU",
                ">= 72 GiB per GPU (plan: Standard_ND96isr_H100_v5)", ""), nominal.get(2));
        Plan exact = Plans.plan(Plans.ND_H100_V5, Resources.builder().gpuMemoryGib(80).build(), 1);
        ProbeFinding strict = PlanFit.evaluate(h100, exact, "docker").get(2);
        assertEquals(FindingStatus.MISSING, strict.status());
        assertEquals(">= 80 GiB per GPU (workload resources.gpuMemoryGib)", strict.needed());
    }

    @Test
    void a10WithoutToolkitPointsAtTheBootScript() {
        List<ProbeFinding> findings = PlanFit.evaluate(ProbeReportTest.host("a10-no-toolkit", "/w"), PLANS.get("a10"),
                "docker");
        ProbeFinding toolkit = findings.get(5);
        assertEquals(new ProbeFinding(Check.CONTAINER_NVIDIA_RUNTIME, FindingStatus.MISSING,
                "no NVIDIA Container Toolkit (nvidia-ctk not installed)", "NVIDIA Container Toolkit for docker",
                PlanFit.DRIVER_FIX), toolkit);
        assertEquals(List.of(Problem.of("container", "container.nvidia-runtime: host has no NVIDIA Container Toolkit "
                + "(nvidia-ctk not installed), needs NVIDIA Container Toolkit for docker; fix: " + PlanFit.DRIVER_FIX)),
                PlanFit.problems(findings));
    }

    @Test
    void toolkitWithoutRegisteredRuntimeWarnsWithTheConfigureCommand() {
        HostFacts h100 = ProbeReportTest.host("h100x8-ib", "/w");
        String output = Samples.sample("reports/h100x8-ib.txt").replace("Runtimes: io.containerd.runc.v2 nvidia runc",
                "Runtimes: io.containerd.runc.v2 runc");
        HostFacts unregistered = ProbeReport.parse(output, "/w");
        assertTrue(h100.docker().listsNvidiaRuntime());
        ProbeFinding f = PlanFit.evaluate(unregistered, PLANS.get("h100x8"), "docker").get(5);
        assertEquals(FindingStatus.WARN, f.status());
        assertEquals("NVIDIA Container Toolkit 1.13.5, docker lists only: io.containerd.runc.v2 runc", f.found());
        assertEquals("sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker", f.fix());
    }

    @Test
    void podmanNeedsTheCdiSpec() {
        String withPodman = Samples.sample("reports/h100x8-ib.txt")
                .replace("===gantry-probe:cdi-specs===\n", "===gantry-probe:cdi-specs===\n/etc/cdi/nvidia.yaml")
                .replace("===gantry-probe:podman-info===\ngantry-probe: podman: not installed\n\n"
                        + "===gantry-probe-end:podman-info:127===", "===gantry-probe:podman-info===\n"
                        + Samples.sample("podman-info/crun.json") + "\n===gantry-probe-end:podman-info:0===");
        HostFacts facts = ProbeReport.parse(withPodman, "/w");
        assertEquals(List.of("/etc/cdi/nvidia.yaml"), facts.cdiSpecs());
        List<ProbeFinding> findings = PlanFit.evaluate(facts, PLANS.get("h100x8"), "podman");
        assertEquals("", findings.stream().filter(f -> f.status() != FindingStatus.OK)
                .map(f -> f.check().checkName()).collect(Collectors.joining(" ")));
        ProbeFinding noSpec = PlanFit.evaluate(ProbeReport.parse(withPodman.replace("/etc/cdi/nvidia.yaml", ""), "/w"),
                PLANS.get("h100x8"), "podman").get(5);
        assertEquals(FindingStatus.MISSING, noSpec.status());
        assertEquals("sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml", noSpec.fix());
    }

    @Test
    void problemsNameSpecPathsAndSkipWarnings() {
        List<ProbeFinding> findings = PlanFit.evaluate(ProbeReportTest.host("cpu-only", "/w"),
                PLANS.get("a10"), "none");
        assertEquals(List.of("resources.gpus", "resources.gpuVendor", "resources.gpuMemoryGib", "resources.gpus"),
                PlanFit.problems(findings).stream().map(Problem::path).toList());
        assertTrue(PlanFit.problems(findings).get(0).message().startsWith("gpu.count: host has no GPUs visible, needs "
                + "1 NVIDIA GPU (plan: Standard_NV36ads_A10_v5); fix: use an image with the driver"),
                PlanFit.problems(findings).get(0).message());
    }

    @Test
    void parseProblemsBecomeWarnings() {
        String output = Samples.sample("reports/a10-no-toolkit.txt").replace("NVIDIA A10, 23028, 535.129.03",
                "NVIDIA A10, 23028, 535.129.03\nNVIDIA A10");
        List<ProbeFinding> findings = PlanFit.survey(ProbeReport.parse(output, "/w"), "none");
        ProbeFinding last = findings.get(findings.size() - 1);
        assertEquals(Check.PROBE, last.check());
        assertEquals(FindingStatus.WARN, last.status());
        assertEquals("nvidia-smi: line 2: expected 'NAME, MEMORY_MIB, DRIVER', got 'NVIDIA A10'", last.found());
    }

    @Test
    void unknownRuntimeIsAConfigError() {
        GantryException e = assertThrows(GantryException.class, () -> PlanFit.evaluate(
                ProbeReportTest.host("cpu-only", "/w"), PLANS.get("cpu"), "containerd"));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals("containerRuntime: must be one of docker, podman, none, got 'containerd'", e.getMessage());
    }

    @Test
    void surveyNeedsTheHostsOwnDriverAndToolkit() {
        List<ProbeFinding> a10 = PlanFit.survey(ProbeReportTest.host("a10-no-toolkit", "/w"), "docker");
        assertEquals("container.nvidia-runtime=MISSING", a10.stream().filter(f -> f.status() != FindingStatus.OK)
                .map(f -> f.check().checkName() + "=" + f.status()).collect(Collectors.joining(" ")));
        assertEquals(GpuVendor.NVIDIA, ProbeReportTest.host("a10-no-toolkit", "/w").gpuVendor().orElseThrow());
    }

    @Test
    void aDriverThatIsNotLoadedIsMissingWithNvidiaSmisOwnWords() {
        String output = Samples.sample("reports/a10-no-toolkit.txt")
                .replace("===gantry-probe:nvidia-smi===\n" + Samples.sample("nvidia-smi/a10.csv")
                        + "\n\n===gantry-probe-end:nvidia-smi:0===", "===gantry-probe:nvidia-smi===\n"
                        + Samples.sample("nvidia-smi/header-no-driver.txt") + "\n\n===gantry-probe-end:nvidia-smi:9===");
        HostFacts facts = ProbeReport.parse(output, "/w");
        assertEquals(List.of(), facts.gpus());
        List<ProbeFinding> findings = PlanFit.evaluate(facts, PLANS.get("a10"), "none");
        ProbeFinding driver = findings.get(3);
        assertEquals(Check.GPU_DRIVER, driver.check());
        assertEquals(FindingStatus.MISSING, driver.status());
        assertTrue(driver.found().startsWith("nvidia-smi exit 9: NVIDIA-SMI has failed because it couldn't "
                + "communicate with the NVIDIA driver."), driver.found());
        assertEquals(PlanFit.DRIVER_FIX, findings.get(0).fix(), "no GPU visible: the count points at the driver");
    }
}
