package dev.gantry.backend.aks.internal.render;

import dev.gantry.api.Plan;
import dev.gantry.api.backend.JobEnvironment;
import dev.gantry.api.backend.SubmitOptions;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A rank's environment, in the order the kubelet sets it: the workload's variables, then its secrets as references
 * into the job's Secret (never a value), then the job-environment contract, whose rank-dependent variables come from
 * the Job controller's completion-index annotation through the downward API, and last the shim's requeue count.
 * Every value has its {@code $} doubled, since the kubelet expands {@code $(NAME)} in values too.
 */
public final class PodEnvironment {
    /** The annotation the Job controller gives each pod of an Indexed Job: its rank. */
    public static final String COMPLETION_INDEX_ANNOTATION = "batch.kubernetes.io/job-completion-index";
    /** The contract's variables that differ per rank. */
    static final Set<String> RANK_VARIABLES = Set.of(JobEnvironment.NODE_RANK_GANTRY, JobEnvironment.NODE_RANK,
            JobEnvironment.RANK);

    private PodEnvironment() {
    }

    public static List<EnvVar> of(JobIdentity job, Plan plan, SubmitOptions options, int masterPort) {
        List<EnvVar> env = new ArrayList<>();
        plan.workload().env().forEach((name, value) -> env.add(new EnvVar(name, KubeText.verbatim(value), null)));
        for (String secret : plan.workload().secrets().keySet()) {
            env.add(new EnvVarBuilder().withName(secret).withNewValueFrom().withNewSecretKeyRef()
                    .withName(job.secretName()).withKey(secret).withOptional(false).endSecretKeyRef().endValueFrom()
                    .build());
        }
        JobEnvironment.Rendezvous rendezvous = new JobEnvironment.Rendezvous(0,
                plan.nodes() > 1 ? job.masterAddress() : "127.0.0.1", masterPort);
        for (Map.Entry<String, String> variable : JobEnvironment.of(job.name(), plan, options, rendezvous).entrySet()) {
            env.add(RANK_VARIABLES.contains(variable.getKey())
                    ? annotation(variable.getKey(), COMPLETION_INDEX_ANNOTATION)
                    : new EnvVar(variable.getKey(), KubeText.verbatim(variable.getValue()), null));
        }
        env.add(annotation(RankShim.REQUEUES_VARIABLE, RankShim.IGNORED_FAILURES_ANNOTATION));
        return env;
    }

    private static EnvVar annotation(String name, String annotation) {
        return new EnvVarBuilder().withName(name).withNewValueFrom().withNewFieldRef()
                .withFieldPath("metadata.annotations['" + annotation + "']").endFieldRef().endValueFrom().build();
    }
}
