package org.example.gantry.podman;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.Resources;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.JobRef;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** What the kit does not cover: discovery, the plugin's refusals and the error when podman is not there. */
class PodmanBackendProviderTest {
    @Test
    void serviceLoaderFindsTheProvider() {
        List<String> names = ServiceLoader.load(BackendProvider.class).stream()
                .map(provider -> provider.get().name()).toList();
        assertEquals(List.of("podman"), names);
    }

    @Test
    void podmanMissingIsBackendUnavailableNamingTheSettingAndTheFix() {
        try (TckContext context = TckContext.create();
             Backend backend = new PodmanBackendProvider().create(new BackendConfig("podman",
                     Map.of("program", "/nonexistent/podman")), context)) {
            GantryException e = assertThrows(GantryException.class,
                    () -> backend.status(new JobRef("podman", "some-job")));
            assertEquals(ErrorCode.BACKEND_UNAVAILABLE, e.code());
            assertTrue(e.getMessage().startsWith("cannot run '/nonexistent/podman' (backends.podman.program): "),
                    e.getMessage());
            assertTrue(e.getMessage().endsWith("; install podman (Debian and Ubuntu: apt-get install podman) or set"
                    + " backends.podman.program to the path of the podman program"), e.getMessage());
        }
    }

    @Test
    void aLineBreakInAVariablePodmanReadsItselfIsAProblemOfThePlan() {
        try (TckContext context = TckContext.create();
             Backend backend = new PodmanBackendProvider().create(BackendConfig.empty("podman"), context)) {
            Workload workload = Workload.builder("w").phase(Phase.TRAINING).model(ModelClass.SMALL).command("true")
                    .env("TMPDIR", "/a\n/b").build();
            List<Problem> problems = backend.validate(Plan.builder(workload, BackendFixture.smallCpuSize()).build());
            assertEquals(1, problems.size(), problems.toString());
            assertTrue(problems.get(0).toString().startsWith("env.TMPDIR: podman reads TMPDIR itself"),
                    problems.toString());
        }
    }

    @Test
    void severalNodesAndGpusAreRefusedNamingWhatIsAllowed() {
        try (TckContext context = TckContext.create();
             Backend backend = new PodmanBackendProvider().create(BackendConfig.empty("podman"), context)) {
            Workload workload = Workload.builder("w").phase(Phase.TRAINING).model(ModelClass.SMALL).command("true")
                    .resources(Resources.builder().nodes(2).gpus(1).build()).build();
            List<String> problems = backend.validate(Plan.builder(workload, BackendFixture.smallCpuSize()).nodes(2)
                    .build()).stream().map(Problem::toString).toList();
            assertEquals(List.of("resources.nodes: the podman backend runs a job as one container on this machine,"
                    + " got 2 nodes (allowed: 1); ask for one node or use a backend with several, such as manual"
                    + " with hosts or cyclecloud", "resources.gpus: the podman backend runs CPU jobs only, got 1"
                    + " GPU(s) per node (allowed: 0); run GPU jobs on another backend"), problems);
        }
    }
}
