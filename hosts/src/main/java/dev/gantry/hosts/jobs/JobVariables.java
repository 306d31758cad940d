package dev.gantry.hosts.jobs;

import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.JobEnvironment;
import dev.gantry.api.backend.SecretResolver;
import dev.gantry.api.backend.SubmitOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job's own environment, the same on every transport and every backend that runs jobs on hosts: the workload's
 * variables and its secrets, then the SPI's job-environment contract for each rank (which a workload cannot override:
 * specs refuse {@code GANTRY_} names).
 */
public final class JobVariables {
    private JobVariables() {
    }

    /** Secrets are resolved here, at submit time, and only ever travel in a child's environment or a 0600 file. */
    public static Map<String, String> workload(Workload workload, SecretResolver secrets) {
        Map<String, String> env = new LinkedHashMap<>(workload.env());
        workload.secrets().forEach((name, ref) -> env.put(name, secrets.resolve(ref).reveal()));
        return env;
    }

    /** One rank's whole environment: the workload's, then the contract for that rank. */
    public static Map<String, String> rank(Map<String, String> workload, String id, Plan plan, SubmitOptions options,
                                    JobEnvironment.Rendezvous rendezvous) {
        Map<String, String> env = new LinkedHashMap<>(workload);
        env.putAll(JobEnvironment.of(id, plan, options, rendezvous));
        return env;
    }

    /** The variable names a job record keeps (never their values). */
    public static List<String> names(Workload workload) {
        List<String> names = new ArrayList<>(workload.env().keySet());
        names.addAll(workload.secrets().keySet());
        return names;
    }
}
