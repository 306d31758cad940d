package dev.gantry.backend.manual;

import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import java.util.Map;

/**
 * A separate JVM that submits one job and exits at once, like a CLI invocation: proof that jobs outlive their
 * submitter. Arguments: work directory, idempotency key, then the command.
 */
public final class SubmitAndExit {
    private SubmitAndExit() {
    }

    public static void main(String[] args) {
        try (TckContext context = TckContext.create()) {
            Backend backend = new ManualBackendProvider().create(
                    new BackendConfig("manual", Map.of("workDir", args[0])), context);
            Workload workload = Workload.builder("survivor").phase(Phase.TRAINING).model(ModelClass.SMALL)
                    .command(java.util.Arrays.asList(args).subList(2, args.length)).build();
            JobRef job = backend.submit(Plan.builder(workload, BackendFixture.smallCpuSize()).build(),
                    SubmitOptions.withKey(args[1]));
            System.out.println(job.id());
        }
        System.exit(0);
    }
}
