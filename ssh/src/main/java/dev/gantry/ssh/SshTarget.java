package dev.gantry.ssh;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One SSH endpoint and how to trust and log in to it. Equal targets share one pooled session in {@link SshPool}.
 *
 * @param host              DNS name or IP address
 * @param port              TCP port, 1..65535
 * @param user              login user
 * @param identity          key file or ssh-agent
 * @param hostKeyPolicy     how the server's host key is verified
 * @param connectTimeout    bound on getting a session, reconnect attempts included; also bounds the wait for the
 *                          server to open a channel on an existing session
 * @param keepaliveInterval how often an idle session is probed; three unanswered probes drop it
 */
public record SshTarget(String host, int port, String user, ClientIdentity identity, HostKeyPolicy hostKeyPolicy,
                        Duration connectTimeout, Duration keepaliveInterval) {

    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(15);
    public static final Duration DEFAULT_KEEPALIVE_INTERVAL = Duration.ofSeconds(15);

    public SshTarget {
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(hostKeyPolicy, "hostKeyPolicy");
        List<Problem> problems = new ArrayList<>();
        if (host == null || host.isBlank() || !host.strip().equals(host) || host.startsWith("-")) {
            problems.add(Problem.of("host", "'" + host + "' is not a host name or address; give e.g. "
                    + "10.0.0.4 or node1.example.com"));
        }
        if (port < 1 || port > 65535) {
            problems.add(Problem.of("port", port + " is not a TCP port; allowed 1..65535 (SSH is usually 22)"));
        }
        if (user == null || user.isBlank() || !user.strip().equals(user)) {
            problems.add(Problem.of("user", "'" + user + "' is not a login name; give the remote account, "
                    + "e.g. azureuser"));
        }
        if (connectTimeout == null || connectTimeout.isNegative() || connectTimeout.isZero()
                || connectTimeout.toMillis() > Integer.MAX_VALUE) {
            problems.add(Problem.of("connectTimeout", connectTimeout + " is not allowed; give a positive "
                    + "duration such as PT15S"));
        }
        if (keepaliveInterval == null || keepaliveInterval.isNegative() || keepaliveInterval.isZero()
                || keepaliveInterval.toMillis() > Integer.MAX_VALUE) {
            problems.add(Problem.of("keepaliveInterval", keepaliveInterval + " is not allowed; give a "
                    + "positive duration such as PT15S"));
        }
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
        }
    }

    /** A target with the default connect timeout and keepalive interval. */
    public static SshTarget of(String host, int port, String user, ClientIdentity identity,
                               HostKeyPolicy hostKeyPolicy) {
        return new SshTarget(host, port, user, identity, hostKeyPolicy, DEFAULT_CONNECT_TIMEOUT,
                DEFAULT_KEEPALIVE_INTERVAL);
    }

    public SshTarget withConnectTimeout(Duration timeout) {
        return new SshTarget(host, port, user, identity, hostKeyPolicy, timeout, keepaliveInterval);
    }

    public SshTarget withKeepaliveInterval(Duration interval) {
        return new SshTarget(host, port, user, identity, hostKeyPolicy, connectTimeout, interval);
    }

    public SshTarget withHostKeyPolicy(HostKeyPolicy policy) {
        return new SshTarget(host, port, user, identity, policy, connectTimeout, keepaliveInterval);
    }

    public SshTarget withIdentity(ClientIdentity newIdentity) {
        return new SshTarget(host, port, user, newIdentity, hostKeyPolicy, connectTimeout, keepaliveInterval);
    }

    /** {@code user@host:port}, as messages name the target. */
    public String address() {
        return user + "@" + host + ":" + port;
    }
}
