package dev.gantry.azure.aks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class PoolRequestTest {
    static final String SIZE = "Standard_NC24ads_A100_v4";

    static String refusal(String name, List<String> taints, int maxNodes) {
        return assertThrows(IllegalArgumentException.class,
                () -> new PoolRequest(name, SIZE, Priority.SPOT, taints, maxNodes)).getMessage();
    }

    @Test
    void aNameAksWouldRefuseIsRefusedBeforeAnythingIsSent() {
        assertEquals("node pool name 'gpu-pool' is not one AKS accepts: 1 to 12 lower-case letters and digits, a "
                + "letter first; name pools with PoolName.of(vmSize, priority)", refusal("gpu-pool", List.of(), 4));
        refusal("g0123456789ab", List.of(), 4);
        refusal("1pool", List.of(), 4);
        refusal("Gpool", List.of(), 4);
    }

    @Test
    void maxNodesMustBeWhatAksAllowsAPool() {
        assertEquals("maxNodes of node pool gpool is 0: AKS allows 1 to 1000 nodes in a pool",
                refusal("gpool", List.of(), 0));
        refusal("gpool", List.of(), 1001);
        assertEquals(1000, new PoolRequest("gpool", SIZE, Priority.SPOT, List.of(), 1000).maxNodes());
    }

    @Test
    void taintsAreKeyValueEffect() {
        assertEquals("node taint 'sku=gpu' of node pool gpool is not KEY[=VALUE]:EFFECT with EFFECT NoSchedule, "
                + "PreferNoSchedule or NoExecute; e.g. sku=gpu:NoSchedule", refusal("gpool", List.of("sku=gpu"), 4));
        refusal("gpool", List.of("sku=gpu:NoRun"), 4);
        assertEquals(List.of("sku=gpu:NoSchedule", "nvidia.com/gpu:NoSchedule"), new PoolRequest("gpool", SIZE,
                Priority.SPOT, List.of("sku=gpu:NoSchedule", "nvidia.com/gpu:NoSchedule"), 4).nodeTaints());
    }

    @Test
    void anEmptySizeIsRefused() {
        assertEquals("vmSize of node pool gpool is empty: give an Azure VM size, e.g. Standard_NC24ads_A100_v4",
                assertThrows(IllegalArgumentException.class,
                        () -> new PoolRequest("gpool", " ", Priority.REGULAR, List.of(), 4)).getMessage());
    }
}
