package dev.gantry.api.backend;

import dev.gantry.api.Plan;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * How a backend that runs jobs on VMs Gantry provisioned judges whether one such VM is ready for its jobs (SPI v2).
 * Core's {@code vm up} calls it until no check is MISSING, so that core never needs to know the backend's settings:
 * the backend derives from its own settings whatever it needs to reach this one VM (its login, its work directory,
 * its container runtime) and leaves out its other hosts.
 */
public interface ProvisionedHostDoctor {
    /**
     * Probes the VM and checks it against the plan (or against its own hardware without one).
     *
     * @param settings the backend's configured settings, as for {@link BackendProvider#create}
     * @param context the context backends are created with
     * @param host the VM to check, the only host the check may reach
     * @param plan the plan the VM was created for, if any
     * @return the VM's report; its checks say what is MISSING with the fix
     * @throws dev.gantry.api.GantryException CONFIG_INVALID when the settings cannot reach the VM at all
     */
    List<HostReport> check(BackendConfig settings, BackendContext context, ProvisionedHost host, Optional<Plan> plan);

    /**
     * The same check, logging in with {@code loginKey} when one is given: the private key whose public half
     * {@code vm up} installed on the VM, the one login sure to work there. A backend that logs in otherwise (or
     * not at all) ignores it, as this default does.
     *
     * @param settings the backend's configured settings
     * @param context the context backends are created with
     * @param host the VM to check
     * @param plan the plan the VM was created for, if any
     * @param loginKey the private key installed on the VM, if any
     * @return the VM's report
     * @throws dev.gantry.api.GantryException CONFIG_INVALID when the settings cannot reach the VM at all
     */
    default List<HostReport> check(BackendConfig settings, BackendContext context, ProvisionedHost host,
                                   Optional<Plan> plan, Optional<Path> loginKey) {
        return check(settings, context, host, plan);
    }

    /**
     * Why the check could not log in to a new VM with these settings and {@code loginKey}: empty when it can. Core
     * asks before any VM is created, so that a doctor that cannot log in never leaves billing VMs behind.
     *
     * @param settings the backend's configured settings
     * @param loginKey the private key {@code vm up} would install, if any
     * @return each reason, one sentence with its fix; empty when it can log in
     */
    default List<String> loginProblems(BackendConfig settings, Optional<Path> loginKey) {
        return List.of();
    }

    /**
     * How to configure the backend to run jobs on VMs whose names match {@code namePattern} (such as
     * {@code train-*}), for the user once they are ready; empty when there is nothing to say.
     *
     * @param namePattern the VMs' names, {@code *} standing for any text
     * @return the advice, e.g. the settings to add to {@code gantry.yaml}; empty when none
     */
    default Optional<String> settingsFor(String namePattern) {
        return Optional.empty();
    }

    /**
     * Names of checks whose MISSING no wait can change (a host key that is not the recorded one), so core stops
     * waiting for that VM at once.
     *
     * @return the names of such checks, e.g. a host key check; empty when waiting can fix every check
     */
    default Set<String> finalChecks() {
        return Set.of();
    }
}
