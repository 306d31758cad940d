package dev.gantry.tck;

import dev.gantry.api.Architecture;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.EvictionHandling;
import dev.gantry.api.backend.JobRef;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * How the conformance kit reaches one backend in one test environment: create it, turn a workload into a plan there,
 * and evict a running job. Everything else the kit does through the {@link Backend} interface alone.
 */
public interface BackendFixture {
    /**
     * Creates the backend under test: called once per test class for the instance every case uses, closed after the
     * last case; and again, with the same context, by the restart cases, which need a second instance over the same
     * configuration and state directory, as a later Gantry process would create it. Each call must therefore
     * configure the backend alike (the same hosts, cluster, work directories and settings).
     */
    Backend create(TckContext context);

    /**
     * What the backend can do in this test environment, as the fixture knows it: the cases that need a capability
     * (several nodes, containers, native dependencies) run or are skipped by this declaration, and the capability
     * case checks that the backend's own {@link Backend#capabilities()} say the same. By default the backend's own;
     * a fixture that knows its environment lacks something (a test cluster without Pyxis has no containers) declares
     * it, so that the case is skipped because the environment is known to lack it, never because a probe failed.
     */
    default Capabilities capabilities(Backend backend) {
        return backend.capabilities();
    }

    /**
     * Simulates an eviction of a running job the way this environment would see one (a Spot eviction, a deleted
     * node, a preempted pod). The job must then do what {@link #evictionOutcome} says: end PREEMPTED, or be run again
     * by the orchestrator with its eviction counted.
     */
    void evict(Backend backend, JobRef job) throws Exception;

    /**
     * What {@link #evict} does to a job here: by default what the backend's capabilities declare. A fixture that
     * evicts in a way the orchestrator cannot recover from by itself (a job submitted without requeue) says so.
     */
    default EvictionHandling evictionOutcome(Backend backend) {
        return backend.capabilities().evictions();
    }

    /**
     * The plan for a two-node run of the workload, for backends with multi-node capability; by default the
     * fixture's {@link #plan} of the workload asking for two nodes.
     */
    default Plan twoNodePlan(Workload workload) {
        Resources twoNodes = workload.resources().toBuilder().nodes(2).build();
        return plan(workload.toBuilder().resources(twoNodes).build());
    }

    /** The image of the container case, one that the environment can run; by default Docker Hub's busybox. */
    default String containerImage() {
        return "docker.io/library/busybox:1.36";
    }

    /**
     * An absolute path that exists in {@link #containerImage()} and not on the hosts jobs run on, so that the
     * container case can tell that the job really ran in the image; empty when the fixture knows none.
     */
    default Optional<String> fileOnlyInContainerImage() {
        return Optional.empty();
    }

    /**
     * An existing absolute directory that every node and every job of this environment sees alike (a shared file
     * system), for the dependency and requeue cases, which pass a file from one run to a later one. By default the
     * {@link #workingDirectory}.
     */
    default String sharedDirectory(TckContext context) {
        return workingDirectory(context);
    }

    /**
     * How many remote calls (commands over SSH, HTTP requests, scheduler commands) the backend has made so far, when
     * they can be counted; the bulk status case then checks that one status call of many jobs costs at most
     * {@link #statusCallsAllowed()}. By default the backend's own count ({@link Backend#remoteCalls()}); a fixture
     * whose test server counts requests may answer from there instead.
     */
    default OptionalLong remoteCalls(Backend backend) {
        return backend.remoteCalls();
    }

    /**
     * The plan for each of the bulk status case's two hundred short jobs; by default {@link #plan}. A fixture whose
     * every plan starts a container (seconds each on a small test machine) may return a plan without one, since the
     * case measures the status call, which answers for container jobs and others alike.
     */
    default Plan bulkPlan(Workload workload) {
        return plan(workload);
    }

    /** The remote calls one status call of many jobs may cost here: one per host or service (default 1). */
    default int statusCallsAllowed() {
        return 1;
    }

    /**
     * Leaves something idle that costs money, the way this environment makes one (for a pool-creating backend: runs a
     * short job, so that its pool is idle once the fixture's short idle timeout has passed), for the idle-resource
     * case, which then waits up to {@link #timeout()} for {@link Backend#idleResources()} to report it and releases
     * it. Returns false, the default, when the backend holds no such resources: the case then checks that it reports
     * none.
     */
    default boolean leaveIdleResource(Backend backend, TckContext context) throws Exception {
        return false;
    }

    /** The plan for a workload in this environment; by default a one-node plan on a small CPU size. */
    default Plan plan(Workload workload) {
        return Plan.builder(workload, smallCpuSize()).build();
    }

    /** How long any one wait of the kit (a job reaching a state, output appearing) may take. */
    default Duration timeout() {
        return Duration.ofSeconds(10);
    }

    /**
     * An existing absolute directory, on the machine where jobs run, for the working-directory case. By default the
     * context's scratch directory, which suits backends that run jobs on the machine the tests run on.
     */
    default String workingDirectory(TckContext context) {
        return context.scratchDirectory().toString();
    }

    /** One vCPU and half a GiB: fits any machine a test runs on. */
    static VmSize smallCpuSize() {
        return new VmSize("tck-small", "tck", 1, 0.5, Optional.empty(), false, Architecture.X64, Set.of("V2"));
    }
}
