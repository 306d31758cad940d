package dev.gantry.examples;

import dev.gantry.Gantry;
import dev.gantry.Runs;
import dev.gantry.api.backend.Eviction;
import dev.gantry.model.RunListener;
import dev.gantry.model.RunRecord;
import dev.gantry.model.StepRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Listening to a run (docs/library.md): starts the workflow of a spec, or resumes its unfinished run, and drives it to
 * its end, printing each step as it changes and each eviction. Run it from the repository root:
 *
 * <pre>
 * java -cp "examples/target/classes:$(cat examples/target/examples.classpath)" \
 *     dev.gantry.examples.FollowRun examples/local-workflow.yaml
 * </pre>
 */
public final class FollowRun {
    private FollowRun() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 1) {
            System.err.println("usage: FollowRun WORKFLOW.yaml");
            System.exit(2);
        }
        try (Gantry gantry = Gantry.builder().build()) {
            RunRecord done = follow(gantry, Path.of(args[0]));
            System.exit(done.state().name().equals("SUCCEEDED") ? 0 : 1);
        }
    }

    /** Starts or resumes the run of {@code spec} and drives it, telling {@link StepPrinter} what happens. */
    public static RunRecord follow(Gantry gantry, Path spec) throws InterruptedException {
        // tag::follow-run[]
        Runs.Started started = gantry.runs().start(spec);  // resumes the unfinished run of the same spec, if any
        RunRecord done = gantry.runs().drive(started.run().id(), Duration.ofHours(2), List.of(new StepPrinter()));
        System.out.println(done.id() + ": " + done.state());
        // end::follow-run[]
        return done;
    }

    // tag::listener[]
    /** Called on the driving thread: returns quickly, and keeps no state another thread could see half-written. */
    static final class StepPrinter implements RunListener {
        @Override
        public void stepChanged(StepRecord step) {
            System.out.println(step.name() + ": " + step.state() + " (attempt " + step.attempts() + ")");
        }

        @Override
        public void evicted(String runId, String step, Eviction eviction, boolean requeued) {
            System.out.println(step + " evicted at " + eviction.at() + (requeued ? ", requeued" : ""));
        }
    }
    // end::listener[]
}
