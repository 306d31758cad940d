package dev.gantry.backend.batch.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.backend.batch.fake.nodes.NodeNetwork;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fake's nodes in their namespaces: addresses handed out, what a node's processes see, and the refusal. */
class NamespacedNodesTest {
    @TempDir
    Path work;

    @Test
    void eachNodeTakesTheLeastUsedNamespaceAndItsProcessesSeeItsAddressByEitherHostnameForm() throws Exception {
        try (NamespacedNodes nodes = new NamespacedNodes(NodeNetwork.all())) {
            for (int k = 1; k <= NodeNetwork.COUNT + 1; k++) {
                nodes.nodeAdded("n" + k);
            }
            assertEquals(List.of("10.200.0.161", "10.200.0.162", "10.200.0.163", "10.200.0.164", "10.200.0.161"),
                    List.of("n1", "n2", "n3", "n4", "n5").stream().map(nodes::address).toList());
            nodes.nodeRemoved("n3");
            nodes.nodeAdded("n6");
            assertEquals("10.200.0.163", nodes.address("n6"), "the namespace n3 left is the least used");

            Path out = work.resolve("stdout.txt");
            NodeProcesses.Handle run = nodes.start("n2", List.of("/bin/sh", "-c", "hostname; hostname -i; hostname -I"),
                    Map.of("PATH", TaskLaunch.PATH), work.resolve("wd"), out, work.resolve("stderr.txt"));
            assertEquals(0, run.exitCode().get(10, TimeUnit.SECONDS), Files.readString(work.resolve("stderr.txt")));
            assertEquals("gantry-b2\n10.200.0.162\n10.200.0.162 \n", Files.readString(out));
            assertEquals(List.of("--network", "ns:/run/netns/gantry-b2", "--hostname", "gantry-b2", "--no-hosts",
                    "--volume", "/etc/netns/gantry-b2/hosts:/etc/hosts:ro"), nodes.containerNetwork("n2"));
        }
    }

    @Test
    void withoutItsNamespacesTheFakeFailsNamingTheCommandThatMakesThem() {
        IllegalStateException missing = assertThrows(IllegalStateException.class,
                () -> new NamespacedNodes(List.of(new NodeNetwork("gantry-b99", "10.200.0.199"))));
        assertEquals("the network namespace gantry-b99 does not exist; make it with `scripts/test-batch.sh"
                + " nodes-up` (as root)", missing.getMessage());
        IllegalStateException unnamed = assertThrows(IllegalStateException.class,
                () -> new NamespacedNodes(List.of(new NodeNetwork("gantry-b1", "10.200.0.199"))));
        assertEquals("the hosts file of the network namespace gantry-b1 (/etc/netns/gantry-b1/hosts) does not name"
                + " gantry-b1 at 10.200.0.199; make it with `scripts/test-batch.sh nodes-up` (as root)",
                unnamed.getMessage());
    }
}
