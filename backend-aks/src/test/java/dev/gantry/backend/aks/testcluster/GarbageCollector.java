package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The collectors of the control plane: pod GC (pods of a deleted node marked {@code DeletionByPodGC} and deleted;
 * terminating pods that never ran failed and deleted), the owner-reference garbage collector (dependents of a
 * deleted owner deleted; an owner deleted with {@code Foreground} kept until its dependents are gone), the TTL
 * controller for finished Jobs, and the Job controller's release of pods whose Job is gone.
 */
final class GarbageCollector {
    private static final List<String> DEPENDENT_KINDS = List.of("pods", "services", "secrets");

    private final ObjectStore store;
    private final Disruptions disruptions;
    private final JobController jobs;
    private final Clock clock;

    GarbageCollector(ObjectStore store, Disruptions disruptions, JobController jobs, Clock clock) {
        this.store = store;
        this.disruptions = disruptions;
        this.jobs = jobs;
        this.clock = clock;
    }

    void collectPods(List<Pod> pods, List<Node> nodes) {
        Set<String> nodeNames = nodes.stream().map(n -> n.getMetadata().getName()).collect(Collectors.toSet());
        for (Pod pod : pods) {
            String node = pod.getSpec().getNodeName();
            if (node != null && !nodeNames.contains(node)) {
                if (pod.getMetadata().getDeletionTimestamp() == null || !Scheduler.isTerminal(pod)) {
                    disruptions.collectOrphan(pod);
                }
            } else if (node == null && pod.getMetadata().getDeletionTimestamp() != null && !Scheduler.isTerminal(pod)) {
                failUnscheduledTerminating(pod);
            }
        }
    }

    private void failUnscheduledTerminating(Pod pod) {
        String path = Paths.pod(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
        store.update(path, Pod.class, pod.getMetadata().getUid(), fresh -> {
            fresh.getStatus().setPhase("Failed");
            return fresh;
        }).ifPresent(failed -> store.delete(path, DeleteOptions.force()));
    }

    /** Dependents whose owner is gone, and owners waiting in Foreground deletion for theirs. */
    void collectDependents(List<Job> jobList, List<Pod> pods) {
        Set<String> liveUids = jobList.stream().map(j -> j.getMetadata().getUid()).collect(Collectors.toSet());
        List<HasMetadata> dependents = new ArrayList<>(pods);
        List<String> namespaces = store.cachedList(Paths.namespaces(), GenericKubernetesResource.class).stream()
                .map(n -> n.getMetadata().getName()).toList();
        for (String namespace : namespaces) {
            for (String kind : DEPENDENT_KINDS.subList(1, DEPENDENT_KINDS.size())) {
                dependents.addAll(store.cachedList("/api/v1/namespaces/" + namespace + "/" + kind,
                        GenericKubernetesResource.class));
            }
        }
        for (HasMetadata dependent : dependents) {
            var refs = dependent.getMetadata().getOwnerReferences();
            boolean jobOwned = refs.stream().anyMatch(r -> "Job".equals(r.getKind()));
            boolean ownerGone = jobOwned && refs.stream().filter(r -> "Job".equals(r.getKind()))
                    .noneMatch(r -> liveUids.contains(r.getUid()));
            boolean ownerInForeground = refs.stream().anyMatch(r -> jobList.stream()
                    .anyMatch(j -> j.getMetadata().getUid().equals(r.getUid())
                            && j.getMetadata().getFinalizers().contains(ObjectStore.FOREGROUND_DELETION)));
            if ((ownerGone || ownerInForeground) && dependent.getMetadata().getDeletionTimestamp() == null) {
                store.delete(pathOf(dependent), DeleteOptions.BACKGROUND);
            }
            if (ownerGone && dependent instanceof Pod pod) {
                jobs.releaseFinalizers(List.of(pod));
            }
        }
        for (Job job : jobList) {
            if (job.getMetadata().getFinalizers().contains(ObjectStore.FOREGROUND_DELETION)) {
                finishForeground(job, dependents);
            }
        }
    }

    private void finishForeground(Job job, List<HasMetadata> dependents) {
        String uid = job.getMetadata().getUid();
        List<HasMetadata> remaining = dependents.stream().filter(d -> d.getMetadata().getOwnerReferences().stream()
                .anyMatch(r -> uid.equals(r.getUid()))).toList();
        List<Pod> ownPods = remaining.stream().filter(Pod.class::isInstance).map(Pod.class::cast).toList();
        jobs.releaseFinalizers(ownPods.stream().filter(Scheduler::isTerminal).toList());
        boolean stillThere = remaining.stream().anyMatch(d -> store.get(pathOf(d), GenericKubernetesResource.class)
                .map(found -> found.getMetadata().getUid().equals(d.getMetadata().getUid())).orElse(false));
        if (!stillThere) {
            String path = Paths.job(job.getMetadata().getNamespace(), job.getMetadata().getName());
            store.update(path, Job.class, uid, fresh -> {
                fresh.getMetadata().setFinalizers(fresh.getMetadata().getFinalizers().stream()
                        .filter(f -> !f.equals(ObjectStore.FOREGROUND_DELETION)).toList());
                return fresh;
            });
        }
    }

    /** The TTL-after-finished controller: a Job finished {@code ttlSecondsAfterFinished} ago is deleted. */
    void expireFinishedJobs(List<Job> jobList) {
        Instant now = clock.instant();
        for (Job job : jobList) {
            Integer ttl = job.getSpec().getTtlSecondsAfterFinished();
            if (ttl == null || job.getStatus() == null || job.getMetadata().getDeletionTimestamp() != null
                    || !JobController.finished(job.getStatus())) {
                continue;
            }
            Optional<Instant> finishedAt = job.getStatus().getConditions().stream()
                    .filter(c -> ("Complete".equals(c.getType()) || "Failed".equals(c.getType()))
                            && "True".equals(c.getStatus()))
                    .map(c -> Instant.parse(c.getLastTransitionTime())).findFirst();
            if (finishedAt.isPresent() && !now.isBefore(finishedAt.get().plus(Duration.ofSeconds(ttl)))) {
                store.delete(Paths.job(job.getMetadata().getNamespace(), job.getMetadata().getName()),
                        new DeleteOptions("Foreground", Optional.empty()));
            }
        }
    }

    static String pathOf(HasMetadata object) {
        String namespace = object.getMetadata().getNamespace();
        String name = object.getMetadata().getName();
        return switch (object.getKind()) {
            case "Pod" -> Paths.pod(namespace, name);
            case "Service" -> Paths.services(namespace) + "/" + name;
            case "Secret" -> Paths.secret(namespace, name);
            case "Job" -> Paths.job(namespace, name);
            default -> throw new IllegalArgumentException("no path for kind " + object.getKind());
        };
    }
}
