package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodIPBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * The kubelet of one node: starts each pod bound to the node (its one container; pods with several containers run
 * the first), reports Running with the node's address as the pod's, and on exit Succeeded or Failed with the
 * container's exit code, reason ({@code Completed}, {@code Error}, {@code StartError}) and finish time. A pod marked
 * for deletion is stopped (SIGTERM, SIGKILL after its grace period) and then deleted for good. When the node is
 * deleted, {@link #powerOff()} kills everything at once and reports nothing, as a vanished VM does.
 */
final class Kubelet {
    private record Started(String uid, ContainerRuntime.Running container, Path logFile) {
    }

    private final String nodeName;
    private final NodeSlot slot;
    private final ObjectStore store;
    private final PodLogs logs;
    private final Clock clock;
    private final List<ContainerRuntime> runtimes;
    private final Map<String, Started> started = new ConcurrentHashMap<>();
    private final Set<String> stopping = ConcurrentHashMap.newKeySet();
    private volatile boolean poweredOff;

    Kubelet(String nodeName, NodeSlot slot, ObjectStore store, PodLogs logs, Clock clock,
            List<ContainerRuntime> runtimes) {
        this.nodeName = nodeName;
        this.slot = slot;
        this.store = store;
        this.logs = logs;
        this.clock = clock;
        this.runtimes = List.copyOf(runtimes);
    }

    String nodeName() {
        return nodeName;
    }

    /** One pass over every pod of the cluster: start what is new here, stop what is being deleted. */
    void sync(List<Pod> pods) {
        if (poweredOff) {
            return;
        }
        Set<String> present = pods.stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
        // A pod deleted for good (forced, or its deletion finished): nothing of it may keep running.
        started.entrySet().removeIf(entry -> {
            boolean gone = !present.contains(entry.getKey());
            if (gone) {
                entry.getValue().container().kill();
                stopping.remove(entry.getKey());
            }
            return gone;
        });
        for (Pod pod : pods) {
            if (!nodeName.equals(pod.getSpec().getNodeName())) {
                continue;
            }
            String uid = pod.getMetadata().getUid();
            boolean deleting = pod.getMetadata().getDeletionTimestamp() != null;
            if (deleting) {
                stop(pod);
            } else if (!started.containsKey(uid) && !Scheduler.isTerminal(pod)) {
                startPod(pod);
            }
        }
    }

    private void startPod(Pod listed) {
        // A copy: the listed pod is shared with the other controllers of this pass.
        Pod pod = Json.read(Json.write(listed), Pod.class);
        String uid = pod.getMetadata().getUid();
        Container container = pod.getSpec().getContainers().get(0);
        String namespace = pod.getMetadata().getNamespace();
        pod.getStatus().setHostIP(slot.address());
        ContainerEnvironment.Launch launch;
        try {
            launch = ContainerEnvironment.resolve(pod, container,
                    name -> store.get(Paths.secret(namespace, name), Secret.class));
        } catch (ContainerEnvironment.ConfigError e) {
            reportWaiting(pod, container, "CreateContainerConfigError", e.getMessage());
            return;
        }
        ContainerRuntime runtime = runtimes.stream().filter(r -> r.runs(container.getImage())).findFirst()
                .orElseThrow(() -> new IllegalStateException("no runtime runs image " + container.getImage()));
        Path logFile = logs.open(namespace, pod.getMetadata().getName(), uid, container.getName());
        String hostname = pod.getSpec().getHostname() == null ? pod.getMetadata().getName() : pod.getSpec().getHostname();
        String containerId = "containerd://" + HexFormat.of().formatHex(randomBytes());
        String startedAt = ObjectStore.timestamp(clock.instant());
        ContainerRuntime.Running running;
        try {
            running = runtime.start(new ContainerRuntime.Spec(container.getImage(), launch.argv(), launch.environment(),
                    container.getWorkingDir(), hostname, slot, logFile, ContainerMounts.of(pod, container)));
        } catch (ContainerRuntime.StartError e) {
            logs.markEnded(logFile);
            started.put(uid, new Started(uid, deadContainer(), logFile));
            reportTerminated(pod, container, containerId, 128, "StartError", e.getMessage(), startedAt);
            return;
        } catch (IOException e) {
            logs.markEnded(logFile);
            started.put(uid, new Started(uid, deadContainer(), logFile));
            reportTerminated(pod, container, containerId, 128, "StartError", e.getMessage(), startedAt);
            return;
        }
        started.put(uid, new Started(uid, running, logFile));
        reportRunning(pod, container, containerId, startedAt);
        Thread waiter = new Thread(() -> awaitExit(pod, container, containerId, running, logFile, startedAt),
                "kubelet-" + nodeName + "-" + pod.getMetadata().getName());
        waiter.setDaemon(true);
        waiter.start();
    }

    private void awaitExit(Pod pod, Container container, String containerId, ContainerRuntime.Running running,
            Path logFile, String startedAt) {
        int exitCode;
        try {
            exitCode = running.waitFor();
        } catch (InterruptedException e) {
            return;
        }
        logs.markEnded(logFile);
        if (poweredOff) {
            return;
        }
        reportTerminated(pod, container, containerId, exitCode, exitCode == 0 ? "Completed" : "Error", null,
                startedAt);
        finishDeletionIfMarked(pod);
    }

    private void stop(Pod pod) {
        String uid = pod.getMetadata().getUid();
        Started s = started.get(uid);
        if (s == null || !s.container().isAlive()) {
            finishDeletionIfMarked(pod);
            return;
        }
        if (stopping.add(uid)) {
            s.container().terminate();
            long grace = pod.getMetadata().getDeletionGracePeriodSeconds() == null ? 30
                    : pod.getMetadata().getDeletionGracePeriodSeconds();
            Thread killer = new Thread(() -> {
                try {
                    Thread.sleep(grace * 1000);
                } catch (InterruptedException e) {
                    return;
                }
                if (s.container().isAlive()) {
                    s.container().kill();
                }
            }, "kubelet-grace-" + pod.getMetadata().getName());
            killer.setDaemon(true);
            killer.start();
        }
    }

    /** The kubelet's last word on a pod being deleted: it has stopped, the API server may remove it. */
    private void finishDeletionIfMarked(Pod pod) {
        String path = Paths.pod(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
        Optional<Pod> current = store.get(path, Pod.class);
        if (current.isPresent() && current.get().getMetadata().getUid().equals(pod.getMetadata().getUid())
                && current.get().getMetadata().getDeletionTimestamp() != null) {
            if (!Scheduler.isTerminal(current.get())) {
                Started s = started.get(pod.getMetadata().getUid());
                if (s != null && s.container().isAlive()) {
                    return;
                }
            }
            store.delete(path, DeleteOptions.force());
        }
    }

    /** The node's VM is gone: its processes die with it and nothing more is reported. */
    void powerOff() {
        poweredOff = true;
        started.values().forEach(s -> {
            s.container().kill();
            logs.markEnded(s.logFile());
        });
    }

    private void reportRunning(Pod pod, Container container, String containerId, String startedAt) {
        update(pod, p -> {
            p.getStatus().setPhase("Running");
            setAddresses(p);
            p.getStatus().setStartTime(startedAt);
            p.getStatus().setContainerStatuses(List.of(status(container, containerId, true)
                    .withState(new ContainerStateBuilder().withNewRunning().withStartedAt(startedAt).endRunning()
                            .build()).build()));
            for (String type : List.of("PodReadyToStartContainers", "Initialized", "ContainersReady", "Ready")) {
                PodConditions.set(p, type, "True", null, null, clock.instant());
            }
            return p;
        });
    }

    private void reportWaiting(Pod pod, Container container, String reason, String message) {
        boolean alreadySaid = pod.getStatus().getContainerStatuses().stream()
                .anyMatch(s -> s.getState() != null && s.getState().getWaiting() != null
                        && reason.equals(s.getState().getWaiting().getReason())
                        && message.equals(s.getState().getWaiting().getMessage()));
        if (alreadySaid) {
            return;
        }
        update(pod, p -> {
            setAddresses(p);
            p.getStatus().setContainerStatuses(List.of(status(container, "", false)
                    .withState(new ContainerStateBuilder().withNewWaiting().withReason(reason).withMessage(message)
                            .endWaiting().build()).build()));
            return p;
        });
    }

    private void reportTerminated(Pod pod, Container container, String containerId, int exitCode, String reason,
            String message, String startedAt) {
        String finishedAt = ObjectStore.timestamp(clock.instant());
        update(pod, p -> {
            p.getStatus().setPhase(exitCode == 0 ? "Succeeded" : "Failed");
            setAddresses(p);
            if (p.getStatus().getStartTime() == null) {
                p.getStatus().setStartTime(startedAt);
            }
            p.getStatus().setContainerStatuses(List.of(status(container, containerId, false)
                    .withState(new ContainerStateBuilder().withNewTerminated().withExitCode(exitCode)
                            .withReason(reason).withMessage(message).withStartedAt(startedAt)
                            .withFinishedAt(finishedAt).withContainerID(containerId).endTerminated().build())
                    .build()));
            String why = exitCode == 0 ? "PodCompleted" : "PodFailed";
            for (String type : List.of("ContainersReady", "Ready")) {
                PodConditions.set(p, type, "False", why, null, clock.instant());
            }
            PodConditions.set(p, "PodReadyToStartContainers", "False", null, null, clock.instant());
            return p;
        });
    }

    private void setAddresses(Pod pod) {
        pod.getStatus().setHostIP(slot.address());
        pod.getStatus().setHostIPs(List.of(new io.fabric8.kubernetes.api.model.HostIPBuilder()
                .withIp(slot.address()).build()));
        pod.getStatus().setPodIP(slot.address());
        pod.getStatus().setPodIPs(List.of(new PodIPBuilder().withIp(slot.address()).build()));
    }

    private static ContainerStatusBuilder status(Container container, String containerId, boolean ready) {
        return new ContainerStatusBuilder().withName(container.getName()).withImage(container.getImage())
                .withImageID(container.getImage()).withContainerID(containerId.isEmpty() ? null : containerId)
                .withReady(ready).withStarted(ready).withRestartCount(0);
    }

    /** Writes a pod's status onto the pod as it is now; nothing when the pod is gone or was replaced. */
    private void update(Pod pod, UnaryOperator<Pod> change) {
        if (!poweredOff) {
            store.update(Paths.pod(pod.getMetadata().getNamespace(), pod.getMetadata().getName()), Pod.class,
                    pod.getMetadata().getUid(), change);
        }
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[32];
        ThreadLocalRandom.current().nextBytes(bytes);
        return bytes;
    }

    private static ContainerRuntime.Running deadContainer() {
        return new ContainerRuntime.Running() {
            @Override
            public int waitFor() {
                return 128;
            }

            @Override
            public void terminate() {
            }

            @Override
            public void kill() {
            }

            @Override
            public boolean isAlive() {
                return false;
            }
        };
    }

}
