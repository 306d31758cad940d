package dev.gantry.core.provision;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.HostCheck;
import dev.gantry.api.backend.HostReport;
import dev.gantry.api.backend.ProvisionedHost;
import dev.gantry.api.backend.SecretResolver;
import dev.gantry.core.backends.BackendRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Ready when the manual backend's {@code doctor}, run over SSH on this one VM against the plan, finds nothing
 * MISSING. It goes through the backend SPI only: the backend is created by name from the registry with the VM as its
 * one {@code provisioned} host (its recorded host keys pinned), so core never names the backend's classes.
 *
 * <p>While not ready, the detail names every MISSING check with what was found and its fix, so that the timeout error
 * says per VM what kept it from being ready. A host key the VM offers that is not the recorded one is final: waiting
 * cannot change it, so the wait stops for that VM at once.
 */
public final class DoctorCheck implements ReadinessCheck {
    /** The backend that runs jobs on provisioned VMs, and whose doctor decides that they are ready. */
    public static final String BACKEND = "manual";
    /** The check a backend reports when the host offered a key that is not the trusted one. */
    public static final String HOST_KEY_CHECK = "ssh.hostKey";

    private final BackendRegistry registry;
    private final Map<String, String> settings;
    private final BackendContext context;
    private final Optional<Plan> plan;

    /**
     * @param settings the manual backend's settings to start from (its {@code defaults.*}: login identity, work
     *     directory, connect timeout, ...); its own hosts and provisioned references are dropped
     * @param context the context backends are created with; its provisioned hosts are replaced by the VM checked
     */
    public DoctorCheck(BackendRegistry registry, Map<String, String> settings, BackendContext context,
            Optional<Plan> plan) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.settings = doctorSettings(settings);
        this.context = Objects.requireNonNull(context, "context");
        this.plan = Objects.requireNonNull(plan, "plan");
    }

    /**
     * The settings the doctor's backend gets: the given ones without hosts, over SSH to the checked VM alone. The
     * container runtime settings stay, since the doctor checks the runtime a plan with an image will use.
     */
    static Map<String, String> doctorSettings(Map<String, String> given) {
        Map<String, String> settings = new TreeMap<>();
        given.forEach((key, value) -> {
            if (key.startsWith("defaults.") || key.equals("cancelGrace") || key.startsWith("container")) {
                settings.put(key, value);
            }
        });
        settings.put("transport", "ssh");
        return settings;
    }

    @Override
    public Readiness check(VmInventoryEntry vm) {
        Map<String, String> config = new TreeMap<>(settings);
        config.put("provisioned[0]", vm.name());
        List<HostReport> reports;
        try (Backend backend = registry.create(BACKEND, new BackendConfig(BACKEND, config), onlyThis(vm))) {
            reports = backend.doctor(plan);
        } catch (GantryException e) {
            if (e.code() == ErrorCode.CONFIG_INVALID || e.code() == ErrorCode.HOST_KEY_REJECTED) {
                return Readiness.never("doctor cannot run: " + e.getMessage());
            }
            return Readiness.notYet("doctor failed: " + e.getMessage());
        }
        List<String> missing = new ArrayList<>();
        boolean wrongKey = false;
        for (HostReport report : reports) {
            for (HostCheck check : report.checks()) {
                if (check.status() == HostCheck.Status.MISSING) {
                    missing.add(describe(check));
                    wrongKey |= check.name().equals(HOST_KEY_CHECK);
                }
            }
        }
        if (missing.isEmpty()) {
            return Readiness.ok();
        }
        // One line per check: the final error prints each line of its message on its own.
        String detail = "doctor: " + missing.size() + " check(s) MISSING:\n      " + String.join("\n      ", missing);
        return wrongKey ? Readiness.never(detail) : Readiness.notYet(detail);
    }

    private static String describe(HostCheck check) {
        return check.name() + " (found " + check.found() + ", needed " + check.needed()
                + (check.fix().isEmpty() ? "" : "; fix: " + check.fix()) + ")";
    }

    /** The context with the checked VM as the only provisioned host, so nothing else in the inventory matters. */
    private BackendContext onlyThis(VmInventoryEntry vm) {
        ProvisionedHost host = vm.asProvisionedHost();
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
