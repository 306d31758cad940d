package dev.gantry.hosts.jobs;

import dev.gantry.api.Workload;
import dev.gantry.api.backend.SecretResolver;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A job's own environment, the same on every transport: the workload's variables, its secrets and Gantry's. */
public final class JobEnvironment {
    private JobEnvironment() {
    }

    /** Secrets are resolved here, at submit time, and only ever travel in a child's environment or a 0600 file. */
    public static Map<String, String> of(Workload workload, String id, SecretResolver secrets) {
        Map<String, String> env = new LinkedHashMap<>(workload.env());
        workload.secrets().forEach((name, ref) -> env.put(name, secrets.resolve(ref).reveal()));
        env.put("GANTRY_JOB_ID", id);
        workload.checkpoint().ifPresent(c -> env.put("GANTRY_CHECKPOINT_DIR", c.path()));
        return env;
    }

    /** The variable names a job record keeps (never their values). */
    public static List<String> names(Workload workload) {
        List<String> names = new ArrayList<>(workload.env().keySet());
        names.addAll(workload.secrets().keySet());
        return names;
    }
}
