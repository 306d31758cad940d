package dev.gantry.backend.aks.internal.render;

import dev.gantry.api.Checkpoint;
import dev.gantry.api.ContainerSpec;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.backend.StartChecks;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.aks.internal.AksSettings;
import dev.gantry.backend.aks.internal.pools.TargetPool;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicy;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyOnExitCodesRequirement;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyOnPodConditionsPattern;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The Job one submit makes: Indexed (also for one node), one pod per rank and never two ({@code podReplacementPolicy:
 * Failed}), no retries but the requeue of a one-node job after an eviction, removed {@code ttlAfterFinished} after it
 * ended; created suspended when a Secret must be in place first or Kueue admits it.
 */
public final class JobManifest {
    /** The one container of a rank's pod; its name is what the Job controller's failure messages quote. */
    public static final String CONTAINER = "workload";
    public static final String KUEUE_QUEUE_LABEL = "kueue.x-k8s.io/queue-name";
    /** The pod condition Kubernetes sets on a pod it ends for reasons not its own (eviction, preemption, GC). */
    public static final String DISRUPTION_TARGET = "DisruptionTarget";
    static final String SHM_VOLUME = "dshm";
    static final String CHECKPOINT_VOLUME = "checkpoint";

    private JobManifest() {
    }

    /**
     * The Job of a plan. PLAN_REJECTED when the workload names no image and the settings give no default (validate
     * refuses such plans first).
     */
    public static Job render(JobIdentity job, Plan plan, SubmitOptions options, AksSettings settings) {
        return render(job, plan, options, settings, Optional.empty());
    }

    /**
     * The Job of a plan placed in a node pool Gantry manages: the pool in the pods' selector and, while Azure is
     * creating it, named in the annotation {@value Placement#NEW_NODE_POOL}, which the status table reads.
     */
    public static Job render(JobIdentity job, Plan plan, SubmitOptions options, AksSettings settings,
                             Optional<TargetPool> pool) {
        boolean suspended = !plan.workload().secrets().isEmpty() || settings.kueueQueue().isPresent();
        JobBuilder builder = new JobBuilder().withMetadata(job.metadata(job.name()));
        settings.kueueQueue().ifPresent(queue -> builder.editMetadata().addToLabels(KUEUE_QUEUE_LABEL, queue)
                .endMetadata());
        pool.filter(TargetPool::beingCreated).ifPresent(created -> builder.editMetadata()
                .addToAnnotations(Placement.NEW_NODE_POOL, created.name()).endMetadata());
        return builder.withNewSpec()
                .withCompletionMode("Indexed").withCompletions(plan.nodes()).withParallelism(plan.nodes())
                .withBackoffLimitPerIndex(0).withMaxFailedIndexes(0).withPodReplacementPolicy("Failed")
                .withPodFailurePolicy(failurePolicy(plan.nodes()))
                .withTtlSecondsAfterFinished(Math.toIntExact(settings.ttlAfterFinished().toSeconds()))
                .withSuspend(suspended ? Boolean.TRUE : null)
                .withNewTemplate().withNewMetadata().withLabels(job.labels()).endMetadata()
                .withSpec(pod(job, plan, options, settings, pool)).endTemplate()
                .endSpec().build();
    }

    /**
     * One node: an eviction ({@code DisruptionTarget}) is ignored, so the Job controller requeues the rank; several
     * nodes: it ends the job, since one replaced rank cannot rejoin the others' world. Any exit code but 0 ends it.
     */
    static PodFailurePolicy failurePolicy(int nodes) {
        List<PodFailurePolicyRule> rules = new ArrayList<>();
        rules.add(new PodFailurePolicyRule(nodes == 1 ? "Ignore" : "FailJob", null,
                List.of(new PodFailurePolicyOnPodConditionsPattern("True", DISRUPTION_TARGET))));
        rules.add(new PodFailurePolicyRule("FailJob", new PodFailurePolicyOnExitCodesRequirement(CONTAINER, "NotIn",
                List.of(0)), List.of()));
        return new PodFailurePolicy(rules);
    }

    private static PodSpec pod(JobIdentity job, Plan plan, SubmitOptions options, AksSettings settings,
                               Optional<TargetPool> pool) {
        PodResources resources = PodResources.of(plan, settings.rdmaResource());
        List<Volume> volumes = new ArrayList<>();
        List<VolumeMount> mounts = new ArrayList<>();
        Quantity shm = settings.shmSize().map(Quantity::new).orElseGet(resources::halfMemory);
        volumes.add(new VolumeBuilder().withName(SHM_VOLUME).withNewEmptyDir().withMedium("Memory")
                .withSizeLimit(shm).endEmptyDir().build());
        mounts.add(new VolumeMountBuilder().withName(SHM_VOLUME).withMountPath("/dev/shm").build());
        Optional<String> checkpointDir = plan.workload().checkpoint().map(Checkpoint::path)
                .filter(path -> path.startsWith("/"));
        if (checkpointDir.isPresent() && settings.checkpointClaim().isPresent()) {
            volumes.add(new VolumeBuilder().withName(CHECKPOINT_VOLUME).withNewPersistentVolumeClaim()
                    .withClaimName(settings.checkpointClaim().get()).endPersistentVolumeClaim().build());
            mounts.add(new VolumeMountBuilder().withName(CHECKPOINT_VOLUME).withMountPath(checkpointDir.get())
                    .withSubPath(subPath(checkpointDir.get())).build());
        }
        ContainerBuilder container = new ContainerBuilder().withName(CONTAINER).withImage(image(plan, settings))
                .withCommand(RankShim.command(StartChecks.command(plan)))
                .withWorkingDir(plan.workload().workingDir().orElse(null))
                .withEnv(PodEnvironment.of(job, plan, options, settings.masterPort()))
                .withResources(resources.requirements()).withVolumeMounts(mounts);
        if (resources.rdmaResource().isPresent()) {
            container.withNewSecurityContext().withNewCapabilities().addToAdd("IPC_LOCK").endCapabilities()
                    .endSecurityContext();
        }
        Container built = container.build();
        return new PodSpecBuilder().withRestartPolicy("Never")
                .withServiceAccountName(settings.serviceAccount().orElse(null))
                .withAutomountServiceAccountToken(false)
                // The workload's environment is what Gantry gives it, not a variable per Service of the namespace.
                .withEnableServiceLinks(false)
                .withImagePullSecrets(settings.imagePullSecrets().stream().map(LocalObjectReference::new).toList())
                .withSubdomain(plan.nodes() > 1 ? job.name() : null)
                .withNodeSelector(Placement.nodeSelector(plan, settings, pool))
                .withAffinity(Placement.affinity(plan, job))
                .withTolerations(Placement.tolerations(plan, settings))
                .withContainers(built).withVolumes(volumes).build();
    }

    /** The claim's directory for a checkpoint path: the path without its leading '/', one per step. */
    static String subPath(String checkpointDir) {
        String relative = checkpointDir.replaceAll("^/+", "").replaceAll("/+$", "");
        return relative.isEmpty() ? "checkpoint" : relative;
    }

    private static String image(Plan plan, AksSettings settings) {
        return plan.workload().container().map(ContainerSpec::image).or(settings::defaultImage)
                .orElseThrow(() -> new GantryException(ErrorCode.PLAN_REJECTED, "workload '"
                        + plan.workload().name() + "' names no container image and backends.aks.defaultImage is "
                        + "not set; every pod on Kubernetes is a container: add container: IMAGE to the spec or "
                        + "set backends.aks.defaultImage"));
    }

    /**
     * The owner reference to a Job as the API server returned it (with its uid). Not {@code blockOwnerDeletion}:
     * that needs a permission on the Job's finalizers that Gantry's Role does not grant, and foreground deletion of
     * the Job removes what it owns anyway.
     */
    public static OwnerReference ownerReference(Job created) {
        if (created.getMetadata() == null || created.getMetadata().getUid() == null) {
            throw new IllegalArgumentException("the Job must be the one the API server returned, with its uid");
        }
        return new OwnerReferenceBuilder().withApiVersion("batch/v1").withKind("Job")
                .withName(created.getMetadata().getName()).withUid(created.getMetadata().getUid()).build();
    }
}
