package dev.gantry.backend.manual.internal.doctor;

import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.backend.HostCheck;
import dev.gantry.api.backend.HostReport;
import dev.gantry.backend.manual.internal.settings.ManualSettings;
import dev.gantry.backend.manual.internal.transport.Fleet;
import dev.gantry.backend.manual.internal.transport.FleetHost;
import dev.gantry.backend.manual.internal.transport.Fleets;
import dev.gantry.hosts.HostDoctor;
import dev.gantry.hosts.SshHost;
import dev.gantry.hosts.probe.SettingNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One probe per host (one command each); a host that cannot be reached says so in its report. */
public final class FleetDoctor {
    private final Fleet fleet;
    private final ManualSettings settings;

    public FleetDoctor(Fleet fleet, ManualSettings settings) {
        this.fleet = fleet;
        this.settings = settings;
    }

    /** The keys the probe's advice points at, as users write them. */
    private static final SettingNames SETTING_NAMES = SettingNames.under(Fleets.SETTINGS);

    public List<HostReport> reports(Optional<Plan> plan) {
        List<HostReport> reports = new ArrayList<>();
        for (FleetHost host : fleet.hosts()) {
            try {
                reports.add(HostDoctor.examine(host.host(), host.workDir(), plan,
                        settings.container().runtime().configName(), SETTING_NAMES));
            } catch (GantryException e) {
                if (!host.remote()) {
                    throw e;
                }
                String address = host.host() instanceof SshHost ssh ? ssh.target().address() : host.address();
                reports.add(new HostReport(host.name(), Map.of("address", address), List.of(unreachable(e))));
            }
        }
        return reports;
    }

    /**
     * Why the probe could not run, as a check whose name says which part of the SSH login failed: a host key that
     * is not the trusted one ({@code ssh.hostKey}) is not cured by retrying, a refused login ({@code ssh.login}) or
     * an unreachable host ({@code ssh.reachable}) may be, on a host still booting.
     */
    private static HostCheck unreachable(GantryException e) {
        return switch (e.code()) {
            case HOST_KEY_REJECTED -> new HostCheck(ProvisionedVmDoctor.HOST_KEY_CHECK, HostCheck.Status.MISSING,
                    e.getMessage(), "the host key that is trusted for this host", "find out why the key differs (a "
                    + "reinstalled host, or someone in between) before trusting another; see docs/ssh.md");
            case AUTH_FAILED -> new HostCheck("ssh.login", HostCheck.Status.MISSING, e.getMessage(),
                    "an SSH login that works", "check the user and the identity file or agent; see docs/ssh.md");
            default -> new HostCheck("ssh.reachable", HostCheck.Status.MISSING, e.getMessage(),
                    "an SSH login that works", "check the address, user, key and host key; see docs/ssh.md");
        };
    }
}
