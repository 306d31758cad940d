package dev.gantry.hosts.jobs;

import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.JobEnvironment;
import dev.gantry.api.backend.SecretResolver;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.ssh.ShellQuoting;
import java.nio.charset.StandardCharsets;
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

    /**
     * An environment file a shell sources: {@code NAME='value'} lines in name order, each value quoted whole, so that
     * any byte but NUL survives. Written with mode 0600; it holds secrets.
     */
    public static byte[] environmentFile(Map<String, String> environment) {
        StringBuilder text = new StringBuilder();
        environment.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e ->
                text.append(e.getKey()).append('=').append(ShellQuoting.quote(e.getValue())).append('\n'));
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The variable names a job record keeps (never their values). */
    public static List<String> names(Workload workload) {
        List<String> names = new ArrayList<>(workload.env().keySet());
        names.addAll(workload.secrets().keySet());
        return names;
    }
}
