package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The machines of the test cluster: a Node object and a kubelet per node, made from templates; a node deleted (its
 * VM gone: processes killed, the Node object deleted) and a replacement joining in the same network namespace
 * under the scale set's next instance name. Keeps each node namespace's {@code /etc/netns/NS/hosts} current.
 */
final class ClusterNodes {
    private record Member(NodeTemplate template, Kubelet kubelet) {
    }

    private final ObjectStore store;
    private final PodLogs logs;
    private final Clock clock;
    private final List<ContainerRuntime> runtimes;
    private final Path netnsConfig;
    private final Map<String, Member> members = new ConcurrentHashMap<>();
    private final Map<String, Integer> nextInstance = new ConcurrentHashMap<>();
    private final Map<String, String> hostsWritten = new ConcurrentHashMap<>();

    ClusterNodes(ObjectStore store, PodLogs logs, Clock clock, List<ContainerRuntime> runtimes, Path netnsConfig) {
        this.store = store;
        this.logs = logs;
        this.clock = clock;
        this.runtimes = List.copyOf(runtimes);
        this.netnsConfig = netnsConfig;
    }

    /** A new node of {@code template} joins: its Node object is created and its kubelet runs. */
    synchronized String join(NodeTemplate template) {
        int instance = nextInstance.merge(template.pool(), 1, Integer::sum) - 1;
        Node node = template.node(instance, clock.instant());
        String name = node.getMetadata().getName();
        members.put(name, new Member(template, new Kubelet(name, template.slot(), store, logs, clock, runtimes)));
        store.create(Paths.nodes(), node);
        return name;
    }

    /** The node's VM is deleted, as Azure deletes an evicted Spot VM: its processes die, its Node object goes. */
    synchronized NodeTemplate delete(String name) {
        Member member = members.remove(name);
        if (member == null) {
            throw new IllegalArgumentException("no node " + name + "; nodes: " + names());
        }
        member.kubelet().powerOff();
        store.delete(Paths.node(name), DeleteOptions.BACKGROUND);
        return member.template();
    }

    /**
     * The node stops answering (its VM hangs or loses its network): its kubelet and processes stop, and the node
     * lifecycle controller marks it Ready Unknown and taints it {@code node.kubernetes.io/unreachable} (NoSchedule
     * and NoExecute), which starts taint-based eviction of its pods.
     */
    synchronized void stopAnswering(String name) {
        Member member = members.get(name);
        if (member == null) {
            throw new IllegalArgumentException("no node " + name + "; nodes: " + names());
        }
        member.kubelet().powerOff();
        String path = Paths.node(name);
        Node node = store.get(path, Node.class).orElseThrow();
        String now = ObjectStore.timestamp(clock.instant());
        node.getStatus().getConditions().stream().filter(c -> "Ready".equals(c.getType())).forEach(c -> {
            c.setStatus("Unknown");
            c.setReason("NodeStatusUnknown");
            c.setMessage("Kubelet stopped posting node status.");
            c.setLastTransitionTime(now);
        });
        List<io.fabric8.kubernetes.api.model.Taint> taints = new ArrayList<>(node.getSpec().getTaints());
        for (String effect : List.of("NoSchedule", "NoExecute")) {
            var taint = NodeTemplate.taint("node.kubernetes.io/unreachable", null, effect);
            taint.setTimeAdded(now);
            taints.add(taint);
        }
        node.getSpec().setTaints(taints);
        store.replace(path, node);
    }

    List<String> names() {
        return new ArrayList<>(new java.util.TreeSet<>(members.keySet()));
    }

    /** One pass of every kubelet, after the pods' names were published to each node's hosts file. */
    void sync(List<Pod> pods) {
        List<Service> services = store.cachedList("/api/v1/services", Service.class);
        members.forEach((name, member) -> {
            NodeSlot slot = member.template().slot();
            if (slot.isolated()) {
                writeHosts(slot.namespace(), PodDns.hostsFile(name, slot.address(), pods, services));
            }
            member.kubelet().sync(pods);
        });
    }

    /**
     * Rewrites {@code /etc/netns/NS/hosts} in place: {@code ip netns exec} bind-mounts that file over /etc/hosts
     * for the processes it starts, and a bind mount follows the file's inode, not its name.
     */
    private void writeHosts(String namespace, String content) {
        if (content.equals(hostsWritten.get(namespace))) {
            return;
        }
        Path file = netnsConfig.resolve(namespace).resolve("hosts");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, content, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
            hostsWritten.put(namespace, content);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Every node goes; each node namespace's hosts file is left with no pod names in it. */
    void powerOffAll() {
        members.forEach((name, member) -> {
            member.kubelet().powerOff();
            NodeSlot slot = member.template().slot();
            if (slot.isolated()) {
                writeHosts(slot.namespace(), PodDns.hostsFile(slot.namespace(), slot.address(), List.of(), List.of()));
            }
        });
    }
}
