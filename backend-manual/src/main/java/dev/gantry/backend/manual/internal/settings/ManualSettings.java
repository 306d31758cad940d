package dev.gantry.backend.manual.internal.settings;

import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.api.backend.ConfigProblems;
import dev.gantry.hosts.container.ContainerSettings;
import dev.gantry.hosts.events.SpotSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The manual backend's settings, bound once from its configuration map; every problem in them is reported at once,
 * each at its place in {@code gantry.yaml}.
 *
 * @param transport how jobs reach their machines
 * @param workDir where job directories live on this machine (each SSH host has its own, {@link Inventory})
 * @param cancelGrace how long a cancelled or evicted job gets between SIGTERM and SIGKILL
 * @param container how workloads with a container image run
 * @param spot whether this machine is a Spot VM and how its Scheduled Events are read; for SSH hosts the endpoint
 *     and acknowledgement they share (each host says whether it is a Spot VM)
 * @param inventory the SSH hosts; empty for the local transport
 */
public record ManualSettings(Transport transport, Path workDir, Duration cancelGrace, ContainerSettings container,
                             SpotSettings spot, Optional<Inventory> inventory) {
    public static final String TRANSPORT = "transport";
    public static final String WORK_DIR = "workDir";
    public static final String CANCEL_GRACE = "cancelGrace";
    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(10);

    /** How jobs reach their machines. */
    public enum Transport {
        /** The machine Gantry runs on: a fleet of one. */
        LOCAL,
        /** The hosts of the inventory, over SSH. */
        SSH;

        /** The name {@code gantry.yaml} spells. */
        public String configName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        static List<String> configNames() {
            return Arrays.stream(values()).map(Transport::configName).toList();
        }
    }

    /**
     * Ours, the container keys ({@link ContainerSettings}), the SSH transport's hosts ({@link Inventory}), then the
     * spot and Scheduled Events keys ({@link SpotSettings}).
     */
    public static final List<ConfigKey> KEYS = SpotSettings.withKeys(Stream.concat(Stream.of(
            ConfigKey.optional(TRANSPORT, "how jobs reach their machine: local (the machine Gantry runs on) or ssh "
                    + "(the hosts listed under hosts)", "local"),
            ConfigKey.optional(WORK_DIR, "directory holding one directory per job", "<state directory>/jobs"),
            ConfigKey.optional(CANCEL_GRACE, "time between SIGTERM and SIGKILL when a job is cancelled or evicted",
                    "10s")), Stream.concat(ContainerSettings.KEYS.stream(), Inventory.KEYS.stream())).toList());

    public ManualSettings {
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(workDir, "workDir");
        Objects.requireNonNull(cancelGrace, "cancelGrace");
        Objects.requireNonNull(container, "container");
        Objects.requireNonNull(spot, "spot");
        Objects.requireNonNull(inventory, "inventory");
        if ((transport == Transport.SSH) != inventory.isPresent()) {
            throw new IllegalArgumentException("the ssh transport, and only it, has an inventory");
        }
    }

    /** The local transport without a container runtime, on a regular (not Spot) machine. */
    public static ManualSettings local(Path workDir, Duration cancelGrace) {
        return new ManualSettings(Transport.LOCAL, workDir, cancelGrace, ContainerSettings.none(), SpotSettings.off(),
                Optional.empty());
    }

    /** The same with this machine's Spot settings. */
    public ManualSettings withSpot(SpotSettings value) {
        return new ManualSettings(transport, workDir, cancelGrace, container, value, inventory);
    }

    public static ManualSettings bind(BackendConfig config, BackendContext context) {
        ConfigProblems problems = new ConfigProblems(config);
        problems.unknownKeys(KEYS);
        Transport transport = problems.read(() -> Transport.valueOf(config.getChoice(TRANSPORT, "local",
                Transport.configNames()).toUpperCase(java.util.Locale.ROOT)), Transport.LOCAL);
        Optional<String> workDirSetting = config.get(WORK_DIR).map(String::strip);
        Path workDir = workDirSetting.map(Path::of).orElse(context.stateDirectory().resolve("jobs"));
        if (!workDir.isAbsolute()) {
            problems.add(WORK_DIR, "must be an absolute path, got '" + workDir + "'");
        }
        Duration grace = problems.read(() -> config.getDuration(CANCEL_GRACE, DEFAULT_GRACE), DEFAULT_GRACE);
        ContainerSettings container = problems.read(() -> ContainerSettings.bind(config), ContainerSettings.none());
        SpotSettings spot = problems.read(() -> SpotSettings.bind(config), SpotSettings.off());
        Optional<Inventory> inventory = Optional.empty();
        if (transport == Transport.SSH) {
            for (String local : List.of(SpotSettings.SPOT, SpotSettings.VM_NAME)) {
                if (config.get(local).isPresent()) {
                    problems.add(local, "applies to transport local; with transport ssh each host says whether it "
                            + "is a Spot VM (hosts[*].spot or defaults.spot) and its VM name is hosts[*].vmName, or "
                            + "read from its metadata service; move the setting there");
                }
            }
            inventory = Optional.ofNullable(problems.read(() -> Inventory.bind(config, workDirSetting,
                    context::provisionedHosts), null));
        } else if (ProvisionedReferences.given(config)) {
            problems.add(ProvisionedReferences.KEY, "applies to transport: ssh (provisioned VMs are reached over SSH), "
                    + "but transport is local; set transport: ssh");
        }
        problems.throwIfAny();
        return new ManualSettings(transport, workDir, grace, container, spot, inventory);
    }
}
