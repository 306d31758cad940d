package dev.gantry.ssh;

import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.UserHome;
import dev.gantry.api.backend.BackendConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How one SSH host is logged in to and trusted, bound from the configuration keys every backend that reaches hosts
 * over SSH spells the same way: the manual backend's {@code hosts[*]} and {@code defaults}, the CycleCloud
 * backend's login node. One binding, so the keys, their defaults and their error messages cannot drift apart.
 *
 * <p>Host keys are verified by default (the user's {@code ~/.ssh/known_hosts}); accepting any key takes
 * {@link #INSECURE}, named so that nobody sets it by accident.
 */
public final class SshLoginSettings {
    public static final String ADDRESS = "address";
    public static final String PORT = "port";
    public static final String USER = "user";
    public static final String IDENTITY_FILE = "identityFile";
    public static final String AGENT = "agent";
    public static final String KNOWN_HOSTS = "knownHosts";
    public static final String HOST_KEY_FINGERPRINT = "hostKeyFingerprint";
    public static final String INSECURE = "insecureAcceptAnyHostKey";
    public static final String CONNECT_TIMEOUT = "connectTimeout";

    /** The keys after {@link #ADDRESS}, what each means, in the order listings show them. */
    public static final Map<String, String> LOGIN_KEYS = loginKeys();

    /** Where the login keys' values are read from, and how problems name them. */
    public interface Source {
        /** The value of a key, if set. */
        Optional<String> get(String key);

        /** The key as problems name it, e.g. {@code backends.manual.hosts[1].port}. */
        String where(String key);

        /**
         * What a problem about a missing required key adds after the key, e.g. {@code " (here or as defaults.user)"}
         * where values may also come from defaults; empty by default.
         */
        default String elsewhere(String key) {
            return "";
        }

        /** A problem about a key, at its place in the configuration file where the source knows it. */
        default Problem problem(String key, String message) {
            return Problem.of(where(key), message);
        }

        /** This source reading only its own scope when that scope sets any of {@code keys} itself. */
        default Source scoped(String... keys) {
            return this;
        }

        /**
         * A backend's settings as a source: values read from {@code config}, problems named by its qualified keys
         * ({@code backends.cyclecloud.port}) and placed at their line in the configuration file where it knows them.
         */
        static Source of(BackendConfig config) {
            Objects.requireNonNull(config, "config");
            return new Source() {
                @Override
                public Optional<String> get(String key) {
                    return config.get(key);
                }

                @Override
                public String where(String key) {
                    return config.qualifiedKey(key);
                }

                @Override
                public Problem problem(String key, String message) {
                    return config.problem(key, message);
                }
            };
        }
    }

    private SshLoginSettings() {
    }

    /**
     * The target at {@code address} as {@code at} describes it, or empty when a problem (each added to
     * {@code problems}, naming its key) stops it. A host that says how it logs in, or how its key is trusted, says it
     * alone: values from a wider scope do not mix in.
     */
    public static Optional<SshTarget> bind(String address, Source at, List<Problem> problems) {
        int before = problems.size();
        int port = port(at, PORT, 22, problems);
        Optional<String> user = at.get(USER).map(String::strip).filter(s -> !s.isEmpty());
        if (user.isEmpty()) {
            problems.add(at.problem(USER, "is required" + at.elsewhere(USER) + ": the login user, e.g. "
                    + "azureuser"));
        }
        Optional<ClientIdentity> identity = identity(at.scoped(IDENTITY_FILE, AGENT), problems);
        Optional<HostKeyPolicy> policy = hostKeyPolicy(at.scoped(KNOWN_HOSTS, HOST_KEY_FINGERPRINT, INSECURE),
                problems);
        Duration connectTimeout = connectTimeout(at, problems);
        if (problems.size() > before || identity.isEmpty() || policy.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new SshTarget(address, port, user.orElseThrow(), identity.get(), policy.get(),
                connectTimeout, SshTarget.DEFAULT_KEEPALIVE_INTERVAL));
    }

    /** A host name or address that can be one: not empty, no blanks, no leading dash (which ssh reads as an option). */
    public static Optional<String> address(Source at, List<Problem> problems) {
        Optional<String> address = at.get(ADDRESS).map(String::strip).filter(s -> !s.isEmpty());
        if (address.isEmpty()) {
            problems.add(at.problem(ADDRESS, "is required: the host's DNS name or IP address"));
        } else if (address.get().startsWith("-") || address.get().chars().anyMatch(Character::isWhitespace)) {
            problems.add(at.problem(ADDRESS, "'" + address.get() + "' is not a host name or address; give "
                    + "e.g. 10.0.0.4 or node1.example.com"));
            return Optional.empty();
        }
        return address;
    }

    /** {@code true} or {@code false}; anything else is a problem naming the key. Unset: false. */
    public static boolean flag(Source at, String key, List<Problem> problems) {
        Optional<String> text = at.get(key).map(String::strip);
        if (text.isEmpty()) {
            return false;
        }
        return switch (text.get()) {
            case "true" -> true;
            case "false" -> false;
            default -> {
                problems.add(at.problem(key, "must be true or false, got '" + text.get() + "'"));
                yield false;
            }
        };
    }

    /** A TCP port, 1 to 65535; {@code fallback} when unset. */
    public static int port(Source at, String key, int fallback, List<Problem> problems) {
        Optional<String> text = at.get(key);
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
        problems.add(at.problem(key, "must be a TCP port from 1 to 65535, got '" + text.get() + "'"));
        return fallback;
    }

    /** A path with {@code ~/} expanded to the user's home directory ({@code $HOME} first, as Unix tools read it). */
    public static Path userPath(String text) {
        return UserHome.expand(text, UserHome.ofProcess());
    }

    private static Optional<ClientIdentity> identity(Source at, List<Problem> problems) {
        Optional<String> file = at.get(IDENTITY_FILE).map(String::strip).filter(s -> !s.isEmpty());
        boolean agent = flag(at, AGENT, problems);
        if (file.isPresent() && agent) {
            problems.add(at.problem(IDENTITY_FILE, "and " + at.where(AGENT) + " are both set; use one: a "
                    + "private key file, or agent: true for the keys in ssh-agent"));
            return Optional.empty();
        }
        if (file.isPresent()) {
            return Optional.of(ClientIdentity.keyFile(userPath(file.get())));
        }
        if (agent) {
            return Optional.of(ClientIdentity.agent());
        }
        problems.add(at.problem(IDENTITY_FILE, "is required" + at.elsewhere(IDENTITY_FILE) + ", or set "
                + "agent: true to use the keys in ssh-agent"));
        return Optional.empty();
    }

    private static Optional<HostKeyPolicy> hostKeyPolicy(Source at, List<Problem> problems) {
        Optional<String> knownHosts = at.get(KNOWN_HOSTS).map(String::strip).filter(s -> !s.isEmpty());
        Optional<String> pinned = at.get(HOST_KEY_FINGERPRINT).map(String::strip).filter(s -> !s.isEmpty());
        boolean insecure = flag(at, INSECURE, problems);
        int given = (knownHosts.isPresent() ? 1 : 0) + (pinned.isPresent() ? 1 : 0) + (insecure ? 1 : 0);
        if (given > 1) {
            problems.add(at.problem(HOST_KEY_FINGERPRINT, "give one way to trust the host's key: "
                    + "knownHosts, hostKeyFingerprint or " + INSECURE + " (several are set)"));
            return Optional.empty();
        }
        if (insecure) {
            return Optional.of(HostKeyPolicy.INSECURE_ACCEPT_ANY_HOST_KEY);
        }
        if (pinned.isPresent()) {
            try {
                return Optional.of(HostKeyPolicy.pinned(pinned.get().split("\\s*,\\s*")));
            } catch (GantryException e) {
                problems.add(at.problem(HOST_KEY_FINGERPRINT, "'" + pinned.get() + "' is not a SHA-256 "
                        + "host key fingerprint; give SHA256: and 43 base64 characters, as ssh-keygen -l -E sha256 "
                        + "-f KEY.pub prints it (several: comma-separated)"));
                return Optional.empty();
            }
        }
        return Optional.of(HostKeyPolicy.knownHosts(userPath(knownHosts.orElse("~/.ssh/known_hosts"))));
    }

    private static Duration connectTimeout(Source at, List<Problem> problems) {
        Optional<String> text = at.get(CONNECT_TIMEOUT);
        if (text.isEmpty()) {
            return SshTarget.DEFAULT_CONNECT_TIMEOUT;
        }
        try {
            Duration timeout = new BackendConfig("ssh", Map.of("t", text.get())).getDuration("t",
                    SshTarget.DEFAULT_CONNECT_TIMEOUT);
            if (!timeout.isZero()) {
                return timeout;
            }
        } catch (GantryException e) {
            // reported below
        }
        problems.add(at.problem(CONNECT_TIMEOUT, "must be a positive duration such as 15s, got '"
                + text.get() + "'"));
        return SshTarget.DEFAULT_CONNECT_TIMEOUT;
    }

    private static Map<String, String> loginKeys() {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put(PORT, "SSH port (22)");
        keys.put(USER, "login user");
        keys.put(IDENTITY_FILE, "private key file to log in with (or agent: true)");
        keys.put(AGENT, "log in with the keys ssh-agent holds (SSH_AUTH_SOCK)");
        keys.put(KNOWN_HOSTS, "OpenSSH known_hosts file that lists the host's key (default ~/.ssh/known_hosts)");
        keys.put(HOST_KEY_FINGERPRINT, "the host key's SHA256: fingerprint, pinned (comma-separated to rotate)");
        keys.put(INSECURE, "INSECURE: accept any host key without verifying it (throw-away hosts only)");
        keys.put(CONNECT_TIMEOUT, "bound on connecting, reconnects included (15s)");
        return java.util.Collections.unmodifiableMap(keys);
    }
}
