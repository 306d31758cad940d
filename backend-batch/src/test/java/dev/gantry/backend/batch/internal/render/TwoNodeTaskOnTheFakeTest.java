package dev.gantry.backend.batch.internal.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.azure.batch.protocol.models.TaskAddParameter;
import dev.gantry.api.NodeBoot;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.batch.fake.BatchFake;
import dev.gantry.backend.batch.fake.BatchFakeOptions;
import dev.gantry.backend.batch.fake.FakeClient;
import dev.gantry.backend.batch.fake.nodes.NodeNetwork;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A two-node task as Gantry renders it ({@link TaskBody}, {@link CoordinationCommand}) runs on two of the fake's nodes,
 * each in its own network namespace: each node finds its rank from its own address ({@code hostname -I}) in
 * {@code AZ_BATCH_HOST_LIST}, and rank 1 reaches rank 0 at {@code MASTER_ADDR}, the master node's address. The pool
 * is grown by Gantry's own autoscale formula (a waiting two-node task counts its two instances).
 */
class TwoNodeTaskOnTheFakeTest {
    private static final int PORT = 29513;
    /** Rank 0 listens at the master's address; rank 1 connects there; each says where it was and whom it met. */
    private static final String RANKS = "use IO::Socket::INET; $| = 1; my $port = $ARGV[0];"
            + " if ($ENV{GANTRY_NODE_RANK} == 0) { my $s = IO::Socket::INET->new(LocalAddr => $ENV{MASTER_ADDR},"
            + " LocalPort => $port, Listen => 1, ReuseAddr => 1) or die \"listen: $!\"; my $c = $s->accept;"
            + " print \"$ENV{AZ_BATCH_HOST_LIST} rank 0 at \", $c->sockhost, ' heard ', $c->peerhost, ': ',"
            + " scalar <$c>; exit 0 }"
            + " for (1 .. 300) { my $c = IO::Socket::INET->new(PeerAddr => $ENV{MASTER_ADDR}, PeerPort => $port);"
            + " if ($c) { print $c \"hello from rank $ENV{GANTRY_NODE_RANK}\\n\";"
            + " print \"$ENV{AZ_BATCH_HOST_LIST} rank \","
            + " $ENV{GANTRY_NODE_RANK}, ' reached ', $c->peerhost, ' from ', $c->sockhost, \"\\n\"; exit 0 }"
            + " select(undef, undef, undef, 0.1) } die \"never reached $ENV{MASTER_ADDR}\\n\"";

    @Test
    void rankOneReachesRankZeroAtTheMastersAddressOnTwoNamespacedNodes() throws Exception {
        try (BatchFake fake = new BatchFake(new BatchFakeOptions().autoscaleInterval(Duration.ofMillis(100)))) {
            FakeClient client = new FakeClient(fake);
            assertEquals(201, client.post("/pools", FakeClient.pool("mn", AutoscaleFormula.render(false, 2, 4))
                    .replace("\"taskSlotsPerNode\":1", "\"taskSlotsPerNode\":1,\"enableInterNodeCommunication\":true"))
                    .status());
            assertEquals(201, client.post("/jobs", FakeClient.job("j", "mn")).status());
            TaskAddParameter task = twoNodeTask();
            FakeClient.Reply added = client.post("/jobs/j/tasks", WireJson.compact(task));
            assertEquals(201, added.status(), added.text());

            JsonNode done = client.waitForTask("j", task.id(), FakeClient.inState("completed"));
            assertEquals(0, done.path("executionInfo").path("exitCode").asInt(-1), done.toString());
            String masterNode = done.get("nodeInfo").get("nodeId").asText();
            String otherNode = client.get("/jobs/j/tasks/" + task.id() + "/subtasksinfo").json().get("value").get(0)
                    .get("nodeInfo").get("nodeId").asText();
            // The nodes' addresses as each rank saw them in AZ_BATCH_HOST_LIST (the pool is gone to zero by now).
            String rank0 = Files.readString(taskDir(fake, masterNode, task).resolve("rank-0.stdout"));
            List<String> hosts = List.of(rank0.substring(0, rank0.indexOf(' ')).split(","));
            assertEquals(2, hosts.size(), rank0);
            String master = hosts.get(0);
            String other = hosts.get(1);
            assertNotEquals(master, other);
            assertTrue(NodeNetwork.all().stream().map(NodeNetwork::address).toList().containsAll(hosts), rank0);
            assertEquals(String.join(",", hosts) + " rank 0 at " + master + " heard " + other
                    + ": hello from rank 1\n", rank0);
            assertEquals(String.join(",", hosts) + " rank 1 reached " + master + " from " + other + "\n",
                    Files.readString(taskDir(fake, otherNode, task).resolve("rank-1.stdout")));
        }
    }

    /** The task's directory on a node: its AZ_BATCH_TASK_SHARED_DIR, where the ranks' files are. */
    private static Path taskDir(BatchFake fake, String nodeId, TaskAddParameter task) {
        return fake.root().resolve("nodes").resolve(nodeId).resolve("workitems/j/job-1").resolve(task.id());
    }

    private static TaskAddParameter twoNodeTask() {
        Plan plan = Plan.builder(LauncherTest.workload(List.of("perl", "-e", RANKS, String.valueOf(PORT)))
                        .resources(Resources.builder().nodes(2)).build(), ExamplePlans.D2)
                .region("eastus").image(ExamplePlans.UBUNTU)
                .boot(new NodeBoot(Optional.empty(), Optional.of(ExamplePlans.NODE_AGENT))).build();
        return assertInstanceOf(TaskBody.Ready.class, TaskBody.render(new TaskBody.Input(plan,
                SubmitOptions.withKey("two-nodes-on-the-fake"), "gantryfake", "j", 29500, Duration.ofDays(7),
                List.of(), Optional.empty()))).task();
    }
}
