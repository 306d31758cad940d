package dev.gantry.backend.aks.internal.submit;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.Secret;
import dev.gantry.api.backend.SecretResolver;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.aks.internal.AksSettings;
import dev.gantry.backend.aks.internal.kube.KubeConnection;
import dev.gantry.backend.aks.internal.pools.PoolKeeper;
import dev.gantry.backend.aks.internal.pools.TargetPool;
import dev.gantry.backend.aks.internal.render.EnvSecret;
import dev.gantry.backend.aks.internal.render.JobIdentity;
import dev.gantry.backend.aks.internal.render.JobManifest;
import dev.gantry.backend.aks.internal.render.RankService;
import dev.gantry.backend.aks.internal.status.JobRecords;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One submit: makes sure the plan's node pool exists or is being created (when Gantry manages pools), creates the
 * Job (suspended when a Secret must be in place first), then the Service of a multi-node job and the Secret, both
 * owned by the Job, then unsuspends the Job unless Kueue admits it. Every create that
 * answers 409 reads what is there, checks its idempotency key and goes on, so a submit killed between any two
 * requests and retried with the same key ends with exactly one Job. A key the records know ended costs nothing.
 */
public final class JobSubmitter {
    private final KubeConnection connection;
    private final AksSettings settings;
    private final SecretResolver secrets;
    private final JobRecords records;
    private final String version;
    private final PoolKeeper pools;

    public JobSubmitter(KubeConnection connection, AksSettings settings, SecretResolver secrets, JobRecords records,
                        String version, PoolKeeper pools) {
        this.connection = connection;
        this.settings = settings;
        this.secrets = secrets;
        this.records = records;
        this.version = version;
        this.pools = pools;
    }

    public JobRef submit(Plan plan, SubmitOptions options) {
        JobIdentity identity = JobIdentity.of(plan, options, settings.namespace(), version);
        JobRef ref = new JobRef("aks", identity.name());
        if (records.terminal(identity.name()).isPresent() || records.cancelledAt(identity.name()).isPresent()) {
            return ref;
        }
        Optional<TargetPool> pool = pools.ensure(plan);
        Job manifest = JobManifest.render(identity, plan, options, settings, pool);
        // Resolved before anything is created: an unresolvable reference leaves nothing behind.
        Map<String, Secret> values = new LinkedHashMap<>();
        plan.workload().secrets().forEach((name, secretRef) -> values.put(name, secrets.resolve(secretRef)));
        Job job = createOrAdopt(identity, "Job", manifest, () -> connection.client().batch().v1().jobs()
                .resource(manifest).create(), () -> connection.client().batch().v1().jobs()
                .withName(identity.name()).get());
        OwnerReference owner = JobManifest.ownerReference(job);
        if (plan.nodes() > 1) {
            var service = RankService.render(identity, settings.masterPort(), owner);
            createOrAdopt(identity, "Service", service, () -> connection.client().services().resource(service)
                    .create(), () -> connection.client().services().withName(identity.name()).get());
        }
        if (!values.isEmpty()) {
            var secret = EnvSecret.render(identity, values, owner);
            createOrAdopt(identity, "Secret", secret, () -> connection.client().secrets().resource(secret).create(),
                    () -> connection.client().secrets().withName(identity.secretName()).get());
        }
        boolean suspended = job.getSpec() != null && Boolean.TRUE.equals(job.getSpec().getSuspend());
        if (suspended && settings.kueueQueue().isEmpty()) {
            connection.run("starting Job " + identity.name(), () -> connection.patchJob(identity.name(),
                    "{\"spec\":{\"suspend\":false}}"));
        }
        return ref;
    }

    /**
     * Creates the object, or on 409 reads the one there and adopts it when it carries the same idempotency key;
     * another key's object of that name is an error naming both, and nothing is changed.
     */
    private <T extends HasMetadata> T createOrAdopt(JobIdentity identity, String kind, T object, Supplier<T> create,
                                                    Supplier<T> read) {
        String name = object.getMetadata().getName();
        String what = "creating " + kind + " " + name + " in namespace " + identity.namespace();
        try {
            connection.ensureReachable();
            return create.get();
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                throw connection.failure(what, e);
            }
        }
        T existing = connection.call("reading " + kind + " " + name, read::get);
        if (existing == null) {
            throw new GantryException(ErrorCode.REMOTE_ERROR, what + " answered 409 AlreadyExists but reading it "
                    + "found nothing (deleted meanwhile); submit again");
        }
        String key = existing.getMetadata().getAnnotations() == null ? null
                : existing.getMetadata().getAnnotations().get(JobIdentity.IDEMPOTENCY_KEY);
        if (!identity.idempotencyKey().equals(key)) {
            throw new GantryException(ErrorCode.PLAN_REJECTED, kind + " " + name + " in namespace "
                    + identity.namespace() + " belongs to " + (key == null ? "no Gantry idempotency key"
                    : "idempotency key '" + key + "'") + ", not to '" + identity.idempotencyKey() + "', which "
                    + "names it too; nothing was changed: delete it (kubectl delete " + kind.toLowerCase()
                    + " " + name + " -n " + identity.namespace() + ") or use another namespace");
        }
        return existing;
    }
}
