package dev.gantry.tck;

import static dev.gantry.tck.Kit.assertState;
import static dev.gantry.tck.Kit.key;
import static dev.gantry.tck.Kit.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.Resources;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Several nodes: a single-node backend refuses them; a multi-node one runs ranks that meet at the master. */
abstract class SeveralNodeCases extends KitCases {
    SeveralNodeCases(Kit kit) {
        super(kit);
    }

    @Test
    void singleNodeBackendRejectsMultiNodePlans() {
        Workload w = workload("nodes").command("true").resources(Resources.builder().nodes(2).build()).build();
        Plan plan = Plan.builder(w, fixture.plan(w).vmSize()).nodes(2).build();
        List<Problem> problems = backend.validate(plan);
        boolean rejected = problems.stream().anyMatch(p -> p.path().contains("nodes"));
        assertEquals(!backend.capabilities().multiNode(), rejected,
                "multiNode=" + backend.capabilities().multiNode() + " but validate of a 2-node plan said " + problems);
    }

    /**
     * Two nodes: each rank sees its rank, the world size and the master's address, and rank 1 reaches rank 0 over
     * TCP at {@code MASTER_ADDR:MASTER_PORT}.
     */
    @Test
    void twoNodeRanksMeetAtTheMaster() throws Exception {
        kit.assumeDeclared(Capabilities::multiNode, "multi-node jobs");
        Plan plan = fixture.twoNodePlan(workload("two-node").command(KitScripts.rendezvous()).build());
        assertEquals(2, plan.nodes(), "the fixture's two-node plan");
        assertEquals(List.of(), backend.validate(plan), "the fixture's two-node plan must be runnable");
        JobRef job = kit.submit(plan, key("two-node"));
        JobStatus status = kit.awaitEnd(job);
        List<LogLine> out = kit.collect(job, LogOptions.all());
        assertState(JobState.SUCCEEDED, status);
        List<LogLine> contract = out.stream().filter(l -> l.text().startsWith(KitScripts.CONTRACT_LINE)).toList();
        assertEquals(2, contract.size(), "one contract line per rank: " + out);
        String master = null;
        for (LogLine line : contract) {
            String rank = Integer.toString(line.node());
            String prefix = "contract rank=" + rank + " node_rank=" + rank + " gantry_node_rank=" + rank
                    + " world=2 nodes=2 local_rank=0 master=";
            assertTrue(line.text().startsWith(prefix), "rank " + rank + " saw " + line.text());
            String itsMaster = line.text().substring(prefix.length());
            assertTrue(itsMaster.matches(".+:\\d+"), "MASTER_ADDR:MASTER_PORT " + itsMaster);
            if (master != null) {
                assertEquals(master, itsMaster, "both ranks meet at the same address");
            }
            master = itsMaster;
        }
        assertTrue(out.stream().anyMatch(l -> l.node() == 0 && l.text().equals("received: hello from rank 1 of 2")),
                "rank 0 received rank 1's message over TCP: " + out);
    }
}
