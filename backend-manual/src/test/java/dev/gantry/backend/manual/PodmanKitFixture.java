package dev.gantry.backend.manual;

import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import dev.gantry.testing.TestPodman;
import java.time.Duration;
import java.util.Optional;

/**
 * The conformance kit's fixture with every job in a Podman container of the busybox test image; subclasses say
 * how the backend is made and evicts, on whichever transport.
 */
abstract class PodmanKitFixture implements BackendFixture {
    PodmanKitFixture() {
        TestPodman.prepare();
    }

    @Override
    public Plan plan(Workload workload) {
        Workload contained = workload.container().isPresent() ? workload
                : workload.toBuilder().container(TestPodman.IMAGE).build();
        return Plan.builder(contained, BackendFixture.smallCpuSize()).build();
    }

    /**
     * The bulk status case's two hundred jobs run as plain processes: two hundred containers would take minutes on a
     * two-core test machine, and the status call it checks reads container jobs' directories like any others'.
     */
    @Override
    public Plan bulkPlan(Workload workload) {
        return Plan.builder(workload, BackendFixture.smallCpuSize()).build();
    }

    @Override
    public String containerImage() {
        return TestPodman.IMAGE;
    }

    /** The test image's own file (scripts/setup-podman.sh writes it). */
    @Override
    public Optional<String> fileOnlyInContainerImage() {
        return Optional.of(TestPodman.FILE_ONLY_IN_IMAGE);
    }

    /** A directory of the image: in a container the working directory is the container's. */
    @Override
    public String workingDirectory(TckContext context) {
        return "/work";
    }

    /** Starting a container costs a second or so more than a process. */
    @Override
    public Duration timeout() {
        return Duration.ofSeconds(20);
    }
}
