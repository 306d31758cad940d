package dev.gantry.runs.provision;

import dev.gantry.model.VmInventoryEntry;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.HostCheck;
import dev.gantry.api.backend.HostReport;
import dev.gantry.api.backend.ProvisionedHostDoctor;
import dev.gantry.core.backends.BackendRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Ready when the backend's own check of one provisioned VM ({@link BackendProvider#provisionedHostDoctor()}, the
 * doctor of the manual backend over SSH) finds nothing MISSING against the plan. It goes through the backend SPI
 * only: core hands over the backend's configured settings and the VM, and the backend decides how to reach it, so
 * core never names the backend's classes or settings.
 *
 * <p>While not ready, the detail names every MISSING check with what was found and its fix, so that the timeout error
 * says per VM what kept it from being ready. A check the backend calls final (a host key the VM offers that is not
 * the recorded one) ends the wait for that VM at once: waiting cannot change it.
 */
public final class DoctorCheck implements ReadinessCheck {
    /** The backend that runs jobs on provisioned VMs unless the configuration chooses another one that can. */
    public static final String BACKEND = "manual";

    private final BackendProvider provider;
    private final ProvisionedHostDoctor doctor;
    private final BackendRegistry registry;
    private final BackendConfig settings;
    private final BackendContext context;
    private final Optional<Plan> plan;
    private final Optional<Path> loginKey;

    /**
     * @param backend the backend whose check decides readiness; it must run jobs on provisioned VMs
     * @param settings that backend's configured settings
     * @param context the context backends are created with
     * @throws GantryException CONFIG_INVALID when the backend cannot check provisioned VMs
     */
    public DoctorCheck(BackendRegistry registry, String backend, Map<String, String> settings,
            BackendContext context, Optional<Plan> plan) {
        this(registry, new BackendConfig(backend, settings), context, plan, Optional.empty());
    }

    /**
     * @param settings the backend's configured settings, with where each was written
     * @param loginKey the private key whose public half is on the VMs, which the backend logs in with when given
     */
    public DoctorCheck(BackendRegistry registry, BackendConfig settings, BackendContext context, Optional<Plan> plan,
            Optional<Path> loginKey) {
        String backend = settings.backend();
        this.registry = Objects.requireNonNull(registry, "registry");
        this.provider = registry.require(backend);
        this.doctor = provider.provisionedHostDoctor().orElseThrow(() -> new GantryException(
                ErrorCode.CONFIG_INVALID, "backend '" + backend + "' does not run jobs on VMs Gantry provisions, so "
                + "it cannot say when they are ready; use a backend that does (" + BACKEND + "), or --skip-doctor"));
        this.settings = settings;
        this.context = Objects.requireNonNull(context, "context");
        this.plan = Objects.requireNonNull(plan, "plan");
        this.loginKey = Objects.requireNonNull(loginKey, "loginKey");
    }

    /** Why the backend could not log in to a new VM with its settings and the login key; empty when it can. */
    public List<String> loginProblems() {
        return doctor.loginProblems(settings, loginKey);
    }

    /** The check of the default backend, {@value #BACKEND}. */
    public DoctorCheck(BackendRegistry registry, Map<String, String> settings, BackendContext context,
            Optional<Plan> plan) {
        this(registry, BACKEND, settings, context, plan);
    }

    @Override
    public Readiness check(VmInventoryEntry vm) {
        List<HostReport> reports;
        try {
            registry.checkSettings(provider, settings);
            reports = doctor.check(settings, context, vm.asProvisionedHost(), plan, loginKey);
        } catch (GantryException e) {
            if (e.code() == ErrorCode.CONFIG_INVALID || e.code() == ErrorCode.HOST_KEY_REJECTED) {
                return Readiness.never("doctor cannot run: " + e.getMessage());
            }
            return Readiness.notYet("doctor failed: " + e.getMessage());
        }
        List<String> missing = new ArrayList<>();
        boolean hopeless = false;
        for (HostReport report : reports) {
            for (HostCheck check : report.checks()) {
                if (check.status() == HostCheck.Status.MISSING) {
                    missing.add(describe(check));
                    hopeless |= doctor.finalChecks().contains(check.name());
                }
            }
        }
        if (missing.isEmpty()) {
            return Readiness.ok();
        }
        // One line per check: the final error prints each line of its message on its own.
        String detail = "doctor: " + missing.size() + " check(s) MISSING:\n      " + String.join("\n      ", missing);
        return hopeless ? Readiness.never(detail) : Readiness.notYet(detail);
    }

    private static String describe(HostCheck check) {
        return check.name() + " (found " + check.found() + ", needed " + check.needed()
                + (check.fix().isEmpty() ? "" : "; fix: " + check.fix()) + ")";
    }
}
