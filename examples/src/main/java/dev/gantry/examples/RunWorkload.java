package dev.gantry.examples;

import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Reason;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.Gantry;
import dev.gantry.SubmitRequest;
import dev.gantry.model.JobRecord;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Gantry as a library: load a spec, show the plan and why, run it on the configured backend, stream its output and
 * wait for the result. Run it from the repository root:
 *
 * <pre>
 * ./mvnw -q -pl examples -am package -DskipTests
 * java -cp "examples/target/classes:$(cat examples/target/examples.classpath)" \
 *     dev.gantry.examples.RunWorkload examples/quickstart.yaml
 * </pre>
 */
public final class RunWorkload {
    private RunWorkload() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 1) {
            System.err.println("usage: RunWorkload SPEC.yaml");
            System.exit(2);
        }
        try (Gantry gantry = Gantry.builder().build()) {
            Workload workload = gantry.load(Path.of(args[0]));
            Plan plan = gantry.plan(workload);
            System.out.printf("plan: %d x %s in %s (%s), $%.4f/h%n", plan.nodes(), plan.vmSize().name(),
                    plan.region(), plan.spot() ? "spot" : "on-demand", plan.pricePerHour().total());
            for (Reason reason : plan.reasons()) {
                System.out.println("  " + reason.rule() + ": " + reason.text());
            }
            // .idempotencyKey("nightly-2026-11-29") would make a retried run reattach to its job instead of starting
            // twice; the label is kept in the job's record.
            JobRecord job = gantry.submit(SubmitRequest.of(plan).specFile(Path.of(args[0])).label("team", "examples"));
            gantry.logs(job.id(), LogOptions.following(), line -> System.out.println("| " + line.text()));
            JobRecord done = gantry.await(job.id(), Duration.ofHours(1));
            System.out.println(done.id() + ": " + done.state() + done.exitCode().stream()
                    .mapToObj(code -> " (exit " + code + ")").findFirst().orElse(""));
            System.exit(done.state().name().equals("SUCCEEDED") ? 0 : 1);
        } catch (GantryException e) {
            System.err.println(e.code() + ": " + e.getMessage());
            System.exit(e.code().isUserError() ? 2 : 1);
        }
    }
}
