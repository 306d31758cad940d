package dev.gantry.backend.manual.internal;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.hosts.container.ContainerSettings;
import dev.gantry.hosts.events.SpotSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The manual backend's settings, bound from its configuration map.
 *
 * @param transport how jobs reach their machine: {@code local} or {@code ssh} (hosts: see {@link Inventory})
 * @param workDir where job directories live
 * @param cancelGrace how long a cancelled or evicted job gets between SIGTERM and SIGKILL
 * @param container how workloads with a container image run
 */
public record ManualSettings(String transport, Path workDir, Duration cancelGrace, ContainerSettings container) {
    public static final String TRANSPORT = "transport";
    public static final String WORK_DIR = "workDir";
    public static final String CANCEL_GRACE = "cancelGrace";
    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(10);

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

    /** Settings without a container runtime. */
    public ManualSettings(String transport, Path workDir, Duration cancelGrace) {
        this(transport, workDir, cancelGrace, ContainerSettings.none());
    }

    public static ManualSettings bind(BackendConfig config, BackendContext context) {
        List<String> unknown = config.unknownKeys(KEYS);
        if (!unknown.isEmpty()) {
            String accepted = String.join(", ", KEYS.stream().map(k -> Inventory.family(k.name())).distinct()
                    .toList());
            List<Problem> problems = new ArrayList<>();
            for (String key : unknown) {
                String hint = closest(key).map(k -> "; did you mean '" + k + "'?").orElse("");
                problems.add(Problem.of("backends." + config.backend() + "." + key,
                        "is not a setting of the manual backend (settings: " + accepted + ")" + hint));
            }
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
        }
        String transport = config.getChoice(TRANSPORT, "local", List.of("local", "ssh"));
        if (transport.equals("local") && ProvisionedReferences.given(config)) {
            throw config.invalid(ProvisionedReferences.KEY, "applies to transport: ssh (provisioned VMs are reached "
                    + "over SSH), but transport is local; set transport: ssh");
        }
        Path workDir = config.get(WORK_DIR).map(String::trim).map(Path::of)
                .orElse(context.stateDirectory().resolve("jobs"));
        if (!workDir.isAbsolute()) {
            throw config.invalid(WORK_DIR, "must be an absolute path, got '" + workDir + "'");
        }
        Duration grace = config.getDuration(CANCEL_GRACE, DEFAULT_GRACE);
        return new ManualSettings(transport, workDir, grace, ContainerSettings.bind(config));
    }

    /** The accepted key nearest to a typo, when it is near enough to be the likely intent. */
    static Optional<String> closest(String key) {
        List<String> names = new ArrayList<>(KEYS.stream().map(ConfigKey::name).toList());
        names.sort(Comparator.comparingInt((String n) -> distance(key.toLowerCase(), n.toLowerCase()))
                .thenComparing(Comparator.naturalOrder()));
        String best = names.get(0);
        return distance(key.toLowerCase(), best.toLowerCase()) <= Math.max(2, best.length() / 3)
                ? Optional.of(best) : Optional.empty();
    }

    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
