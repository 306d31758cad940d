package dev.gantry.tck;

import static dev.gantry.tck.Kit.assertState;
import static dev.gantry.tck.Kit.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogOptions;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Dependencies, for backends whose orchestrator orders jobs itself. */
abstract class DependencyCases extends KitCases {
    DependencyCases(Kit kit) {
        super(kit);
    }

    /** B depends on A's success: B starts only after A succeeded, and never when A failed. */
    @Test
    void aDependentJobStartsOnlyAfterItsDependencySucceeded() throws Exception {
        kit.assumeDeclared(Capabilities::nativeDependencies, "native dependencies");
        String done = fixture.sharedDirectory(context) + "/tck-dependency-" + UUID.randomUUID();
        JobRef a = kit.submit(workload("dep-a").command("sh", "-c", "sleep 1; echo done > \"$1\"", "sh", done).build());
        JobRef b = kit.submitDependent(workload("dep-b").command("cat", done).build(), JobDependency.afterSuccess(a));
        assertState(JobState.SUCCEEDED, kit.awaitEnd(a));
        assertState(JobState.SUCCEEDED, kit.awaitEnd(b));
        assertEquals(List.of("done"), kit.lines(b, LogOptions.all()), "B ran after A had written its file");

        JobRef failing = kit.submit(workload("dep-fail").command("sh", "-c", "sleep 1; exit 3").build());
        String ran = fixture.sharedDirectory(context) + "/tck-never-" + UUID.randomUUID();
        JobRef never = kit.submitDependent(workload("dep-never").command("sh", "-c", ": > \"$1\"", "sh", ran).build(),
                JobDependency.afterSuccess(failing));
        JobRef cleanup = kit.submitDependent(workload("dep-any").command("echo", "cleanup").build(),
                JobDependency.afterAny(failing));
        assertState(JobState.FAILED, kit.awaitEnd(failing));
        JobStatus neverStatus = kit.awaitEnd(never);
        assertState(JobState.CANCELLED, neverStatus);
        assertTrue(neverStatus.message().contains(failing.id()), "the message names the dependency that failed: "
                + neverStatus);
        kit.assertNeverCreated(ran, "B must never have run");
        assertState(JobState.SUCCEEDED, kit.awaitEnd(cleanup));
        assertEquals(List.of("cleanup"), kit.lines(cleanup, LogOptions.all()),
                "an after-any dependent runs after a failure");
    }
}
