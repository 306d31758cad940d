package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Job controller for Indexed Jobs as Kubernetes 1.32 runs them: one pod per index named NAME-INDEX-xxxxx with
 * hostname NAME-INDEX, the index in an annotation, a label and {@code JOB_COMPLETION_INDEX}; a tracking finalizer
 * on each pod until its end is counted; {@code suspend}; {@code podFailurePolicy}; {@code backoffLimit},
 * {@code backoffLimitPerIndex} (with the failure-count annotations on replacements) and {@code maxFailedIndexes};
 * {@code podReplacementPolicy: Failed}; {@code activeDeadlineSeconds}; the conditions FailureTarget or
 * SuccessCriteriaMet first, Failed or Complete once no pod of the Job runs any more.
 */
final class JobController {
    static final String TRACKING_FINALIZER = "batch.kubernetes.io/job-tracking";
    static final String COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index";
    static final String FAILURE_COUNT = "batch.kubernetes.io/job-index-failure-count";
    static final String IGNORED_FAILURE_COUNT = "batch.kubernetes.io/job-index-ignored-failure-count";
    static final String CONTROLLER_UID = "batch.kubernetes.io/controller-uid";
    static final String JOB_NAME = "batch.kubernetes.io/job-name";

    /** The failure counts the next pod of an index carries. */
    private record IndexCounts(int failures, int ignored) {
    }

    private record Verdict(String reason, String message) {
    }

    private final ObjectStore store;
    private final Clock clock;
    private final Map<String, Map<Integer, IndexCounts>> countsByJob = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> countedByJob = new ConcurrentHashMap<>();
    private final Map<String, Verdict> failureTargets = new ConcurrentHashMap<>();
    private int podWrites;

    JobController(ObjectStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** One pass over a Job and the pods it owns. */
    void sync(Job job, List<Pod> allPods) {
        if (job.getMetadata().getDeletionTimestamp() != null) {
            return;
        }
        String uid = job.getMetadata().getUid();
        List<Pod> pods = allPods.stream().filter(p -> ownedBy(p, uid))
                .sorted(Comparator.comparing(p -> p.getMetadata().getCreationTimestamp())).toList();
        JobStatus before = Json.read(Json.write(job.getStatus() == null ? new JobStatus() : job.getStatus()),
                JobStatus.class);
        JobStatus status = Json.read(Json.write(before), JobStatus.class);
        Instant now = clock.instant();
        int completions = job.getSpec().getCompletions() == null ? 1 : job.getSpec().getCompletions();
        SortedSet<Integer> succeeded = Indexes.parse(status.getCompletedIndexes());
        SortedSet<Integer> failedIndexes = Indexes.parse(status.getFailedIndexes());

        int writesBefore = podWrites;
        if (finished(status)) {
            releaseFinalizers(pods);
            if (hasCondition(status, "Failed")) {
                pods.stream().filter(JobController::isLive).forEach(this::deletePod);
            }
            return;
        }
        List<Pod> counted = account(job, pods, status, succeeded, failedIndexes);
        status.setCompletedIndexes(Indexes.format(succeeded));
        if (job.getSpec().getBackoffLimitPerIndex() != null) {
            status.setFailedIndexes(Indexes.format(failedIndexes));
        }

        Optional<Verdict> failure = Optional.ofNullable(failureTargets.get(uid))
                .or(() -> failureOf(job, status, succeeded, failedIndexes, completions, now));
        boolean complete = failure.isEmpty() && succeeded.size() >= completions;
        if (failure.isPresent()) {
            setCondition(status, "FailureTarget", failure.get(), now);
        } else if (complete) {
            setCondition(status, "SuccessCriteriaMet", completionsReached(), now);
        } else if (Boolean.TRUE.equals(job.getSpec().getSuspend())) {
            suspend(pods, status, now);
        } else {
            resume(status, now);
            createAndTrimPods(job, pods, succeeded, failedIndexes, completions);
        }
        if (failure.isPresent() || complete) {
            pods.stream().filter(JobController::isLive).forEach(this::deletePod);
        }
        // Read again only this Job's pods, and only when this pass created or deleted some.
        List<Pod> current = podWrites == writesBefore ? pods
                : store.list(Paths.pods(job.getMetadata().getNamespace()) + "?labelSelector=" + CONTROLLER_UID + "%3D"
                        + uid, Pod.class).stream().filter(p -> ownedBy(p, uid)).toList();
        status.setActive((int) current.stream().filter(JobController::isLive).count());
        status.setReady((int) current.stream().filter(JobController::isLive)
                .filter(p -> PodConditions.isTrue(p, "Ready")).count());
        status.setTerminating((int) current.stream().filter(JobController::isTerminating).count());
        boolean stillRunning = current.stream().anyMatch(p -> !Scheduler.isTerminal(p));
        if (failure.isPresent() && !stillRunning) {
            setCondition(status, "Failed", failure.get(), now);
        } else if (complete && !stillRunning) {
            setCondition(status, "Complete", completionsReached(), now);
            status.setCompletionTime(ObjectStore.timestamp(now));
        }
        if (!Json.write(status).equals(Json.write(before))) {
            writeStatus(job, status);
        }
        releaseFinalizers(counted);
    }

    private List<Pod> account(Job job, List<Pod> pods, JobStatus status, SortedSet<Integer> succeeded,
            SortedSet<Integer> failedIndexes) {
        String uid = job.getMetadata().getUid();
        Set<String> counted = countedByJob.computeIfAbsent(uid, k -> ConcurrentHashMap.newKeySet());
        Map<Integer, IndexCounts> counts = countsByJob.computeIfAbsent(uid, k -> new ConcurrentHashMap<>());
        List<Pod> accounted = new ArrayList<>();
        for (Pod pod : pods) {
            if (!Scheduler.isTerminal(pod) || !pod.getMetadata().getFinalizers().contains(TRACKING_FINALIZER)) {
                continue;
            }
            accounted.add(pod);
            if (!counted.add(pod.getMetadata().getUid())) {
                continue;
            }
            int index = indexOf(pod);
            if ("Succeeded".equals(pod.getStatus().getPhase())) {
                if (succeeded.add(index)) {
                    status.setSucceeded(orZero(status.getSucceeded()) + 1);
                }
                continue;
            }
            PodFailurePolicy.Outcome outcome = PodFailurePolicy.evaluate(job, pod);
            IndexCounts carried = new IndexCounts(annotation(pod, FAILURE_COUNT), annotation(pod, IGNORED_FAILURE_COUNT));
            IndexCounts next = outcome.counts() ? new IndexCounts(carried.failures() + 1, carried.ignored())
                    : new IndexCounts(carried.failures(), carried.ignored() + 1);
            counts.put(index, next);
            if (outcome.counts()) {
                status.setFailed(orZero(status.getFailed()) + 1);
            }
            switch (outcome.action()) {
                case FAIL_JOB -> failureTargets.putIfAbsent(uid, new Verdict("PodFailurePolicy", outcome.message()));
                case FAIL_INDEX -> failedIndexes.add(index);
                case COUNT -> {
                    Integer perIndex = job.getSpec().getBackoffLimitPerIndex();
                    if (perIndex != null && next.failures() > perIndex) {
                        failedIndexes.add(index);
                    }
                }
                case IGNORE -> {
                }
            }
        }
        return accounted;
    }

    private Optional<Verdict> failureOf(Job job, JobStatus status, SortedSet<Integer> succeeded,
            SortedSet<Integer> failedIndexes, int completions, Instant now) {
        var spec = job.getSpec();
        if (spec.getMaxFailedIndexes() != null && failedIndexes.size() > spec.getMaxFailedIndexes()) {
            return Optional.of(new Verdict("MaxFailedIndexesExceeded",
                    "Job has exceeded the specified maximal number of failed indexes"));
        }
        int backoffLimit = spec.getBackoffLimit() == null ? 6 : spec.getBackoffLimit();
        if (orZero(status.getFailed()) > backoffLimit) {
            return Optional.of(new Verdict("BackoffLimitExceeded", "Job has reached the specified backoff limit"));
        }
        if (!failedIndexes.isEmpty() && succeeded.size() + failedIndexes.size() >= completions) {
            return Optional.of(new Verdict("FailedIndexes", "Job has failed indexes"));
        }
        if (spec.getActiveDeadlineSeconds() != null && status.getStartTime() != null
                && !Boolean.TRUE.equals(spec.getSuspend())
                && Duration.between(Instant.parse(status.getStartTime()), now).getSeconds()
                        >= spec.getActiveDeadlineSeconds()) {
            return Optional.of(new Verdict("DeadlineExceeded", "Job was active longer than specified deadline"));
        }
        return Optional.empty();
    }

    private void suspend(List<Pod> pods, JobStatus status, Instant now) {
        pods.stream().filter(JobController::isLive).forEach(pod -> {
            countedByJob.computeIfAbsent(ownerUid(pod), k -> ConcurrentHashMap.newKeySet())
                    .add(pod.getMetadata().getUid());
            deletePod(pod);
        });
        if (!hasCondition(status, "Suspended")) {
            setCondition(status, "Suspended", new Verdict("JobSuspended", "Job suspended"), now);
            status.setStartTime(null);
        }
    }

    private void resume(JobStatus status, Instant now) {
        if (hasCondition(status, "Suspended")) {
            JobCondition suspended = status.getConditions().stream().filter(c -> c.getType().equals("Suspended"))
                    .findFirst().orElseThrow();
            suspended.setStatus("False");
            suspended.setReason("JobResumed");
            suspended.setMessage("Job resumed");
            suspended.setLastTransitionTime(ObjectStore.timestamp(now));
            suspended.setLastProbeTime(ObjectStore.timestamp(now));
        }
        if (status.getStartTime() == null) {
            status.setStartTime(ObjectStore.timestamp(now));
        }
    }

    private void createAndTrimPods(Job job, List<Pod> pods, SortedSet<Integer> succeeded,
            SortedSet<Integer> failedIndexes, int completions) {
        int parallelism = job.getSpec().getParallelism() == null ? 1 : job.getSpec().getParallelism();
        boolean waitForFailed = "Failed".equals(job.getSpec().getPodReplacementPolicy())
                || (job.getSpec().getPodReplacementPolicy() == null && job.getSpec().getPodFailurePolicy() != null);
        int active = (int) pods.stream().filter(JobController::isLive).count();
        Map<Integer, List<Pod>> byIndex = new HashMap<>();
        pods.forEach(p -> byIndex.computeIfAbsent(indexOf(p), k -> new ArrayList<>()).add(p));
        for (int index = 0; index < completions; index++) {
            List<Pod> ofIndex = byIndex.getOrDefault(index, List.of());
            List<Pod> live = ofIndex.stream().filter(JobController::isLive).toList();
            if (succeeded.contains(index) || failedIndexes.contains(index)) {
                live.forEach(this::deletePod);
                continue;
            }
            if (live.size() > 1) {
                live.subList(1, live.size()).forEach(this::deletePod);
                continue;
            }
            boolean terminating = ofIndex.stream().anyMatch(JobController::isTerminating);
            if (live.isEmpty() && !(waitForFailed && terminating) && active < parallelism) {
                createPod(job, index);
                active++;
            }
        }
    }

    private void createPod(Job job, int index) {
        String name = job.getMetadata().getName();
        String uid = job.getMetadata().getUid();
        var template = job.getSpec().getTemplate();
        Map<String, String> labels = new LinkedHashMap<>(template.getMetadata() == null ? Map.of()
                : template.getMetadata().getLabels());
        labels.put(CONTROLLER_UID, uid);
        labels.put(JOB_NAME, name);
        labels.put("controller-uid", uid);
        labels.put("job-name", name);
        labels.put(COMPLETION_INDEX, String.valueOf(index));
        Map<String, String> annotations = new LinkedHashMap<>(template.getMetadata() == null ? Map.of()
                : template.getMetadata().getAnnotations());
        annotations.put(COMPLETION_INDEX, String.valueOf(index));
        if (job.getSpec().getBackoffLimitPerIndex() != null) {
            IndexCounts counts = countsByJob.getOrDefault(uid, Map.of()).getOrDefault(index, new IndexCounts(0, 0));
            annotations.put(FAILURE_COUNT, String.valueOf(counts.failures()));
            if (counts.ignored() > 0) {
                annotations.put(IGNORED_FAILURE_COUNT, String.valueOf(counts.ignored()));
            }
        }
        PodSpec spec = Json.read(Json.write(template.getSpec()), PodSpec.class);
        if (spec.getHostname() == null || spec.getHostname().isEmpty()) {
            spec.setHostname(name + "-" + index);
        }
        for (Container container : concat(spec.getInitContainers(), spec.getContainers())) {
            if (container.getEnv().stream().noneMatch(e -> e.getName().equals("JOB_COMPLETION_INDEX"))) {
                container.getEnv().add(new EnvVarBuilder().withName("JOB_COMPLETION_INDEX").withNewValueFrom()
                        .withNewFieldRef().withFieldPath("metadata.annotations['" + COMPLETION_INDEX + "']")
                        .endFieldRef().endValueFrom().build());
            }
        }
        PodDefaults.apply(spec);
        Pod pod = new PodBuilder().withNewMetadata().withName(name + "-" + index + "-" + NameSuffix.random())
                .withGenerateName(name + "-" + index + "-").withNamespace(job.getMetadata().getNamespace())
                .withLabels(labels).withAnnotations(annotations).withFinalizers(TRACKING_FINALIZER)
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("batch/v1").withKind("Job")
                        .withName(name).withUid(uid).withController(true).withBlockOwnerDeletion(true).build())
                .endMetadata().withSpec(spec).withNewStatus().withPhase("Pending").withQosClass(PodDefaults.qosClass(spec))
                .endStatus().build();
        store.create(Paths.pods(job.getMetadata().getNamespace()), pod);
        podWrites++;
    }

    private static List<Container> concat(List<Container> a, List<Container> b) {
        List<Container> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }


    /** Removes the tracking finalizer once a pod's end is counted (and from pods of a Job that is gone). */
    void releaseFinalizers(List<Pod> pods) {
        for (Pod pod : pods) {
            if (!pod.getMetadata().getFinalizers().contains(TRACKING_FINALIZER)) {
                continue;
            }
            String path = Paths.pod(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
            store.update(path, Pod.class, pod.getMetadata().getUid(), fresh -> {
                fresh.getMetadata().setFinalizers(fresh.getMetadata().getFinalizers().stream()
                        .filter(f -> !f.equals(TRACKING_FINALIZER)).toList());
                return fresh;
            });
        }
    }

    private void deletePod(Pod pod) {
        podWrites++;
        store.delete(Paths.pod(pod.getMetadata().getNamespace(), pod.getMetadata().getName()),
                DeleteOptions.BACKGROUND);
    }

    private void writeStatus(Job job, JobStatus status) {
        // Onto the Job as it is now: Gantry may have patched it since this pass read it (an annotation, unsuspend).
        store.update(Paths.job(job.getMetadata().getNamespace(), job.getMetadata().getName()), Job.class,
                job.getMetadata().getUid(), fresh -> {
                    fresh.setStatus(status);
                    return fresh;
                });
    }

    static boolean isLive(Pod pod) {
        return !Scheduler.isTerminal(pod) && pod.getMetadata().getDeletionTimestamp() == null;
    }

    static boolean isTerminating(Pod pod) {
        return !Scheduler.isTerminal(pod) && pod.getMetadata().getDeletionTimestamp() != null;
    }

    static boolean finished(JobStatus status) {
        return hasCondition(status, "Complete") || hasCondition(status, "Failed");
    }

    private static boolean hasCondition(JobStatus status, String type) {
        return status.getConditions().stream().anyMatch(c -> c.getType().equals(type) && "True".equals(c.getStatus()));
    }

    private static void setCondition(JobStatus status, String type, Verdict verdict, Instant now) {
        if (hasCondition(status, type)) {
            return;
        }
        List<JobCondition> conditions = new ArrayList<>(status.getConditions());
        conditions.removeIf(c -> c.getType().equals(type));
        conditions.add(new JobConditionBuilder().withType(type).withStatus("True").withReason(verdict.reason())
                .withMessage(verdict.message()).withLastProbeTime(ObjectStore.timestamp(now))
                .withLastTransitionTime(ObjectStore.timestamp(now)).build());
        status.setConditions(conditions);
    }

    private static Verdict completionsReached() {
        return new Verdict("CompletionsReached", "Reached expected number of succeeded pods");
    }

    static boolean ownedBy(Pod pod, String uid) {
        return pod.getMetadata().getOwnerReferences().stream().anyMatch(r -> uid.equals(r.getUid()));
    }

    private static String ownerUid(Pod pod) {
        return pod.getMetadata().getOwnerReferences().stream().findFirst().map(r -> r.getUid()).orElse("");
    }

    static int indexOf(Pod pod) {
        String value = pod.getMetadata().getAnnotations().get(COMPLETION_INDEX);
        return value == null ? -1 : Integer.parseInt(value);
    }

    private static int annotation(Pod pod, String key) {
        String value = pod.getMetadata().getAnnotations().get(key);
        return value == null ? 0 : Integer.parseInt(value);
    }

    private static int orZero(Integer value) {
        return value == null ? 0 : value;
    }

    /** Forgets what it kept in memory about a Job that is gone. */
    void forget(Set<String> liveJobUids) {
        countsByJob.keySet().retainAll(liveJobUids);
        countedByJob.keySet().retainAll(liveJobUids);
        failureTargets.keySet().retainAll(liveJobUids);
    }
}
