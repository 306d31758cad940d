package dev.gantry.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.HostCheck;
import dev.gantry.api.backend.HostReport;
import dev.gantry.hosts.probe.SettingNames;
import dev.gantry.tck.BackendFixture;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The probe script run for real on this machine, through the local transport. */
class HostDoctorTest {
    @TempDir
    Path work;

    @Test
    void probesThisMachineAndReportsItsFacts() {
        HostReport report = HostDoctor.examine(LocalHost.detect(), work.toString(), Optional.empty(), "none",
                SettingNames.UNNAMED);
        assertEquals("local", report.host());
        assertTrue(Integer.parseInt(report.facts().get("cpus")) >= 1, report.facts().toString());
        assertTrue(Double.parseDouble(report.facts().get("memoryGib")) > 0, report.facts().toString());
        assertTrue(report.facts().containsKey("kernel"), report.facts().toString());
        assertTrue(report.checks().stream().anyMatch(c -> c.name().equals("disk")), report.checks().toString());
    }

    @Test
    void aPlanBeyondTheMachineIsMissingWithAFix() {
        Workload huge = Workload.builder("huge").phase(Phase.TRAINING).model(ModelClass.SMALL)
                .resources(Resources.builder().vcpus(100_000).build()).command("true").build();
        Plan plan = Plan.builder(huge, BackendFixture.smallCpuSize()).build();
        HostReport report = HostDoctor.examine(LocalHost.detect(), work.toString(), Optional.of(plan), "none",
                SettingNames.UNNAMED);
        HostCheck vcpus = report.checks().stream().filter(c -> c.name().equals("cpu.vcpus")).findFirst()
                .orElseThrow(() -> new AssertionError(report.checks().toString()));
        assertEquals(HostCheck.Status.MISSING, vcpus.status(), vcpus.toString());
        assertTrue(vcpus.needed().contains("100000"), vcpus.toString());
        assertFalse(report.ok());
    }
}
