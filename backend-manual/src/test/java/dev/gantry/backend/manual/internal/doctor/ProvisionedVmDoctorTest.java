package dev.gantry.backend.manual.internal.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.api.backend.HostCheck;
import dev.gantry.api.backend.HostReport;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.api.backend.ProvisionedHost;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.manual.ManualBackendProvider;
import dev.gantry.tck.TckContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How the manual backend checks one provisioned VM: its doctor over SSH to that VM alone. */
class ProvisionedVmDoctorTest {
    private static final ProvisionedHost VM = new ProvisionedHost("train-1", "10.210.0.4", "azureuser",
            "Standard_NC24ads_A100_v4", "eastus", false, List.of("SHA256:cm3D27kl1vkmGd8jmQdvM5rcocvQIvjh7XtvlEzgVtI"),
            Map.of());
    private final List<BackendConfig> configs = new ArrayList<>();
    private final List<List<ProvisionedHost>> hostsSeen = new ArrayList<>();
    private int closed;

    @Test
    void theDoctorSeesOnlyTheCheckedVmOverSshWithTheDefaultsButNotTheConfiguredHosts() {
        HostReport report = new HostReport("train-1", Map.of(), List.of(
                new HostCheck("os", HostCheck.Status.OK, "Ubuntu", "Linux", "")));
        ProvisionedVmDoctor doctor = new ProvisionedVmDoctor(recording(report));
        try (TckContext context = TckContext.create()) {
            List<HostReport> reports = doctor.check(new BackendConfig("manual", Map.of("transport", "local",
                    "hosts[0].address", "10.0.0.4", "provisioned[0]", "*", "workDir", "/srv/local-jobs",
                    "defaults.identityFile", "/keys/id", "defaults.connectTimeout", "5s", "containerRuntime",
                    "docker")), context, VM, Optional.empty());
            assertEquals(List.of(report), reports);
        }
        // The container runtime stays: the doctor checks the one a plan with an image will use.
        assertEquals(Map.of("transport", "ssh", "provisioned[0]", "train-1", "defaults.identityFile", "/keys/id",
                "defaults.connectTimeout", "5s", "containerRuntime", "docker"), configs.get(0).values());
        assertEquals(List.of(VM), hostsSeen.get(0), "the checked VM is the only provisioned host");
        assertEquals(1, closed, "each check closes its backend (and its SSH sessions)");
    }

    @Test
    void theKeyVmUpInstalledReplacesTheConfiguredLogin() {
        HostReport report = new HostReport("train-1", Map.of(), List.of());
        ProvisionedVmDoctor doctor = new ProvisionedVmDoctor(recording(report));
        try (TckContext context = TckContext.create()) {
            doctor.check(new BackendConfig("manual", Map.of("defaults.agent", "true", "defaults.user", "ops")),
                    context, VM, Optional.empty(), Optional.of(Path.of("/home/me/.ssh/id_ed25519")));
        }
        assertEquals(Map.of("transport", "ssh", "provisioned[0]", "train-1", "defaults.identityFile",
                "/home/me/.ssh/id_ed25519", "defaults.user", "ops"), configs.get(0).values());
    }

    @Test
    void aDoctorWithoutAnyLoginSaysSoBeforeAnythingIsCreated() {
        ProvisionedVmDoctor doctor = new ProvisionedVmDoctor(new ManualBackendProvider());
        assertEquals(List.of("backends.manual sets neither defaults.identityFile nor defaults.agent"),
                doctor.loginProblems(new BackendConfig("manual", Map.of("defaults.agent", "false")),
                        Optional.empty()));
        assertEquals(List.of(), doctor.loginProblems(BackendConfig.empty("manual"),
                Optional.of(Path.of("/keys/id"))));
        assertEquals(List.of(), doctor.loginProblems(new BackendConfig("manual", Map.of("defaults.agent", "true")),
                Optional.empty()));
        assertEquals(List.of(), doctor.loginProblems(new BackendConfig("manual",
                Map.of("defaults.identityFile", "/keys/id")), Optional.empty()));
    }

    @Test
    void theUserIsToldHowToRunJobsOnTheNewVms() {
        assertEquals(Optional.of("backends.manual: {transport: ssh, provisioned: [train-*]} (and "
                + "defaults.identityFile)"),
                new ProvisionedVmDoctor(new ManualBackendProvider()).settingsFor("train-*"));
    }

    @Test
    void aHostKeyThatIsNotTheRecordedOneIsFinal() {
        assertEquals(Set.of("ssh.hostKey"), new ProvisionedVmDoctor(new ManualBackendProvider()).finalChecks());
        assertTrue(new ManualBackendProvider().provisionedHostDoctor().isPresent(),
                "the manual backend runs on provisioned VMs");
    }

    private BackendProvider recording(HostReport report) {
        return new BackendProvider() {
            @Override
            public String name() {
                return "manual";
            }

            @Override
            public String description() {
                return "recording";
            }

            @Override
            public Capabilities capabilities() {
                return Capabilities.builder().build();
            }

            @Override
            public List<ConfigKey> configKeys() {
                return List.of();
            }

            @Override
            public Backend create(BackendConfig config, BackendContext context) {
                configs.add(config);
                hostsSeen.add(context.provisionedHosts());
                return new Backend() {
                    @Override
                    public String name() {
                        return "manual";
                    }

                    @Override
                    public Capabilities capabilities() {
                        return Capabilities.builder().build();
                    }

                    @Override
                    public List<Problem> validate(Plan plan) {
                        return List.of();
                    }

                    @Override
                    public JobRef submit(Plan plan, SubmitOptions options) {
                        throw new AssertionError("the doctor submits nothing");
                    }

                    @Override
                    public JobStatus status(JobRef job) {
                        throw new AssertionError("the doctor asks no status");
                    }

                    @Override
                    public void logs(JobRef job, LogOptions options, LogSink sink) {
                        throw new AssertionError("the doctor reads no logs");
                    }

                    @Override
                    public void cancel(JobRef job) {
                        throw new AssertionError("the doctor cancels nothing");
                    }

                    @Override
                    public List<HostReport> doctor(Optional<Plan> plan) {
                        return List.of(report);
                    }

                    @Override
                    public void close() {
                        closed++;
                    }
                };
            }
        };
    }
}
