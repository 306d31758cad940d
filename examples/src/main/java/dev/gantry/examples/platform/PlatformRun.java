package dev.gantry.examples.platform;

import dev.gantry.Gantry;
import dev.gantry.SubmitRequest;
import dev.gantry.api.GantryException;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.model.JobRecord;
import dev.gantry.model.RunRecord;
import dev.gantry.model.RunState;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Platform code on whichever orchestrator its configuration names: a workload built in code is planned, submitted
 * with a {@link SubmitRequest}, its output followed and its end awaited; then a workflow is driven to its end while a
 * {@link StepWatch} (a {@code RunListener}) hears each step, eviction and line of output. Nothing in it names a
 * backend: {@code --config FILE} (a gantry.yaml) chooses one, as it does for the gantry command. Run it from the
 * repository root (examples/platform/README.md):
 *
 * <pre>
 * ./mvnw -q -pl examples -am package -DskipTests
 * java -cp "examples/target/classes:$(cat examples/target/examples.classpath)" \
 *     dev.gantry.examples.platform.PlatformRun --config examples/platform/gantry.yaml
 * </pre>
 */
public final class PlatformRun {
    static final Path DEFAULT_WORKFLOW = Path.of("examples", "platform", "nightly.yaml");
    private static final String USAGE = "usage: PlatformRun [--config GANTRY_YAML] [WORKFLOW_YAML]";

    private PlatformRun() {
    }

    public static void main(String[] args) throws InterruptedException {
        Optional<Arguments> parsed = Arguments.parse(args, System.err);
        if (parsed.isEmpty()) {
            System.exit(2);
        }
        Arguments arguments = parsed.get();
        Gantry.Builder builder = Gantry.builder();
        arguments.config().ifPresent(builder::configFile);
        try (Gantry gantry = builder.build()) {
            boolean succeeded = run(gantry, arguments.workflow(), System.out);
            System.exit(succeeded ? 0 : 1);
        } catch (GantryException e) {
            System.err.println(e.code() + ": " + e.getMessage());
            System.exit(e.code().isUserError() ? 2 : 1);
        }
    }

    /**
     * Both halves on {@code gantry}'s backend, printing to {@code out}; true when the job and every step succeeded.
     * Tests hand in a {@link Gantry} configured for the backend they try.
     */
    public static boolean run(Gantry gantry, Path workflow, PrintStream out) throws InterruptedException {
        JobRecord job = runJob(gantry, out);
        RunRecord run = runWorkflow(gantry, workflow, out);
        return job.state() == JobState.SUCCEEDED && run.state() == RunState.SUCCEEDED;
    }

    /** The workload platform code would make from its own inputs: here a small CPU job with one label. */
    static Workload workload() {
        return Workload.builder("platform-hello")
                .phase(Phase.TRAINING)
                .model(ModelClass.SMALL)
                .resources(Resources.builder().vcpus(2).memoryGib(4))
                .env("GREETING", "hello from platform code")
                .label("team", "platform")
                .command("sh", "-c", "echo \"$GREETING, job $GANTRY_JOB_ID, attempt $GANTRY_ATTEMPT\"")
                .build();
    }

    static JobRecord runJob(Gantry gantry, PrintStream out) throws InterruptedException {
        Plan plan = gantry.plan(workload());
        out.printf(Locale.ROOT, "plan: %d x %s in %s (%s), $%.4f/h; the guidance would orchestrate it with %s%n",
                plan.nodes(), plan.vmSize().name(), plan.region(), plan.spot() ? "spot" : "on-demand",
                plan.pricePerHour().total(), plan.orchestrator().recommended().name().toLowerCase(Locale.ROOT));
        JobRecord job = gantry.submit(SubmitRequest.of(plan).label("submitted-by", "platform-run"));
        out.println("submitted " + job.id() + " to backend " + job.backend());
        gantry.logs(job.id(), LogOptions.following(), line -> out.println("| " + line.text()));
        JobRecord done = gantry.await(job.id(), Duration.ofMinutes(10));
        out.println(done.id() + ": " + done.state() + done.exitCode().stream().mapToObj(code -> " (exit " + code + ")")
                .findFirst().orElse(""));
        return done;
    }

    static RunRecord runWorkflow(Gantry gantry, Path workflow, PrintStream out) throws InterruptedException {
        String runId = gantry.runs().start(workflow).run().id();
        out.println("run " + runId + " started on backend " + gantry.backendName());
        StepWatch watch = new StepWatch(out);
        RunRecord done = gantry.runs().drive(runId, Duration.ofMinutes(10), List.of(watch));
        out.println("run " + runId + ": " + done.state() + watch.summary());
        return done;
    }

    /** The command line: an optional {@code --config FILE} and an optional workflow spec. */
    record Arguments(Optional<Path> config, Path workflow) {
        static Optional<Arguments> parse(String[] args, PrintStream err) {
            Optional<Path> config = Optional.empty();
            Path workflow = DEFAULT_WORKFLOW;
            for (int i = 0; i < args.length; i++) {
                if (args[i].equals("--config") && i + 1 < args.length) {
                    config = Optional.of(Path.of(args[++i]));
                } else if (args[i].startsWith("--config=")) {
                    config = Optional.of(Path.of(args[i].substring("--config=".length())));
                } else if (!args[i].startsWith("-") && workflow == DEFAULT_WORKFLOW) {
                    workflow = Path.of(args[i]);
                } else {
                    err.println("PlatformRun: unexpected argument '" + args[i] + "'; " + USAGE);
                    return Optional.empty();
                }
            }
            return Optional.of(new Arguments(config, workflow));
        }
    }
}
