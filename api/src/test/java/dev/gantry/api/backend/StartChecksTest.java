package dev.gantry.api.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Architecture;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.FabricCheck;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Interconnect;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which plans check what before their command, and the argv that carries it. */
class StartChecksTest {
    static final VmSize H100 = new VmSize("Standard_ND96isr_H100_v5", "ND", 96, 1900,
            Optional.of(new GpuSpec("H100", 8, 80, GpuVendor.NVIDIA)), true, Architecture.X64, Set.of("V2"));
    static final VmSize H200 = new VmSize("Standard_ND96isr_H200_v5", "ND", 96, 1850,
            Optional.of(new GpuSpec("H200", 8, 141, GpuVendor.NVIDIA)), true, Architecture.X64, Set.of("V2"));
    static final VmSize CPU = new VmSize("Standard_D4s_v5", "D", 4, 16, Optional.empty(), false, Architecture.X64,
            Set.of("V2"));
    /** Quotes, spaces, a newline, a dollar and a semicolon: none may reach a shell as text. */
    static final List<String> ARGV = List.of("python", "train.py", "--name=it's $HOME; rm -rf /", "two\nlines", "");

    static Plan plan(VmSize size, Phase phase, int nodes, FabricCheck check) {
        Resources.Builder resources = Resources.builder().nodes(nodes);
        size.gpu().ifPresent(g -> resources.gpus(g.count()));
        Workload workload = Workload.builder("train").phase(phase).model(ModelClass.SMALL).command(ARGV)
                .resources(resources.build()).fabricCheck(check).build();
        return Plan.builder(workload, size).nodes(nodes).build();
    }

    @Test
    void multiNodeRdmaTrainingChecksHealthAndFabricByDefaultWithThePublishedFloor() {
        Plan plan = plan(H100, Phase.TRAINING, 2, null);
        FabricFloor floor = StartChecks.fabricFloor(plan).orElseThrow();
        assertEquals(40.0, floor.busBandwidthGBps());
        assertEquals(16L << 30, floor.messageBytes());
        assertTrue(floor.source().contains("nd96isr_h100_v5.conf"), floor.source());
        List<String> argv = StartChecks.command(plan);
        assertEquals(List.of("/bin/sh", "-c", StartChecks.script(), StartChecks.SHELL_NAME, "8", "nvidia", "1", "1",
                "40", Long.toString(16L << 30), "5", "180", "Standard_ND96isr_H100_v5", floor.source(), "--"),
                argv.subList(0, 15));
        assertEquals(ARGV, argv.subList(15, argv.size()), "the workload's argv follows verbatim");
    }

    @Test
    void aSingleNodeJobAndAMultiNodeCpuJobRunTheirCommandAsItIs() {
        assertEquals(ARGV, StartChecks.command(plan(H100, Phase.TRAINING, 1, null)));
        assertEquals(ARGV, StartChecks.command(plan(CPU, Phase.TRAINING, 2, null)));
        assertFalse(StartChecks.healthCheck(plan(CPU, Phase.TRAINING, 2, null)));
    }

    @Test
    void inferenceAndSizesWithoutAPublishedFloorCheckOnlyTheNodesByDefault() {
        for (Plan plan : List.of(plan(H100, Phase.INFERENCE, 2, null), plan(H200, Phase.TRAINING, 2, null))) {
            assertEquals(Optional.empty(), StartChecks.fabricFloor(plan));
            assertTrue(StartChecks.healthCheck(plan));
            assertEquals("0", StartChecks.command(plan).get(7), "fabric off, node health on");
        }
    }

    @Test
    void fabricCheckFalseTurnsTheDefaultOff() {
        assertEquals(Optional.empty(), StartChecks.fabricFloor(plan(H100, Phase.TRAINING, 2, FabricCheck.off())));
    }

    @Test
    void aWorkloadFloorReplacesThePublishedOneAndWorksOnAnySize() {
        FabricFloor own = StartChecks.fabricFloor(plan(CPU, Phase.TRAINING, 2, FabricCheck.withFloor(0.5, 8)))
                .orElseThrow();
        assertEquals(new FabricFloor("Standard_D4s_v5", 0.5, 8L << 20,
                "the workload's fabricCheck.minBusBandwidthGBps"), own);
        List<String> argv = StartChecks.command(plan(CPU, Phase.TRAINING, 2, FabricCheck.withFloor(0.5, 8)));
        assertEquals(List.of("0", "none", "0", "1", "0.5", Long.toString(8L << 20)), argv.subList(4, 10),
                "a CPU size checks no GPU and no InfiniBand port, but the fabric");
        FabricFloor smaller = StartChecks.fabricFloor(plan(H100, Phase.INFERENCE, 2,
                new FabricCheck(true, Optional.empty(), Optional.of(1024)))).orElseThrow();
        assertEquals(40.0, smaller.busBandwidthGBps(), "the published floor, with the workload's message");
        assertEquals(1L << 30, smaller.messageBytes());
    }

    @Test
    void theCheckOnWhereNoFloorIsPublishedIsRefusedWithTheFix() {
        GantryException e = assertThrows(GantryException.class,
                () -> StartChecks.command(plan(H200, Phase.TRAINING, 2, FabricCheck.on())));
        assertEquals(ErrorCode.PLAN_REJECTED, e.code());
        assertEquals("fabricCheck: no published all-reduce floor for Standard_ND96isr_H200_v5 (Gantry has one for "
                + "Standard_ND96asr_v4, Standard_ND96amsr_A100_v4, Standard_ND96isr_H100_v5); give your own with "
                + "fabricCheck: {minBusBandwidthGBps: GBPS, messageMiB: MIB}, or set fabricCheck: false",
                e.getMessage());
    }

    @Test
    void theSameRefusalIsAProblemForValidationBeforeAnythingIsSubmitted() {
        assertEquals(List.of("fabricCheck: no published all-reduce floor for Standard_ND96isr_H200_v5 (Gantry has one "
                + "for Standard_ND96asr_v4, Standard_ND96amsr_A100_v4, Standard_ND96isr_H100_v5); give your own with "
                + "fabricCheck: {minBusBandwidthGBps: GBPS, messageMiB: MIB}, or set fabricCheck: false"),
                StartChecks.problems(plan(H200, Phase.TRAINING, 2, FabricCheck.on())).stream().map(Object::toString)
                        .toList());
        assertEquals(List.of(), StartChecks.problems(plan(H200, Phase.TRAINING, 2, null)));
        assertEquals(List.of(), StartChecks.problems(plan(H100, Phase.TRAINING, 2, FabricCheck.on())));
    }

    @Test
    void theSpecRefusesTheCheckOnOneNodeOrOnEthernet() {
        GantryException e = assertThrows(GantryException.class, () -> Workload.builder("one").phase(Phase.TRAINING)
                .model(ModelClass.SMALL).command("true").fabricCheck(FabricCheck.on())
                .resources(Resources.builder().nodes(1).interconnect(Interconnect.ETHERNET).build()).build());
        assertEquals(List.of("fabricCheck: checks the fabric between nodes and needs resources.nodes of 2 or more, "
                + "got 1; set fabricCheck: false or more nodes", "fabricCheck: checks the InfiniBand fabric, but "
                + "resources.interconnect is ethernet; set fabricCheck: false or interconnect: infiniband"),
                e.problems().stream().map(Object::toString).toList());
    }

    @Test
    void aFloorOutOfRangeNamesTheFieldAndTheValue() {
        GantryException e = assertThrows(GantryException.class, () -> FabricCheck.withFloor(-1, 0));
        assertEquals(List.of("minBusBandwidthGBps: must be > 0 (GB/s of all-reduce bus bandwidth), got -1",
                "messageMiB: must be 1 to 65536 (MiB per rank), got 0"),
                e.problems().stream().map(Object::toString).toList());
    }
}
