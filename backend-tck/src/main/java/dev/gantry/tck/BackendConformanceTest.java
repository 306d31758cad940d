package dev.gantry.tck;

import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.TestInstance;

/**
 * The conformance kit: the behaviour every backend owes core, as JUnit 5 cases. A backend's test class extends this
 * class and returns its {@link BackendFixture}; the kit creates the backend once per class and drives it only
 * through {@link Backend}. Jobs run POSIX commands (printf, sh, sleep, cat, tr, printenv, pwd); sleeps are short and
 * every wait has the fixture's deadline.
 *
 * <p>The cases are grouped by concern, each group a class of its own that runs here as a nested class: capabilities
 * ({@link CapabilityCases}), arguments and environment ({@link ArgumentAndEnvironmentCases}), logs
 * ({@link LogCases}), lifecycle and cancel ({@link LifecycleCases}), status ({@link StatusCases}), idempotency and
 * restarts ({@link IdempotencyAndRestartCases}), evictions ({@link EvictionCases}), several nodes
 * ({@link SeveralNodeCases}), containers ({@link ContainerCases}), dependencies ({@link DependencyCases}) and idle
 * resources ({@link IdleResourceCases}). All of them share the one backend instance; the restart cases create more
 * over the same configuration and state.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class BackendConformanceTest {
    /**
     * Arguments that a shell would change if a backend ever let one interpret them. Each must arrive verbatim.
     */
    protected static final List<String> HOSTILE_ARGUMENTS = ArgumentAndEnvironmentCases.HOSTILE_ARGUMENTS;

    private Kit kit;

    /** The environment the kit runs against. */
    protected abstract BackendFixture fixture();

    @BeforeAll
    final void startBackend() {
        kit = Kit.start(fixture());
    }

    @AfterAll
    final void stopBackend() {
        kit.stop();
    }

    /** The backend under test, for subclasses adding their own cases. */
    protected final Backend backend() {
        return kit.backend();
    }

    /** The context the backend was created with. */
    protected final TckContext context() {
        return kit.context();
    }

    @Nested
    class CapabilitiesAndValidation extends CapabilityCases {
        CapabilitiesAndValidation() {
            super(BackendConformanceTest.this.kit);
        }
    }

    @Nested
    class ArgumentsAndEnvironment extends ArgumentAndEnvironmentCases {
        ArgumentsAndEnvironment() {
            super(BackendConformanceTest.this.kit);
        }
    }

    @Nested
    class Logs extends LogCases {
        Logs() {
            super(BackendConformanceTest.this.kit);
        }
    }

    @Nested
    class LifecycleAndCancel extends LifecycleCases {
        LifecycleAndCancel() {
            super(BackendConformanceTest.this.kit);
        }
    }

    @Nested
    class StatusQueries extends StatusCases {
        StatusQueries() {
            super(BackendConformanceTest.this.kit);
        }
    }

    @Nested
    class IdempotencyAndRestarts extends IdempotencyAndRestartCases {
        IdempotencyAndRestarts() {
            super(BackendConformanceTest.this.kit);
        }
    }

    @Nested
    class Evictions extends EvictionCases {
        Evictions() {
            super(BackendConformanceTest.this.kit);
        }
    }

    @Nested
    class SeveralNodes extends SeveralNodeCases {
        SeveralNodes() {
            super(BackendConformanceTest.this.kit);
        }
    }

    @Nested
    class Containers extends ContainerCases {
        Containers() {
            super(BackendConformanceTest.this.kit);
        }
    }

    @Nested
    class Dependencies extends DependencyCases {
        Dependencies() {
            super(BackendConformanceTest.this.kit);
        }
    }

    @Nested
    class IdleResources extends IdleResourceCases {
        IdleResources() {
            super(BackendConformanceTest.this.kit);
        }
    }

    // ---- for subclasses adding their own cases

    /** A workload builder with the kit's defaults: a small training workload with a name unique to the case. */
    protected static Workload.Builder workload(String name) {
        return Kit.workload(name);
    }

    /** An idempotency key unique to this run. */
    protected static String key(String name) {
        return Kit.key(name);
    }

    /** Submits the fixture's plan for the workload under a fresh key, remembering the job for cleanup. */
    protected final JobRef submit(Workload workload) {
        return kit.submit(workload);
    }

    protected final JobRef submit(Plan plan, String key) {
        return kit.submit(plan, key);
    }

    /** Submits the fixture's plan for the workload, depending on the given jobs. */
    protected final JobRef submitDependent(Workload workload, JobDependency... dependencies) {
        return kit.submitDependent(workload, dependencies);
    }

    /** Polls until the job reaches a terminal state, failing at the fixture's deadline. */
    protected final JobStatus awaitEnd(JobRef job) throws InterruptedException {
        return kit.awaitEnd(job);
    }

    /** Polls the job's standard output until it satisfies the condition, failing at the deadline. */
    protected final void awaitOutput(JobRef job, Predicate<List<String>> condition) throws InterruptedException {
        kit.awaitOutput(job, condition);
    }

    protected final List<LogLine> collect(JobRef job, LogOptions options) throws InterruptedException {
        return kit.collect(job, options);
    }

    protected final List<String> lines(JobRef job, LogOptions options) throws InterruptedException {
        return kit.lines(job, options);
    }
}
