package dev.gantry.runs.provision;

import dev.gantry.model.VmInventoryEntry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.api.backend.HostCheck;
import dev.gantry.api.backend.HostReport;
import dev.gantry.api.backend.ProvisionedHost;
import dev.gantry.api.backend.ProvisionedHostDoctor;
import dev.gantry.core.backends.BackendRegistry;
import dev.gantry.core.backends.CoreBackendContext;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The doctor wait through the backend SPI's provisioned-host hook, with a provider whose hook answers as scripted and
 * records what it was given. How the manual backend turns its settings into a one-VM doctor is its own test's
 * (ProvisionedVmDoctorTest).
 */
class DoctorCheckTest {
    @TempDir
    Path state;

    final List<BackendConfig> configs = new ArrayList<>();
    final List<ProvisionedHost> hostsSeen = new ArrayList<>();
    final List<Optional<Plan>> plans = new ArrayList<>();
    Supplier<List<HostReport>> answer = List::of;

    final VmInventoryEntry vm = VmInventoryTest.entry("train-1", Optional.empty())
            .withHostKeyFingerprints(List.of("SHA256:cm3D27kl1vkmGd8jmQdvM5rcocvQIvjh7XtvlEzgVtI"));

    /** A provider named manual whose hook is scripted; {@code withHook} false: one without the hook. */
    BackendProvider provider(boolean withHook) {
        return new BackendProvider() {
            @Override
            public String name() {
                return "manual";
            }

            @Override
            public String description() {
                return "scripted doctor";
            }

            @Override
            public Capabilities capabilities() {
                return new Capabilities(true, false, true, false, true, Set.of());
            }

            @Override
            public List<ConfigKey> configKeys() {
                return List.of(ConfigKey.optional("transport", "", null),
                        ConfigKey.optional("provisioned[*]", "", null),
                        ConfigKey.optional("defaults.identityFile", "", null),
                        ConfigKey.optional("defaults.connectTimeout", "", null),
                        ConfigKey.optional("cancelGrace", "", null), ConfigKey.optional("containerRuntime", "", null));
            }

            @Override
            public Backend create(BackendConfig config, BackendContext context) {
                throw new AssertionError("the readiness check goes through the hook, not create");
            }

            @Override
            public Optional<ProvisionedHostDoctor> provisionedHostDoctor() {
                if (!withHook) {
                    return Optional.empty();
                }
                return Optional.of(new ProvisionedHostDoctor() {
                    @Override
                    public List<HostReport> check(BackendConfig settings, BackendContext context,
                                                  ProvisionedHost host, Optional<Plan> plan) {
                        configs.add(settings);
                        hostsSeen.add(host);
                        plans.add(plan);
                        return answer.get();
                    }

                    @Override
                    public Set<String> finalChecks() {
                        return Set.of("ssh.hostKey");
                    }
                });
            }
        };
    }

    DoctorCheck check(Map<String, String> settings) {
        CoreBackendContext context = new CoreBackendContext(state, "manual", ref -> {
            throw new UnsupportedOperationException("no secrets here");
        }, Clock.systemUTC(),
                () -> List.of(new ProvisionedHost("other-1", "10.0.0.9", "u", "s", "r", false, List.of(), Map.of())));
        return new DoctorCheck(new BackendRegistry(List.of(provider(true))), settings, context, Optional.empty());
    }

    static HostReport report(HostCheck... checks) {
        return new HostReport("train-1", Map.of(), List.of(checks));
    }

    @Test
    void theBackendGetsItsConfiguredSettingsAndTheCheckedVm() {
        answer = () -> List.of(report(new HostCheck("os", HostCheck.Status.OK, "Ubuntu", "Linux", ""),
                new HostCheck("disk.free", HostCheck.Status.WARN, "3 GiB", "10 GiB", "free some disk")));
        Map<String, String> settings = Map.of("transport", "local", "provisioned[0]", "*", "defaults.identityFile",
                "/keys/id", "defaults.connectTimeout", "5s", "containerRuntime", "docker");

        ReadinessCheck.Readiness readiness = check(settings).check(vm);

        assertEquals(ReadinessCheck.Readiness.ok(), readiness, "WARN is not MISSING");
        assertEquals(new BackendConfig("manual", settings), configs.get(0), "core passes the settings on as given");
        assertEquals(List.of(vm.asProvisionedHost()), hostsSeen);
        assertEquals(List.of(Optional.empty()), plans);
    }

    @Test
    void aBackendWithoutTheHookCannotDecideReadiness() {
        CoreBackendContext context = new CoreBackendContext(state, "manual", ref -> {
            throw new UnsupportedOperationException("no secrets here");
        }, Clock.systemUTC(), List::of);
        GantryException e = assertThrows(GantryException.class, () -> new DoctorCheck(
                new BackendRegistry(List.of(provider(false))), Map.of(), context, Optional.empty()));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals("backend 'manual' does not run jobs on VMs Gantry provisions, so it cannot say when they are "
                + "ready; use a backend that does (manual), or --skip-doctor", e.getMessage());
    }

    @Test
    void missingChecksAreNamedWithWhatWasFoundAndTheirFix() {
        answer = () -> List.of(report(
                new HostCheck("gpu.count", HostCheck.Status.MISSING, "0", "1", "use a GPU VM size"),
                new HostCheck("gpu.driver", HostCheck.Status.MISSING, "none", "NVIDIA 535+", "install the driver"),
                new HostCheck("os", HostCheck.Status.OK, "Ubuntu", "Linux", "")));

        ReadinessCheck.Readiness readiness = check(Map.of()).check(vm);

        assertFalse(readiness.ready());
        assertFalse(readiness.hopeless(), "a driver may still be installing on a booting VM");
        assertEquals("doctor: 2 check(s) MISSING:\n      gpu.count (found 0, needed 1; fix: use a GPU VM size)\n"
                + "      gpu.driver (found none, needed NVIDIA 535+; fix: install the driver)", readiness.detail());
    }

    @Test
    void aHostKeyThatIsNotTheRecordedOneEndsTheWaitForThatVm() {
        answer = () -> List.of(report(new HostCheck("ssh.hostKey", HostCheck.Status.MISSING,
                "host key of 10.210.0.4:22 does not match: the server offered ssh-ed25519 key SHA256:abc",
                "the host key that is trusted for this host", "find out why")));

        ReadinessCheck.Readiness readiness = check(Map.of()).check(vm);

        assertTrue(readiness.hopeless());
        assertTrue(readiness.detail().contains("ssh.hostKey (found host key of 10.210.0.4:22 does not match"),
                readiness.detail());
    }

    @Test
    void aBackendThatCannotBeCreatedIsFinalAndOtherFailuresAreRetried() {
        answer = () -> {
            throw new GantryException(ErrorCode.REMOTE_ERROR, "cannot connect to 10.210.0.4:22");
        };
        ReadinessCheck.Readiness retried = check(Map.of()).check(vm);
        assertFalse(retried.ready() || retried.hopeless());
        assertEquals("doctor failed: cannot connect to 10.210.0.4:22", retried.detail());

        ReadinessCheck.Readiness unknownKey = check(Map.of("defaults.colour", "blue")).check(vm);
        assertTrue(unknownKey.hopeless(), unknownKey.detail());
        assertTrue(unknownKey.detail().startsWith("doctor cannot run: backends.manual.defaults.colour: unknown "
                + "setting"), unknownKey.detail());
    }
}
