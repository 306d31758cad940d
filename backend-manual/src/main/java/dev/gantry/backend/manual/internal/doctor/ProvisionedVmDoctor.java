package dev.gantry.backend.manual.internal.doctor;

import dev.gantry.api.Plan;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.HostReport;
import dev.gantry.api.backend.ProvisionedHost;
import dev.gantry.api.backend.ProvisionedHostDoctor;
import dev.gantry.api.backend.SecretResolver;
import dev.gantry.backend.manual.internal.ManualBackend;
import dev.gantry.backend.manual.internal.settings.Inventory;
import dev.gantry.backend.manual.internal.settings.ManualSettings;
import dev.gantry.backend.manual.internal.settings.ProvisionedReferences;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The manual backend's check of one VM Gantry provisioned: its doctor, over SSH to that VM alone, with the VM's
 * recorded host keys pinned. The configured settings give the login, the work directory and the container runtime;
 * the configured hosts and provisioned references are left out, so nothing else in the fleet matters.
 */
public final class ProvisionedVmDoctor implements ProvisionedHostDoctor {
    /** The check the doctor reports when the host offered a key that is not the trusted one. */
    public static final String HOST_KEY_CHECK = "ssh.hostKey";
    private static final String IDENTITY_FILE = Inventory.DEFAULTS + "." + Inventory.IDENTITY_FILE;
    private static final String AGENT = Inventory.DEFAULTS + "." + Inventory.AGENT;

    private final BackendProvider provider;

    /** @param provider the manual backend's provider, which creates the one-VM backend */
    public ProvisionedVmDoctor(BackendProvider provider) {
        this.provider = Objects.requireNonNull(provider, "provider");
    }

    @Override
    public List<HostReport> check(BackendConfig settings, BackendContext context, ProvisionedHost host,
                                  Optional<Plan> plan) {
        return check(settings, context, host, plan, Optional.empty());
    }

    /** With a login key, the SSH login uses it instead of the configured identity file or agent. */
    @Override
    public List<HostReport> check(BackendConfig settings, BackendContext context, ProvisionedHost host,
                                  Optional<Plan> plan, Optional<Path> loginKey) {
        Map<String, String> config = doctorSettings(settings.values());
        loginKey.ifPresent(key -> {
            config.remove(AGENT);
            config.put(IDENTITY_FILE, key.toString());
        });
        config.put("provisioned[0]", host.name());
        try (Backend backend = provider.create(new BackendConfig(settings.backend(), config, settings.locations()),
                onlyThis(context, host))) {
            return backend.doctor(plan);
        }
    }

    @Override
    public List<String> loginProblems(BackendConfig settings, Optional<Path> loginKey) {
        if (loginKey.isPresent() || settings.get(IDENTITY_FILE).isPresent()
                || settings.get(AGENT).map("true"::equals).orElse(false)) {
            return List.of();
        }
        return List.of("backends." + settings.backend() + " sets neither " + IDENTITY_FILE + " nor " + AGENT);
    }

    @Override
    public Optional<String> settingsFor(String namePattern) {
        return Optional.of("backends." + ManualBackend.NAME + ": {" + ManualSettings.TRANSPORT + ": "
                + ManualSettings.Transport.SSH.configName() + ", " + ProvisionedReferences.KEY + ": [" + namePattern
                + "]} (and " + IDENTITY_FILE + ")");
    }

    @Override
    public Set<String> finalChecks() {
        return Set.of(HOST_KEY_CHECK);
    }

    /**
     * The settings the doctor's backend gets: the given ones without hosts, over SSH. The container runtime settings
     * stay, since the doctor checks the runtime a plan with an image will use.
     */
    public static Map<String, String> doctorSettings(Map<String, String> given) {
        Map<String, String> settings = new TreeMap<>();
        given.forEach((key, value) -> {
            if (key.startsWith("defaults.") || key.equals("cancelGrace") || key.startsWith("container")) {
                settings.put(key, value);
            }
        });
        settings.put("transport", "ssh");
        return settings;
    }

    /** The context with the checked VM as the only provisioned host. */
    private static BackendContext onlyThis(BackendContext context, ProvisionedHost host) {
        return new BackendContext() {
            @Override
            public Path stateDirectory() {
                return context.stateDirectory();
            }

            @Override
            public SecretResolver secrets() {
                return context.secrets();
            }

            @Override
            public Clock clock() {
                return context.clock();
            }

            @Override
            public System.Logger logger() {
                return context.logger();
            }

            @Override
            public List<ProvisionedHost> provisionedHosts() {
                return List.of(host);
            }
        };
    }
}
