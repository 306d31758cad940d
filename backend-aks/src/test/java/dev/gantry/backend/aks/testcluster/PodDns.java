package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import java.util.ArrayList;
import java.util.List;

/**
 * The names cluster DNS gives pods, as /etc/hosts lines: a pod with {@code hostname} and {@code subdomain}, whose
 * subdomain is a headless Service of its namespace that selects it, is
 * {@code HOSTNAME.SUBDOMAIN.NAMESPACE.svc.cluster.local} (and, through the pod's search path,
 * {@code HOSTNAME.SUBDOMAIN}), once it has an address and is ready or the Service publishes not-ready addresses.
 */
final class PodDns {
    static final String CLUSTER_DOMAIN = "cluster.local";

    private PodDns() {
    }

    static String hostsFile(String nodeName, String nodeAddress, List<Pod> pods, List<Service> services) {
        List<String> lines = new ArrayList<>();
        lines.add("# Written by the Gantry test cluster: pod DNS names of headless Services.");
        lines.add("127.0.0.1\tlocalhost");
        lines.add("::1\tlocalhost ip6-localhost ip6-loopback");
        lines.add(nodeAddress + "\t" + nodeName);
        for (Pod pod : pods) {
            String hostname = pod.getSpec().getHostname();
            String subdomain = pod.getSpec().getSubdomain();
            String ip = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
            if (hostname == null || subdomain == null || ip == null || Scheduler.isTerminal(pod)
                    || pod.getMetadata().getDeletionTimestamp() != null) {
                continue;
            }
            String namespace = pod.getMetadata().getNamespace();
            boolean published = services.stream().anyMatch(s -> subdomain.equals(s.getMetadata().getName())
                    && namespace.equals(s.getMetadata().getNamespace()) && "None".equals(s.getSpec().getClusterIP())
                    && s.getSpec().getSelector() != null && !s.getSpec().getSelector().isEmpty()
                    && pod.getMetadata().getLabels().entrySet().containsAll(s.getSpec().getSelector().entrySet())
                    && (Boolean.TRUE.equals(s.getSpec().getPublishNotReadyAddresses())
                            || PodConditions.isTrue(pod, "Ready")));
            if (published) {
                String fqdn = hostname + "." + subdomain + "." + namespace + ".svc." + CLUSTER_DOMAIN;
                lines.add(ip + "\t" + fqdn + " " + hostname + "." + subdomain + "." + namespace + " "
                        + hostname + "." + subdomain);
            }
        }
        return String.join("\n", lines) + "\n";
    }
}
