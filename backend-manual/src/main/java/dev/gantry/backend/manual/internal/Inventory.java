package dev.gantry.backend.manual.internal;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.api.backend.ProvisionedHost;
import dev.gantry.ssh.ClientIdentity;
import dev.gantry.ssh.HostKeyPolicy;
import dev.gantry.ssh.SshTarget;
import java.nio.file.Path;
import java.time.Duration;
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
record Inventory(List<InventoryHost> hosts, int masterPort, List<String> insecureHosts) {
    static final String HOSTS = "hosts";
    static final String DEFAULTS = "defaults";
    static final String MASTER_PORT = "masterPort";
    static final int DEFAULT_MASTER_PORT = 29500;
    static final String INSECURE = "insecureAcceptAnyHostKey";
    static final String IDENTITY_FILE = "identityFile";
    static final String AGENT = "agent";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");
    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,62}=[^,]*");

    /** Per-host keys, valid under {@code hosts[*].} and {@code defaults.} alike (address and name only per host). */
    private static final Map<String, String> HOST_KEYS = hostKeys();

    static final List<ConfigKey> KEYS = keys();

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
     */
    record InventoryHost(String name, SshTarget target, Map<String, String> labels, Optional<String> vmSize,
                         OptionalInt gpus, String workDir, boolean spot, Optional<String> vmName) {
    }

    /** A host's own settings and the key messages about them name ({@code hosts[1]}, {@code provisioned[0]}). */
    private record HostSource(String prefix, BackendConfig own) {
    }

    static Inventory bind(BackendConfig config, Optional<String> workDirDefault) {
        return bind(config, workDirDefault, List::of);
    }

    /**
     * Binds {@code hosts[*]} and the VMs {@code provisioned} refers to ({@link ProvisionedReferences}); the VMs
     * Gantry provisioned are asked for only when that key is given.
     */
    static Inventory bind(BackendConfig config, Optional<String> workDirDefault,
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
        Optional<String> address = own.get("address").map(String::strip).filter(s -> !s.isEmpty());
        if (address.isEmpty()) {
            problems.add(problem(config, prefix + ".address", "is required: the host's DNS name or IP address"));
        } else if (address.get().startsWith("-") || address.get().chars().anyMatch(Character::isWhitespace)) {
            problems.add(problem(config, prefix + ".address", "'" + address.get() + "' is not a host name or "
                    + "address; give e.g. 10.0.0.4 or node1.example.com"));
        }
        String name = own.get("name").map(String::strip).orElse(address.orElse(""));
        if (!name.isEmpty() && !NAME.matcher(name).matches()) {
            problems.add(problem(config, prefix + (own.get("name").isPresent() ? ".name" : ".address"),
                    "'" + name + "' cannot name a host; use letters, digits, '.', '_' and '-' (set name: to one)"));
        }
        int port = port(config, at.key("port"), at.get("port"), 22, problems);
        Optional<String> user = at.get("user").map(String::strip).filter(s -> !s.isEmpty());
        if (user.isEmpty()) {
            problems.add(problem(config, prefix + ".user", "is required (here or as defaults.user): the login "
                    + "user, e.g. azureuser"));
        }
        // A host that says how it logs in, or how its key is trusted, says it alone: defaults do not mix in.
        ClientIdentity identity = identity(config, at.scoped(IDENTITY_FILE, AGENT), problems);
        HostKeyPolicy policy = hostKeyPolicy(config, at.scoped("knownHosts", "hostKeyFingerprint", INSECURE),
                problems);
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
        boolean spot = bool(config, at, "spot", problems);
        Duration connectTimeout = SshTarget.DEFAULT_CONNECT_TIMEOUT;
        Optional<String> timeoutText = at.get("connectTimeout");
        if (timeoutText.isPresent()) {
            try {
                connectTimeout = new BackendConfig(config.backend(), Map.of("t", timeoutText.get()))
                        .getDuration("t", connectTimeout);
                if (connectTimeout.isZero()) {
                    throw new GantryException(ErrorCode.CONFIG_INVALID, "zero");
                }
            } catch (GantryException e) {
                problems.add(problem(config, at.key("connectTimeout"), "must be a positive duration such as 15s, "
                        + "got '" + timeoutText.get() + "'"));
            }
        }
        if (problems.size() > before || identity == null || policy == null) {
            return Optional.empty();
        }
        SshTarget target = new SshTarget(address.orElseThrow(), port, user.orElseThrow(), identity, policy,
                connectTimeout, SshTarget.DEFAULT_KEEPALIVE_INTERVAL);
        Optional<String> vmName = own.get("vmName").map(String::strip);
        if (vmName.isPresent() && vmName.get().isEmpty()) {
            problems.add(problem(config, prefix + ".vmName", "must be the VM's name, got an empty value; remove the "
                    + "key to read the name from the host's metadata service"));
            return Optional.empty();
        }
        return Optional.of(new InventoryHost(name, target, labels, at.get("vmSize").map(String::strip), gpus,
                workDir, spot, vmName));
    }

    private static ClientIdentity identity(BackendConfig config, Lookup at, List<Problem> problems) {
        Optional<String> file = at.get(IDENTITY_FILE).map(String::strip).filter(s -> !s.isEmpty());
        boolean agent = bool(config, at, AGENT, problems);
        if (file.isPresent() && agent) {
            problems.add(problem(config, at.key(IDENTITY_FILE), "and " + at.key(AGENT) + " are both set; "
                    + "use one: a private key file, or agent: true for the keys in ssh-agent"));
            return null;
        }
        if (file.isPresent()) {
            Path path = Path.of(file.get().startsWith("~/")
                    ? System.getProperty("user.home") + file.get().substring(1) : file.get());
            return ClientIdentity.keyFile(path);
        }
        if (agent) {
            return ClientIdentity.agent();
        }
        problems.add(problem(config, at.prefix + ".identityFile", "is required (here or as defaults.identityFile), "
                + "or set agent: true to use the keys in ssh-agent"));
        return null;
    }

    private static HostKeyPolicy hostKeyPolicy(BackendConfig config, Lookup at, List<Problem> problems) {
        Optional<String> knownHosts = at.get("knownHosts").map(String::strip).filter(s -> !s.isEmpty());
        Optional<String> pinned = at.get("hostKeyFingerprint").map(String::strip).filter(s -> !s.isEmpty());
        boolean insecure = bool(config, at, INSECURE, problems);
        int given = (knownHosts.isPresent() ? 1 : 0) + (pinned.isPresent() ? 1 : 0) + (insecure ? 1 : 0);
        if (given > 1) {
            problems.add(problem(config, at.prefix + ".hostKeyFingerprint", "give one way to trust the host's key: "
                    + "knownHosts, hostKeyFingerprint or " + INSECURE + " (several are set)"));
            return null;
        }
        if (insecure) {
            return HostKeyPolicy.INSECURE_ACCEPT_ANY_HOST_KEY;
        }
        if (pinned.isPresent()) {
            try {
                return HostKeyPolicy.pinned(pinned.get().split("\\s*,\\s*"));
            } catch (GantryException e) {
                problems.add(problem(config, at.key("hostKeyFingerprint"), "'" + pinned.get() + "' is not a SHA-256 "
                        + "host key fingerprint; give SHA256: and 43 base64 characters, as ssh-keygen -l -E sha256 "
                        + "-f KEY.pub prints it (several: comma-separated)"));
                return null;
            }
        }
        String file = knownHosts.orElse(System.getProperty("user.home") + "/.ssh/known_hosts");
        return HostKeyPolicy.knownHosts(Path.of(file.startsWith("~/")
                ? System.getProperty("user.home") + file.substring(1) : file));
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

    private static boolean bool(BackendConfig config, Lookup at, String key, List<Problem> problems) {
        Optional<String> text = at.get(key).map(String::strip);
        if (text.isEmpty()) {
            return false;
        }
        return switch (text.get()) {
            case "true" -> true;
            case "false" -> false;
            default -> {
                problems.add(problem(config, at.key(key), "must be true or false, got '" + text.get() + "'"));
                yield false;
            }
        };
    }

    private static int port(BackendConfig config, String key, int fallback, List<Problem> problems) {
        return port(config, key, config.get(key), fallback, problems);
    }

    private static int port(BackendConfig config, String key, Optional<String> text, int fallback,
                            List<Problem> problems) {
        if (text.isEmpty()) {
            return fallback;
        }
        try {
            int port = Integer.parseInt(text.get().strip());
            if (port >= 1 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problems.add(problem(config, key, "must be a TCP port from 1 to 65535, got '" + text.get() + "'"));
        return fallback;
    }

    private static Problem problem(BackendConfig config, String key, String message) {
        return Problem.of("backends." + config.backend() + "." + key, message);
    }

    /** A host's own value, else the default; {@link #key} names where the value came from. */
    private record Lookup(BackendConfig config, String prefix, BackendConfig own, BackendConfig defaults) {
        Optional<String> get(String key) {
            return own.get(key).or(() -> defaults.get(key));
        }

        /** This lookup without defaults when the host sets any of these keys itself. */
        Lookup scoped(String... keys) {
            for (String key : keys) {
                if (own.get(key).isPresent()) {
                    return new Lookup(config, prefix, own, new BackendConfig(defaults.backend(), Map.of()));
                }
            }
            return this;
        }

        String key(String key) {
            return (own.get(key).isPresent() || defaults.get(key).isEmpty() ? prefix : DEFAULTS) + "." + key;
        }
    }

    /** A key's family for listings: {@code hosts[*].port} is one of {@code hosts[*].*}; other keys are their own. */
    static String family(String key) {
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
        Map<String, String> keys = new java.util.LinkedHashMap<>();
        keys.put("port", "SSH port (22)");
        keys.put("user", "login user");
        keys.put(IDENTITY_FILE, "private key file to log in with (or agent: true)");
        keys.put(AGENT, "log in with the keys ssh-agent holds (SSH_AUTH_SOCK)");
        keys.put("knownHosts", "OpenSSH known_hosts file that lists the host's key (default ~/.ssh/known_hosts)");
        keys.put("hostKeyFingerprint", "the host key's SHA256: fingerprint, pinned (comma-separated to rotate)");
        keys.put(INSECURE, "INSECURE: accept any host key without verifying it (throw-away hosts only)");
        keys.put("labels", "labels as key=value items");
        keys.put("vmSize", "the host's Azure VM size, when known");
        keys.put("gpus", "GPUs to schedule on the host (default: counted with the probe)");
        keys.put("workDir", "directory on the host holding one directory per job (/var/tmp/gantry-USER/jobs)");
        keys.put("spot", "the host is a Spot VM: a host that vanishes mid-job reports PREEMPTED");
        keys.put("connectTimeout", "bound on connecting, reconnects included (15s)");
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
