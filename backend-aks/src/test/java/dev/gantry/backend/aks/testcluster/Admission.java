package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;

/**
 * The defaults the API server writes into a Job or a pod when it is created (batch/v1 and core/v1 defaulting and
 * the Job strategy's selector), so what a client reads back is what a real cluster would give it.
 */
final class Admission {
    private Admission() {
    }

    static Job defaults(Job job) {
        var spec = job.getSpec();
        String uid = job.getMetadata().getUid();
        if (spec.getCompletions() == null && spec.getParallelism() == null) {
            spec.setCompletions(1);
        }
        if (spec.getParallelism() == null) {
            spec.setParallelism(1);
        }
        if (spec.getCompletionMode() == null) {
            spec.setCompletionMode("NonIndexed");
        }
        if (spec.getBackoffLimit() == null) {
            spec.setBackoffLimit(spec.getBackoffLimitPerIndex() != null ? Integer.MAX_VALUE : 6);
        }
        if (spec.getSuspend() == null) {
            spec.setSuspend(false);
        }
        if (spec.getManualSelector() == null || !spec.getManualSelector()) {
            spec.setSelector(new LabelSelectorBuilder().addToMatchLabels(JobController.CONTROLLER_UID, uid).build());
        }
        if (spec.getPodReplacementPolicy() == null) {
            spec.setPodReplacementPolicy(spec.getPodFailurePolicy() != null ? "Failed" : "TerminatingOrFailed");
        }
        if (spec.getTemplate().getMetadata() == null) {
            spec.getTemplate().setMetadata(new ObjectMeta());
        }
        var labels = spec.getTemplate().getMetadata().getLabels();
        labels.put(JobController.CONTROLLER_UID, uid);
        labels.put(JobController.JOB_NAME, job.getMetadata().getName());
        labels.put("controller-uid", uid);
        labels.put("job-name", job.getMetadata().getName());
        PodDefaults.apply(spec.getTemplate().getSpec());
        if (job.getStatus() == null) {
            job.setStatus(new JobStatus());
        }
        return job;
    }

    static Pod defaults(Pod pod) {
        PodDefaults.apply(pod.getSpec());
        if (pod.getStatus() == null || pod.getStatus().getPhase() == null) {
            PodStatus status = new PodStatus();
            status.setPhase("Pending");
            status.setQosClass(PodDefaults.qosClass(pod.getSpec()));
            pod.setStatus(status);
        }
        return pod;
    }
}
