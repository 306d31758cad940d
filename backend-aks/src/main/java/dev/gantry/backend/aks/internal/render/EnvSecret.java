package dev.gantry.backend.aks.internal.render;

import dev.gantry.api.backend.Secret;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The job's Secret {@code NAME-env}: the one place its secret values live. Immutable, and owned by the Job, so it
 * goes with the Job; the pods read it through {@code secretKeyRef}s.
 */
public final class EnvSecret {
    private EnvSecret() {
    }

    /** The Secret of the job's resolved secrets, owned by the Job as created ({@link JobManifest#ownerReference}). */
    public static io.fabric8.kubernetes.api.model.Secret render(JobIdentity job, Map<String, Secret> values,
                                                                OwnerReference owner) {
        Map<String, String> data = new LinkedHashMap<>();
        values.forEach((name, secret) -> data.put(name, Base64.getEncoder().encodeToString(
                secret.reveal().getBytes(StandardCharsets.UTF_8))));
        return new SecretBuilder().withMetadata(job.metadata(job.secretName())).editMetadata()
                .withOwnerReferences(owner).endMetadata()
                .withType("Opaque").withImmutable(true).withData(data).build();
    }
}
