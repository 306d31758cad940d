package dev.gantry.tck;

import dev.gantry.api.Architecture;
import dev.gantry.api.Plan;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobRef;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * How the conformance kit reaches one backend in one test environment: create it, turn a workload into a plan there,
 * and evict a running job. Everything else the kit does through the {@link Backend} interface alone.
 */
public interface BackendFixture {
    /** Creates the backend under test; called once per test class, closed after the last case. */
    Backend create(TckContext context);

    /**
     * Simulates an eviction of a running job the way this environment would see one (a Spot eviction, a deleted
     * node, a preempted pod). The job must then report PREEMPTED.
     */
    void evict(Backend backend, JobRef job) throws Exception;

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
