package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One machine of the test cluster as AKS makes it: a VM of a scale set in an agent pool, with AKS's labels and
 * taints, and the network namespace its processes run in. Every node this template makes (the first and each
 * replacement after the VM was deleted) gets the next instance number, as a scale set names its VMs.
 *
 * @param slot the node's network namespace ({@code gantry-k1}) and address; a replacement keeps them
 * @param pool the agent pool ({@code kubernetes.azure.com/agentpool})
 * @param instanceType the VM size ({@code node.kubernetes.io/instance-type})
 * @param spot whether the pool is a Spot pool: AKS labels and taints those nodes
 *     {@code kubernetes.azure.com/scalesetpriority=spot}; regular nodes carry no such label
 * @param allocatable what pods may request, e.g. {@code cpu=8}, {@code nvidia.com/gpu=1}
 * @param extraTaints taints beyond AKS's own (e.g. {@code sku=gpu:NoSchedule}, as a GPU pool is often made)
 */
public record NodeTemplate(NodeSlot slot, String pool, String instanceType, boolean spot,
        Map<String, String> allocatable, List<Taint> extraTaints) {
    public static final String INSTANCE_TYPE = "node.kubernetes.io/instance-type";
    public static final String AGENT_POOL = "kubernetes.azure.com/agentpool";
    public static final String SCALE_SET_PRIORITY = "kubernetes.azure.com/scalesetpriority";
    public static final String HOSTNAME = "kubernetes.io/hostname";

    public NodeTemplate {
        Objects.requireNonNull(slot, "slot");
        allocatable = Map.copyOf(allocatable);
        extraTaints = List.copyOf(extraTaints);
    }

    /** The kit's node: a Spot {@code tck-small} VM with room for many small pods and one GPU. */
    public static NodeTemplate kit(NodeSlot slot) {
        return new NodeTemplate(slot, "tckspot", "tck-small", true,
                Map.of("cpu", "32", "memory", "128Gi", "pods", "250", "ephemeral-storage", "100Gi",
                        "nvidia.com/gpu", "1"),
                List.of());
    }

    /** A taint such as {@code sku=gpu:NoSchedule}. */
    public static Taint taint(String key, String value, String effect) {
        return new TaintBuilder().withKey(key).withValue(value).withEffect(effect).build();
    }

    /** The AKS node name of instance {@code instance} of this pool's scale set. */
    String nodeName(int instance) {
        return "aks-" + pool + "-" + String.format("%08d", Math.abs(pool.hashCode()) % 100_000_000) + "-vmss"
                + String.format("%06d", instance);
    }

    Node node(int instance, Instant now) {
        String name = nodeName(instance);
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("agentpool", pool);
        labels.put("beta.kubernetes.io/arch", "amd64");
        labels.put("beta.kubernetes.io/instance-type", instanceType);
        labels.put("beta.kubernetes.io/os", "linux");
        labels.put(AGENT_POOL, pool);
        labels.put("kubernetes.azure.com/cluster", "MC_gantry-test_gantry-test_westeurope");
        labels.put("kubernetes.azure.com/mode", "user");
        labels.put("kubernetes.azure.com/role", "agent");
        if (spot) {
            labels.put(SCALE_SET_PRIORITY, "spot");
        }
        labels.put("kubernetes.io/arch", "amd64");
        labels.put(HOSTNAME, name);
        labels.put("kubernetes.io/os", "linux");
        labels.put(INSTANCE_TYPE, instanceType);
        labels.put("topology.kubernetes.io/region", "westeurope");
        labels.put("topology.kubernetes.io/zone", "0");
        List<Taint> taints = new ArrayList<>();
        if (spot) {
            taints.add(taint(SCALE_SET_PRIORITY, "spot", "NoSchedule"));
        }
        taints.addAll(extraTaints);
        Map<String, Quantity> resources = new LinkedHashMap<>();
        allocatable.forEach((key, value) -> resources.put(key, new Quantity(value)));
        String time = ObjectStore.timestamp(now);
        return new NodeBuilder().withNewMetadata().withName(name).withLabels(labels)
                .addToAnnotations("node.alpha.kubernetes.io/ttl", "0").endMetadata()
                .withNewSpec().withProviderID("azure:///subscriptions/00000000-0000-0000-0000-000000000000"
                        + "/resourceGroups/mc_gantry-test/providers/Microsoft.Compute/virtualMachineScaleSets/aks-"
                        + pool + "-vmss/virtualMachines/" + instance)
                .withTaints(taints).endSpec()
                .withNewStatus().withCapacity(resources).withAllocatable(resources)
                .addNewAddress().withType("InternalIP").withAddress(slot.address()).endAddress()
                .addNewAddress().withType("Hostname").withAddress(name).endAddress()
                .addNewCondition().withType("Ready").withStatus("True").withReason("KubeletReady")
                .withMessage("kubelet is posting ready status").withLastHeartbeatTime(time)
                .withLastTransitionTime(time).endCondition()
                .withNewNodeInfo().withKubeletVersion("v1.32.0").withKubeProxyVersion("v1.32.0")
                .withOperatingSystem("linux").withArchitecture("amd64").withContainerRuntimeVersion("containerd://1.7.23-1")
                .withOsImage("Ubuntu 22.04.5 LTS").withKernelVersion("5.15.0-1075-azure").withMachineID(name)
                .withSystemUUID(name).withBootID(name).endNodeInfo()
                .endStatus().build();
    }
}
