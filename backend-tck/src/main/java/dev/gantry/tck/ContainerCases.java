package dev.gantry.tck;

import static dev.gantry.tck.Kit.assertState;
import static dev.gantry.tck.Kit.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogOptions;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Containers: a backend without them refuses a container; one with them runs the job in the image. */
abstract class ContainerCases extends KitCases {
    ContainerCases(Kit kit) {
        super(kit);
    }

    @Test
    void backendWithoutContainersRejectsContainerPlans() {
        Plan plan = fixture.plan(workload("container").command("true").container("ubuntu:22.04").build());
        List<Problem> problems = backend.validate(plan);
        if (backend.capabilities().containers()) {
            assertTrue(problems.stream().noneMatch(p -> p.path().startsWith("container")),
                    "capabilities say containers are supported, yet validate rejects the container: " + problems);
        } else {
            assertTrue(problems.stream().anyMatch(p -> p.path().startsWith("container")),
                    "capabilities say no containers, so validate must name the container as the problem: " + problems);
        }
    }

    @Test
    void containerRunUsesTheImage() throws Exception {
        kit.assumeDeclared(Capabilities::containers, "containers");
        String probe = fixture.fileOnlyInContainerImage().map(file -> "test -e '" + file + "' && echo in-image; ")
                .orElse("echo in-image; ");
        JobRef job = kit.submit(workload("container-run").container(fixture.containerImage())
                .command("sh", "-c", probe + "printf '<%s>\\n' \"$@\"; echo \"$TCK_IN_CONTAINER\"; exit 4", "sh",
                        "a b", "$(id)").env("TCK_IN_CONTAINER", "it's \"here\"").build());
        JobStatus status = kit.awaitEnd(job);
        assertState(JobState.FAILED, status);
        assertEquals(OptionalInt.of(4), status.exitCode(), "the container's exit code is the job's");
        assertEquals(List.of("in-image", "<a b>", "<$(id)>", "it's \"here\""),
                kit.lines(job, new LogOptions(false, OptionalInt.empty(), true, false)));
    }
}
