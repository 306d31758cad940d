package dev.gantry.backend.aks.internal.render;

import dev.gantry.api.Plan;
import dev.gantry.api.backend.JobNames;
import dev.gantry.api.backend.SubmitOptions;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Who a job is on the cluster: its name, derived from the idempotency key only (so a retried submit finds its
 * objects by name), the namespace, and the labels and annotation every object of it carries.
 *
 * @param name the Job's name, also its Service's and the stem of its Secret's and pods' names
 * @param namespace where its objects live
 * @param idempotencyKey the whole key, kept in the {@value #IDEMPOTENCY_KEY} annotation
 * @param workload the workload's name
 * @param gantryVersion the version of Gantry that made it, as a label value
 */
public record JobIdentity(String name, String namespace, String idempotencyKey, String workload,
                          String gantryVersion) {
    /**
     * The longest Job name: the Job controller names a rank's pod host {@code NAME-INDEX}, which must stay a 63
     * character label for up to {@link dev.gantry.api.Resources#MAX_NODES} ranks, and the Secret {@code NAME-env}.
     */
    public static final int NAME_LENGTH = 52;
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String MANAGER = "gantry";
    public static final String JOB = "gantry.dev/job";
    public static final String WORKLOAD = "gantry.dev/workload";
    public static final String VERSION = "gantry.dev/version";
    public static final String IDEMPOTENCY_KEY = "gantry.dev/idempotency-key";
    /** Set on a Job Gantry cancels, before deleting it: its pods' ends are Gantry's doing, not evictions. */
    public static final String CANCELLED_AT = "gantry.dev/cancelled-at";

    public JobIdentity {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(gantryVersion, "gantryVersion");
    }

    /** The identity of the job a submit makes. */
    public static JobIdentity of(Plan plan, SubmitOptions options, String namespace, String gantryVersion) {
        return new JobIdentity(JobNames.dnsLabel(options.idempotencyKey(), NAME_LENGTH), namespace,
                options.idempotencyKey(), plan.workload().name(), labelValue(gantryVersion));
    }

    /** The Secret holding the job's secret values: {@code NAME-env}. */
    public String secretName() {
        return name + "-env";
    }

    /** Rank 0's pod as the other ranks reach it through the headless Service: {@code NAME-0.NAME}. */
    public String masterAddress() {
        return name + "-0." + name;
    }

    /** The labels of every object of the job and of its pods; {@value #JOB} selects them. */
    public Map<String, String> labels() {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(MANAGED_BY, MANAGER);
        labels.put(JOB, name);
        labels.put(WORKLOAD, workload);
        labels.put(VERSION, gantryVersion);
        return labels;
    }

    /** Metadata of an object of this job: its name, the namespace, the labels and the idempotency key. */
    public ObjectMeta metadata(String objectName) {
        return new ObjectMetaBuilder().withName(objectName).withNamespace(namespace).withLabels(labels())
                .addToAnnotations(IDEMPOTENCY_KEY, idempotencyKey).build();
    }

    /** A version as a label value: letters, digits, '-', '_' and '.', at most 63, alphanumeric at each end. */
    static String labelValue(String version) {
        String clean = version.replaceAll("[^A-Za-z0-9_.-]", "-");
        clean = clean.length() > 63 ? clean.substring(0, 63) : clean;
        return clean.replaceAll("^[^A-Za-z0-9]+|[^A-Za-z0-9]+$", "");
    }
}
