package dev.gantry.backend.manual.internal.settings;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.api.backend.ProvisionedHost;
import dev.gantry.ssh.HostKeyPolicy;
import dev.gantry.ssh.SshLoginSettings;
import dev.gantry.ssh.SshTarget;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The SSH transport's hosts, bound from {@code hosts[i].*} with {@code defaults.*} filling what a host leaves out.
 * Every problem of every host is reported at once, each naming its exact key
 * ({@code backends.manual.hosts[1].port: ...}).
 *
 * @param hosts the hosts, in configuration order (names unique)
 * @param masterPort the port rank 0 listens on for multi-host jobs ({@code MASTER_PORT})
 * @param insecureHosts names of hosts whose host key is not verified (the caller warns about each)
 */
public record Inventory(List<InventoryHost> hosts, int masterPort, List<String> insecureHosts) {
    public static final String HOSTS = "hosts";
    public static final String DEFAULTS = "defaults";
    public static final String MASTER_PORT = "masterPort";
    public static final int DEFAULT_MASTER_PORT = 29500;
    public static final String INSECURE = SshLoginSettings.INSECURE;
    public static final String IDENTITY_FILE = SshLoginSettings.IDENTITY_FILE;
    public static final String AGENT = SshLoginSettings.AGENT;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");
    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,62}=[^,]*");

    /** Per-host keys, valid under {@code hosts[*].} and {@code defaults.} alike (address and name only per host). */
    private static final Map<String, String> HOST_KEYS = hostKeys();

    public static final List<ConfigKey> KEYS = keys();

    /**
     * One host of the inventory.
     *
     * @param name the name messages and job records use (the address unless {@code name} is set)
     * @param target how to reach and trust it
     * @param labels {@code key=value} labels
     * @param vmSize the Azure VM size, when known
     * @param gpus GPUs to schedule on it, when set explicitly (else counted with the probe)
     * @param workDir directory holding one directory per job on that host
     * @param spot whether the host is a Spot VM: a host that vanishes mid-job then means PREEMPTED, not FAILED
     * @param vmName the VM's name as its Scheduled Events list it, when given (else read from its metadata service)
     * @param addressSetting the setting that gave the address, with its place in {@code gantry.yaml}: named when the
     *     host cannot be reached
     */
    public record InventoryHost(String name, SshTarget target, Map<String, String> labels, Optional<String> vmSize,
                         OptionalInt gpus, String workDir, boolean spot, Optional<String> vmName,
                         String addressSetting) {
    }

    /** A host's own settings and the key messages about them name ({@code hosts[1]}, {@code provisioned[0]}). */
    private record HostSource(String prefix, BackendConfig own) {
    }

    public static Inventory bind(BackendConfig config, Optional<String> workDirDefault) {
        return bind(config, workDirDefault, List::of);
    }

    /**
     * Binds {@code hosts[*]} and the VMs {@code provisioned} refers to ({@link ProvisionedReferences}); the VMs
     * Gantry provisioned are asked for only when that key is given.
     */
    public static Inventory bind(BackendConfig config, Optional<String> workDirDefault,
                          Supplier<List<ProvisionedHost>> provisionedHosts) {
        List<Problem> problems = new ArrayList<>();
        int count = config.count(HOSTS);
        boolean provisioned = ProvisionedReferences.given(config);
        if (count == 0 && !provisioned) {
            problems.add(problem(config, "hosts", "transport ssh needs at least one host; add hosts[0].address "
                    + "(and user, identityFile or agent, knownHosts or hostKeyFingerprint), or refer to VMs "
                    + "gantry vm up created with provisioned: [NAME, ...]"));
        }
        int masterPort = port(config, MASTER_PORT, DEFAULT_MASTER_PORT, problems);
        BackendConfig defaults = config.subset(DEFAULTS);
        List<InventoryHost> hosts = new ArrayList<>();
        List<String> insecure = new ArrayList<>();
        Set<String> names = new HashSet<>();
        List<HostSource> sources = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sources.add(new HostSource(HOSTS + "[" + i + "]", config.subset(HOSTS + "[" + i + "]")));
        }
        if (provisioned) {
            // One reference (a pattern) may bring in several VMs: each is a host named after that reference.
            for (ProvisionedReferences.Match match : ProvisionedReferences.resolve(config, provisionedHosts,
                    problems)) {
                sources.add(new HostSource(match.key(), match.own()));
            }
        }
        for (HostSource source : sources) {
            String prefix = source.prefix();
            BackendConfig own = source.own();
            bindHost(config, prefix, own, defaults, workDirDefault, problems).ifPresent(host -> {
                if (!names.add(host.name())) {
                    problems.add(problem(config, prefix + ".name", "'" + host.name() + "' names two hosts; give "
                            + "each host a distinct name (or address)"));
                }
                hosts.add(host);
                if (host.target().hostKeyPolicy() instanceof HostKeyPolicy.InsecureAcceptAnyHostKey) {
                    insecure.add(host.name());
                }
            });
        }
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
        }
        return new Inventory(List.copyOf(hosts), masterPort, List.copyOf(insecure));
    }

    private static Optional<InventoryHost> bindHost(BackendConfig config, String prefix, BackendConfig own,
                                                    BackendConfig defaults, Optional<String> workDirDefault,
                                                    List<Problem> problems) {
        int before = problems.size();
        Lookup at = new Lookup(config, prefix, own, defaults);
        // The address is a host's own: defaults hold what hosts share.
        Optional<String> address = SshLoginSettings.address(new Lookup(config, prefix, own, BackendConfig.empty(
                config.backend())), problems);
        String name = own.get("name").map(String::strip).orElse(address.orElse(""));
        if (!name.isEmpty() && !NAME.matcher(name).matches()) {
            problems.add(problem(config, prefix + (own.get("name").isPresent() ? ".name" : ".address"),
                    "'" + name + "' cannot name a host; use letters, digits, '.', '_' and '-' (set name: to one)"));
        }
        Optional<String> user = at.get(SshLoginSettings.USER).map(String::strip).filter(s -> !s.isEmpty());
        Optional<SshTarget> target = SshLoginSettings.bind(address.orElse("unset"), at, problems);
        Map<String, String> labels = labels(config, at, problems);
        OptionalInt gpus = OptionalInt.empty();
        Optional<String> gpuText = at.get("gpus");
        if (gpuText.isPresent()) {
            try {
                int n = Integer.parseInt(gpuText.get().strip());
                if (n < 0 || n > 64) {
                    throw new NumberFormatException();
                }
                gpus = OptionalInt.of(n);
            } catch (NumberFormatException e) {
                problems.add(problem(config, at.key("gpus"), "must be a whole number from 0 to 64, got '"
                        + gpuText.get() + "'"));
            }
        }
        String workDir = at.get("workDir").map(String::strip)
                .or(() -> workDirDefault)
                .orElse("/var/tmp/gantry-" + user.orElse("user") + "/jobs");
        while (workDir.length() > 1 && workDir.endsWith("/")) {
            workDir = workDir.substring(0, workDir.length() - 1);
        }
        if (!workDir.startsWith("/") || workDir.contains("\n") || workDir.contains("\t")) {
            problems.add(problem(config, at.key("workDir"), "must be an absolute path on the host without tabs or "
                    + "line breaks, got '" + workDir + "'"));
        }
        boolean spot = SshLoginSettings.flag(at, "spot", problems);
        if (problems.size() > before || address.isEmpty() || target.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> vmName = own.get("vmName").map(String::strip);
        if (vmName.isPresent() && vmName.get().isEmpty()) {
            problems.add(problem(config, prefix + ".vmName", "must be the VM's name, got an empty value; remove the "
                    + "key to read the name from the host's metadata service"));
            return Optional.empty();
        }
        // A provisioned host's address comes from Gantry's records: the reference to it is the setting to fix.
        String addressKey = own.get(SshLoginSettings.ADDRESS).isPresent()
                && config.get(prefix + "." + SshLoginSettings.ADDRESS).isPresent()
                ? prefix + "." + SshLoginSettings.ADDRESS : prefix;
        return Optional.of(new InventoryHost(name, target.get(), labels, at.get("vmSize").map(String::strip), gpus,
                workDir, spot, vmName, config.describe(addressKey)));
    }

    /** Labels as a list of {@code key=value} (YAML maps cannot be declared as configuration keys). */
    private static Map<String, String> labels(BackendConfig config, Lookup at, List<Problem> problems) {
        Map<String, String> labels = new TreeMap<>();
        for (String source : List.of(DEFAULTS, at.prefix)) {
            BackendConfig scope = source.equals(DEFAULTS) ? at.defaults : at.own;
            List<String> items = scope.getList("labels");
            for (int i = 0; i < items.size(); i++) {
                String item = items.get(i).strip();
                if (!LABEL.matcher(item).matches()) {
                    problems.add(problem(config, source + ".labels", "'" + item + "' is not a label; write "
                            + "key=value, e.g. zone=westeurope-1"));
                    continue;
                }
                int eq = item.indexOf('=');
                labels.put(item.substring(0, eq), item.substring(eq + 1));
            }
        }
        return Map.copyOf(labels);
    }

    private static int port(BackendConfig config, String key, int fallback, List<Problem> problems) {
        return SshLoginSettings.port(SshLoginSettings.Source.of(config), key, fallback, problems);
    }

    private static Problem problem(BackendConfig config, String key, String message) {
        return Problem.of("backends." + config.backend() + "." + key, message);
    }

    /** A host's own value, else the default; {@link #key} names where the value came from. */
    private record Lookup(BackendConfig config, String prefix, BackendConfig own, BackendConfig defaults)
            implements SshLoginSettings.Source {
        @Override
        public Optional<String> get(String key) {
            return own.get(key).or(() -> defaults.get(key));
        }

        /** This lookup without defaults when the host sets any of these keys itself. */
        @Override
        public Lookup scoped(String... keys) {
            for (String key : keys) {
                if (own.get(key).isPresent()) {
                    return new Lookup(config, prefix, own, BackendConfig.empty(defaults.backend()));
                }
            }
            return this;
        }

        @Override
        public String where(String key) {
            return config.qualifiedKey(key(key));
        }

        @Override
        public Problem problem(String key, String message) {
            return config.problem(key(key), message);
        }

        @Override
        public String elsewhere(String key) {
            return " (here or as " + DEFAULTS + "." + key + ")";
        }

        String key(String key) {
            return (own.get(key).isPresent() || defaults.get(key).isEmpty() ? prefix : DEFAULTS) + "." + key;
        }
    }

    /** A key's family for listings: {@code hosts[*].port} is one of {@code hosts[*].*}; other keys are their own. */
    public static String family(String key) {
        if (key.startsWith(ProvisionedReferences.KEY)) {
            return ProvisionedReferences.KEY;
        }
        for (String scope : List.of(HOSTS + "[*].", DEFAULTS + ".")) {
            if (key.startsWith(scope)) {
                return scope + "*";
            }
        }
        return key;
    }

    private static Map<String, String> hostKeys() {
        Map<String, String> keys = new java.util.LinkedHashMap<>(SshLoginSettings.LOGIN_KEYS);
        keys.put("labels", "labels as key=value items");
        keys.put("vmSize", "the host's Azure VM size, when known");
        keys.put("gpus", "GPUs to schedule on the host (default: counted with the probe)");
        keys.put("workDir", "directory on the host holding one directory per job (/var/tmp/gantry-USER/jobs)");
        keys.put("spot", "the host is a Spot VM: a host that vanishes mid-job reports PREEMPTED");
        return keys;
    }

    private static List<ConfigKey> keys() {
        List<ConfigKey> keys = new ArrayList<>();
        keys.add(ConfigKey.optional(HOSTS + "[*].address", "ssh transport: the host's DNS name or IP address", null));
        keys.add(ConfigKey.optional(HOSTS + "[*].name", "ssh transport: the host's name in messages (its address)",
                null));
        keys.add(ConfigKey.optional(HOSTS + "[*].vmName", "ssh transport: the host's VM name as its Scheduled Events "
                + "list it (default: read from its metadata service)", null));
        for (String scope : List.of(HOSTS + "[*]", DEFAULTS)) {
            HOST_KEYS.forEach((key, text) -> {
                keys.add(ConfigKey.optional(scope + "." + key, "ssh transport: " + text, null));
                if (key.equals("labels")) {
                    keys.add(ConfigKey.optional(scope + ".labels[*]", "ssh transport: one key=value label", null));
                }
            });
        }
        keys.add(ConfigKey.optional(ProvisionedReferences.KEY, "ssh transport: VMs gantry vm up created, used as "
                + "hosts with their recorded host keys pinned: names, prefix-* patterns or *", null));
        keys.add(ConfigKey.optional(ProvisionedReferences.KEY + "[*]", "ssh transport: one provisioned VM name or "
                + "pattern", null));
        keys.add(ConfigKey.optional(MASTER_PORT, "ssh transport: MASTER_PORT of multi-host jobs",
                String.valueOf(DEFAULT_MASTER_PORT)));
        return List.copyOf(keys);
    }
}
