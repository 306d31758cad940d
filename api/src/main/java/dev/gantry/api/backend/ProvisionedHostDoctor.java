package dev.gantry.api.backend;

import dev.gantry.api.Plan;
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
     * Names of checks whose MISSING no wait can change (a host key that is not the recorded one), so core stops
     * waiting for that VM at once.
     */
    default Set<String> finalChecks() {
        return Set.of();
    }
}
