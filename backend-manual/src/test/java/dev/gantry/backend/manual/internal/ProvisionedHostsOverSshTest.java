package dev.gantry.backend.manual.internal;

import static dev.gantry.backend.manual.internal.SshJobs.awaitEnd;
import static dev.gantry.backend.manual.internal.SshJobs.key;
import static dev.gantry.backend.manual.internal.SshJobs.logs;
import static dev.gantry.backend.manual.internal.SshJobs.plan;
import static dev.gantry.backend.manual.internal.SshJobs.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.HostCheck;
import dev.gantry.api.backend.HostReport;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.ProvisionedHost;
import dev.gantry.api.backend.SecretResolver;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.manual.ManualBackendProvider;
import dev.gantry.ssh.TestHosts;
import dev.gantry.tck.TckContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A provisioned VM, as core hands it over, reached over real SSH: the test host gantry-h1 stands in for a VM whose
 * host key Run Command recorded. The recorded key is the only trust: a different one makes SSH refuse.
 */
class ProvisionedHostsOverSshTest {
    private final TestHosts.Host h1 = TestHosts.host(1);
    private final TckContext tck = TckContext.create();
    private final Path workDir = Path.of("/tmp", "gantry-it-" + UUID.randomUUID());

    @AfterEach
    void cleanUp() throws IOException {
        tck.close();
        if (Files.exists(workDir)) {
            try (Stream<Path> files = Files.walk(workDir)) {
                for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private BackendContext context(String fingerprint) {
        ProvisionedHost vm = new ProvisionedHost("train-1", h1.address(), h1.user(), "Standard_D2s_v5", "eastus",
                false, List.of(fingerprint), Map.of("team", "nlp"));
        return new BackendContext() {
            @Override
            public Path stateDirectory() {
                return tck.stateDirectory();
            }

            @Override
            public SecretResolver secrets() {
                return tck.secrets();
            }

            @Override
            public List<ProvisionedHost> provisionedHosts() {
                return List.of(vm);
            }
        };
    }

    private dev.gantry.api.backend.Backend backend(String fingerprint) {
        return new ManualBackendProvider().create(new BackendConfig("manual", Map.of("transport", "ssh",
                "provisioned[0]", "train-*", "defaults.identityFile", h1.identity().toString(),
                "defaults.workDir", workDir.toString(), "defaults.connectTimeout", "3s")), context(fingerprint));
    }

    @Test
    void aJobRunsOnTheProvisionedVmWithItsRecordedKeyPinned() throws Exception {
        try (var backend = backend(h1.fingerprint())) {
            JobRef job = backend.submit(plan(workload("provisioned").command("sh", "-c", "echo on $(hostname)"), 1,
                    0), SubmitOptions.withKey(key("provisioned")));
            JobStatus end = awaitEnd(backend, job);

            assertEquals(JobState.SUCCEEDED, end.state(), end.toString());
            assertEquals(List.of("on " + h1.name()), logs(backend, job).stream().map(LogLine::text).toList());
            List<HostReport> doctor = backend.doctor(Optional.empty());
            assertEquals("train-1", doctor.get(0).host());
            assertTrue(doctor.get(0).ok(), doctor.toString());
        }
    }

    @Test
    void aRecordedKeyThatIsNotTheHostsMakesSshRefuseShowingTheOfferedFingerprint() {
        String other = "SHA256:cm3D27kl1vkmGd8jmQdvM5rcocvQIvjh7XtvlEzgVtI";
        try (var backend = backend(other)) {
            List<HostReport> doctor = backend.doctor(Optional.empty());

            HostCheck refused = doctor.get(0).checks().get(0);
            assertEquals("ssh.hostKey", refused.name());
            assertEquals(HostCheck.Status.MISSING, refused.status());
            assertTrue(refused.found().contains(h1.fingerprint()), refused.found());
            assertTrue(refused.found().contains(h1.address()), refused.found());
        }
    }
}
