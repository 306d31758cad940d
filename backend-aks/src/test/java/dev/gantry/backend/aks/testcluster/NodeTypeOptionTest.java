package dev.gantry.backend.aks.testcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeTypeOptionTest {
    @Test
    void aSizeWithWhatItOffersIsAnOnDemandNodeOfAPoolNamedFromTheSize() {
        NodeTemplate node = NodeTypeOption.parse("Standard_E2as_v5,cpu=2,memory=16Gi", NodeSlot.kube(1));
        assertEquals("Standard_E2as_v5", node.instanceType());
        assertEquals("e2asv5", node.pool());
        assertFalse(node.spot());
        assertEquals(Map.of("cpu", "2", "memory", "16Gi", "pods", "110", "ephemeral-storage", "100Gi"),
                node.allocatable());
        assertEquals(NodeSlot.kube(1), node.slot());
    }

    @Test
    void gpusAndSpotAreOptional() {
        NodeTemplate node = NodeTypeOption.parse("Standard_NC24ads_A100_v4,cpu=24,memory=220Gi,gpus=1,spot",
                NodeSlot.host(2));
        assertTrue(node.spot());
        assertEquals("1", node.allocatable().get("nvidia.com/gpu"));
        assertEquals("nc24adsa100v", node.pool(), "at most 12 letters and digits, as AKS allows");
    }

    @Test
    void aBadPartIsNamedWithTheSyntax() {
        String syntax = "; expected --node-type SIZE,cpu=N,memory=Q[,gpus=N][,spot]";
        assertEquals("--node-type 'Standard_E2as_v5,cpu=2': cpu and memory are required (what the node offers pods)"
                + syntax, message("Standard_E2as_v5,cpu=2"));
        assertEquals("--node-type 'Standard_E2as_v5,cpu=2,memory=16GB': memory '16GB' is not a quantity such as 16Gi"
                + syntax, message("Standard_E2as_v5,cpu=2,memory=16GB"));
        assertEquals("--node-type 'Standard_E2as_v5,cpu=2,memory=1Gi,priority=spot': unknown part 'priority=spot'"
                + syntax, message("Standard_E2as_v5,cpu=2,memory=1Gi,priority=spot"));
        assertEquals("--node-type 'E2 as,cpu=2,memory=1Gi': the VM size 'E2 as' is not a size name such as"
                + " Standard_E2as_v5" + syntax, message("E2 as,cpu=2,memory=1Gi"));
    }

    private static String message(String text) {
        return assertThrows(IllegalArgumentException.class, () -> NodeTypeOption.parse(text, NodeSlot.kube(1)))
                .getMessage();
    }
}
