package dev.gantry.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PlanBootTest {
    private static final VmSize SIZE = new VmSize("Standard_D4s_v5", "D", 4, 16, Optional.empty(), false,
            Architecture.X64, Set.of("V2"));

    @Test
    void aPlanBootsNothingUnlessTold() {
        Plan plan = Plan.builder(Workload.builder("w").phase(Phase.TRAINING).model(ModelClass.SMALL).command("true").build(), SIZE).build();
        assertEquals(NodeBoot.none(), plan.boot());
    }

    @Test
    void bootInstructionsTravelWithThePlan() {
        NodeBoot boot = new NodeBoot(Optional.of("#cloud-config\n"), Optional.of("batch.node.ubuntu 22.04"));
        Plan plan = Plan.builder(Workload.builder("w").phase(Phase.TRAINING).model(ModelClass.SMALL).command("true").build(), SIZE).boot(boot).build();
        assertEquals(boot, plan.boot());
        Plan v1 = new Plan(plan.workload(), plan.vmSize(), plan.region(), plan.nodes(), plan.spot(),
                plan.pricePerHour(), plan.estimatedHours(), plan.estimatedCost(), plan.image(), plan.orchestrator(),
                plan.reasons(), plan.alternatives(), plan.warnings(), plan.catalog());
        assertEquals(NodeBoot.none(), v1.boot());
        assertEquals(plan, v1.withBoot(boot));
    }

    @Test
    void theV1NodeBootHasNoShellScript() {
        NodeBoot v1 = new NodeBoot(Optional.of("#cloud-config\n"), Optional.of("batch.node.ubuntu 22.04"));
        assertEquals(Optional.empty(), v1.shellScript());
        assertEquals(new NodeBoot(Optional.empty(), Optional.empty(), Optional.empty()), NodeBoot.none());
        NodeBoot v2 = new NodeBoot(v1.cloudConfig(), v1.batchNodeAgentSku(), Optional.of("#!/bin/sh\n"));
        assertEquals(Optional.of("#!/bin/sh\n"), v2.shellScript());
    }
}
