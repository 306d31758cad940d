package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The control loop: level-triggered passes over the whole store (nodes, pods, Jobs), each run at once after any
 * change and at the latest every {@code TICK_MILLIS}: pod GC, taint-based eviction, owner GC, the Job controller,
 * the scheduler, TTL, then the kubelets. One thread; {@link #runOnce()} runs a pass synchronously for tests that step it.
 */
final class ControlPlane implements AutoCloseable {
    private static final long TICK_MILLIS = 200;
    private static final String ALL_PODS = "/api/v1/pods";

    private final ObjectStore store;
    private final Clock clock;
    private final JobController jobs;
    private final GarbageCollector collector;
    private final TaintManager taints;
    private final Consumer<List<Pod>> kubelets;
    private final Semaphore wakeUp = new Semaphore(0);
    private volatile boolean running;
    private Thread thread;
    private volatile Throwable lastFailure;

    ControlPlane(ObjectStore store, Disruptions disruptions, Clock clock, Consumer<List<Pod>> kubelets) {
        this.store = store;
        this.clock = clock;
        this.jobs = new JobController(store, clock);
        this.collector = new GarbageCollector(store, disruptions, jobs, clock);
        this.taints = new TaintManager(disruptions, clock);
        this.kubelets = kubelets;
        store.onChange(this::wake);
    }

    void start() {
        running = true;
        thread = new Thread(this::loop, "test-kube-control-plane");
        thread.setDaemon(true);
        thread.start();
    }

    void wake() {
        if (wakeUp.availablePermits() == 0) {
            wakeUp.release();
        }
    }

    private void loop() {
        while (running) {
            try {
                wakeUp.tryAcquire(TICK_MILLIS, TimeUnit.MILLISECONDS);
                wakeUp.drainPermits();
                if (running) {
                    runOnce();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // The next pass reads the world again; a new kind of failure is said once, for whoever debugs a test.
                if (lastFailure == null || !String.valueOf(lastFailure.getMessage()).equals(e.getMessage())) {
                    System.err.println("test cluster control loop: " + e);
                }
                lastFailure = e;
            }
        }
    }

    /** One pass of every controller, in the order a change flows through a cluster. */
    synchronized void runOnce() {
        List<Node> nodes = store.cachedList(Paths.nodes(), Node.class);
        List<Pod> pods = store.cachedList(ALL_PODS, Pod.class);
        collector.collectPods(pods, nodes);
        taints.evict(pods, nodes);
        List<Job> jobList = store.cachedList("/apis/batch/v1/jobs", Job.class);
        pods = store.cachedList(ALL_PODS, Pod.class);
        collector.collectDependents(jobList, pods);
        for (Job job : jobList) {
            jobs.sync(job, pods);
        }
        jobs.forget(jobList.stream().map(j -> j.getMetadata().getUid()).collect(Collectors.toSet()));
        pods = store.cachedList(ALL_PODS, Pod.class);
        schedule(pods, nodes);
        collector.expireFinishedJobs(jobList);
        kubelets.accept(store.cachedList(ALL_PODS, Pod.class));
    }

    private void schedule(List<Pod> pods, List<Node> nodes) {
        for (Pod pod : pods) {
            if (pod.getSpec().getNodeName() != null || pod.getMetadata().getDeletionTimestamp() != null
                    || Scheduler.isTerminal(pod)) {
                continue;
            }
            Scheduler.Decision decision = Scheduler.place(pod, nodes, pods);
            boolean alreadySaid = decision.node().isEmpty() && PodConditions.find(pod, "PodScheduled")
                    .map(c -> decision.message().equals(c.getMessage())).orElse(false);
            if (alreadySaid) {
                continue;
            }
            Optional<Pod> written = store.update(Paths.pod(pod.getMetadata().getNamespace(),
                    pod.getMetadata().getName()), Pod.class, pod.getMetadata().getUid(), fresh -> {
                        if (fresh.getSpec().getNodeName() != null || fresh.getMetadata().getDeletionTimestamp() != null) {
                            return null;
                        }
                        if (decision.node().isPresent()) {
                            fresh.getSpec().setNodeName(decision.node().get());
                            PodConditions.set(fresh, "PodScheduled", "True", null, null, clock.instant());
                        } else {
                            PodConditions.set(fresh, "PodScheduled", "False", "Unschedulable", decision.message(),
                                    clock.instant());
                        }
                        return fresh;
                    });
            if (written.isPresent() && decision.node().isPresent()) {
                // Later pods of this pass see this one on its node (resources, anti-affinity).
                Pod bound = written.get();
                pods = pods.stream().map(p -> p.getMetadata().getUid().equals(bound.getMetadata().getUid()) ? bound : p)
                        .toList();
            }
        }
    }

    Optional<Throwable> lastFailure() {
        return Optional.ofNullable(lastFailure);
    }

    @Override
    public void close() {
        running = false;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
