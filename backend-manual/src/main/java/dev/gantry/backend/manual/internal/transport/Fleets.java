package dev.gantry.backend.manual.internal.transport;

import dev.gantry.api.backend.JobEnvironment;
import dev.gantry.backend.manual.internal.settings.Inventory;
import dev.gantry.backend.manual.internal.settings.ManualSettings;
import dev.gantry.hosts.Host;
import dev.gantry.hosts.SshHost;
import dev.gantry.hosts.container.ContainerLaunch;
import dev.gantry.hosts.events.EvictionWatch;
import dev.gantry.hosts.events.SpotSettings;
import dev.gantry.ssh.SshPool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The fleet a transport runs jobs on, made from the settings. */
public final class Fleets {
    /** The limit of each file and process command on an SSH host. */
    public static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);
    /** Where this backend's settings live in gantry.yaml, for the hosts module's messages about them. */
    public static final String SETTINGS = "backends.manual";

    private Fleets() {
    }

    /**
     * This machine alone: jobs start in Gantry's own working directory unless they name one, with this process's
     * environment, and a two-rank rendezvous would meet on the loopback address.
     */
    public static Fleet local(Host host, ManualSettings settings) {
        FleetHost only = new FleetHost(host, settings.workDir().toString(),
                JobEnvironment.Rendezvous.singleNode().masterAddress(),
                Optional.of(System.getProperty("user.dir")), false, new EvictionWatch(host, settings.spot()),
                new ContainerLaunch(host, settings.container(), SETTINGS));
        return new Fleet(List.of(only), () -> { });
    }

    /** The inventory's hosts over one SSH pool; each host says itself whether it is a Spot VM. */
    public static Fleet ssh(Inventory inventory, ManualSettings settings) {
        SshPool pool = new SshPool();
        SpotSettings shared = settings.spot();
        List<FleetHost> members = new ArrayList<>();
        for (Inventory.InventoryHost entry : inventory.hosts()) {
            SshHost host = new SshHost(entry.name(), entry.target(), entry.addressSetting(), entry.workDir(),
                    entry.gpus(), pool, COMMAND_TIMEOUT);
            SpotSettings own = new SpotSettings(entry.spot() ? SpotSettings.Spot.TRUE : SpotSettings.Spot.FALSE,
                    shared.endpoint(), shared.eventsEnabled(), shared.acknowledge(), entry.vmName());
            members.add(new FleetHost(host, entry.workDir(), entry.target().host(), Optional.empty(), true,
                    new EvictionWatch(host, own), new ContainerLaunch(host, settings.container(), SETTINGS)));
        }
        return new Fleet(members, pool::close);
    }
}
