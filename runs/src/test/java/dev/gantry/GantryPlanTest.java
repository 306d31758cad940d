package dev.gantry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The facade's plans carry what their nodes run at boot, so that backends never need the image catalog. */
class GantryPlanTest {
    @TempDir
    Path temp;

    @Test
    void aPlanCarriesItsNodesBootConfigAndBatchNodeAgent() {
        try (Gantry gantry = Gantry.builder().environment(Map.of()).workingDirectory(temp).home(temp)
                .discoverBackends(false).build()) {
            Workload workload = Workload.builder("boot").phase(Phase.TRAINING).model(ModelClass.SMALL)
                    .command("python", "train.py").build();
            Plan plan = gantry.plan(workload);
            String cloudConfig = plan.boot().cloudConfig().orElseThrow();
            assertTrue(cloudConfig.startsWith("#cloud-config\n"), cloudConfig);
            assertTrue(cloudConfig.contains("gantry-boot-check"), "the prerequisites check runs at boot");
            assertEquals(Optional.of("batch.node.ubuntu 22.04"), plan.boot().batchNodeAgentSku(),
                    "the plan's image is " + plan.image().id());
            String startTask = plan.boot().shellScript().orElseThrow();
            assertTrue(startTask.startsWith("#!/bin/sh\n"), startTask);
            assertTrue(startTask.contains("exec '/usr/local/lib/gantry/gantry-boot-check' '--status' 'check'"),
                    "the start task ends with the prerequisites check: " + startTask);
        }
    }
}
