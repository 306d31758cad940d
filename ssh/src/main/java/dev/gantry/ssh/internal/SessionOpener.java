package dev.gantry.ssh.internal;

import com.jcraft.jsch.AgentIdentityRepository;
import com.jcraft.jsch.AgentProxyException;
import com.jcraft.jsch.JSch;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.SSHAgentConnector;
import com.jcraft.jsch.Session;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.ssh.ClientIdentity;
import dev.gantry.ssh.HostKeyPolicy;
import dev.gantry.ssh.SshTarget;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.concurrent.TimeUnit;

/** One connect attempt to a target: key exchange under its host-key policy, then public-key login. */
final class SessionOpener {

    /** Unanswered keepalives after which a session counts as dead. */
    static final int KEEPALIVE_COUNT_MAX = 3;

    private SessionOpener() {
    }

    /**
     * A connected session by {@code deadlineNanos} ({@link System#nanoTime()}), or a GantryException:
     * HOST_KEY_REJECTED and AUTH_FAILED (retrying cannot help), BACKEND_UNAVAILABLE when no TCP connection could be
     * made (refused, no route, no answer before the deadline: retrying at once cannot help either), REMOTE_ERROR when
     * the host was reached and the SSH handshake failed (a reset or close during key exchange: worth retrying).
     */
    static Session open(SshTarget target, long deadlineNanos) {
        JSch jsch = new JSch();
        useIdentity(jsch, target);
        Session session;
        try {
            session = jsch.getSession(target.user(), target.host(), target.port());
        } catch (JSchException e) {
            throw new GantryException(ErrorCode.CONFIG_INVALID, "cannot use " + target.address() + ": "
                    + e.getMessage(), e);
        }
        HostKeyVerifier verifier = new HostKeyVerifier(target);
        session.setHostKeyRepository(verifier);
        session.setConfig("StrictHostKeyChecking", "yes");
        session.setConfig("PreferredAuthentications", "publickey");
        if (target.hostKeyPolicy() instanceof HostKeyPolicy.KnownHostsFile) {
            // Ask for the key type known_hosts lists, as OpenSSH does, rather than one we would have to refuse.
            session.setConfig("prefer_known_host_key_types", "yes");
        }
        long leftMillis = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
        int timeoutMillis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, leftMillis));
        BoundedSocket socket = new BoundedSocket(deadlineNanos);
        session.setSocketFactory(socket);
        try {
            // Also the socket read timeout once connected: each silent interval sends a keepalive.
            session.setServerAliveInterval((int) target.keepaliveInterval().toMillis());
            session.setServerAliveCountMax(KEEPALIVE_COUNT_MAX);
            session.connect(timeoutMillis);
            return session;
        } catch (JSchException e) {
            session.disconnect();
            if (socket.unreachable().isPresent()) {
                throw unreachable(target, socket.unreachable().get(), e);
            }
            if (socket.expired()) {
                throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "cannot connect to " + target.host() + ":"
                        + target.port() + " within " + target.connectTimeout().toMillis() + " ms (connect timeout): "
                        + "the host accepted the connection but sshd did not complete the handshake in time; check "
                        + "that sshd on port " + target.port() + " is healthy", e);
            }
            if (verifier.rejection().isPresent()) {
                GantryException rejected = verifier.rejection().get();
                throw new GantryException(rejected.code(), rejected.getMessage(), e);
            }
            String message = String.valueOf(e.getMessage());
            if (message.startsWith("Auth fail") || message.startsWith("Auth cancel")) {
                throw new GantryException(ErrorCode.AUTH_FAILED, "login as " + target.user() + " on "
                        + target.host() + ":" + target.port() + " was refused for " + describe(target.identity())
                        + "; check that its public key is in ~" + target.user()
                        + "/.ssh/authorized_keys on the host", e);
            }
            throw new GantryException(ErrorCode.REMOTE_ERROR, "cannot connect to " + target.host() + ":"
                    + target.port() + ": " + rootMessage(e), e);
        } finally {
            socket.release();
        }
    }

    /** No TCP connection: refused at once, or no answer within the connect timeout. */
    private static GantryException unreachable(SshTarget target, IOException why, JSchException e) {
        String where = target.host() + ":" + target.port();
        if (why instanceof SocketTimeoutException) {
            return new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "cannot connect to " + where + " within "
                    + target.connectTimeout().toMillis() + " ms (connect timeout): no answer; check that the host is "
                    + "up and that no firewall drops port " + target.port(), e);
        }
        String reason = why instanceof UnknownHostException ? "unknown host " + why.getMessage()
                : String.valueOf(why.getMessage());
        return new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "cannot connect to " + where + ": " + reason
                + "; check that the host is up and sshd listens on port " + target.port(), e);
    }

    private static void useIdentity(JSch jsch, SshTarget target) {
        ClientIdentity identity = target.identity();
        if (identity instanceof ClientIdentity.KeyFile keyFile) {
            try {
                jsch.addIdentity(keyFile.privateKey().toString());
            } catch (JSchException e) {
                throw new GantryException(ErrorCode.AUTH_FAILED, "cannot use private key " + keyFile.privateKey()
                        + " to log in as " + target.user() + " on " + target.host() + ":" + target.port() + ": "
                        + e.getMessage() + "; give an unencrypted OpenSSH or PEM key, or load the key into "
                        + "ssh-agent and use the agent", e);
            }
        } else {
            ClientIdentity.Agent agent = (ClientIdentity.Agent) identity;
            try {
                SSHAgentConnector connector = agent.socket().isPresent()
                        ? new SSHAgentConnector(agent.socket().get()) : new SSHAgentConnector();
                jsch.setIdentityRepository(new AgentIdentityRepository(connector));
            } catch (AgentProxyException e) {
                throw new GantryException(ErrorCode.AUTH_FAILED, "cannot reach the ssh-agent"
                        + agent.socket().map(s -> " at " + s).orElse(" (SSH_AUTH_SOCK)") + " to log in as "
                        + target.user() + " on " + target.host() + ":" + target.port() + ": " + e.getMessage()
                        + "; start ssh-agent and ssh-add your key, or give an identity file", e);
            }
        }
    }

    static String describe(ClientIdentity identity) {
        if (identity instanceof ClientIdentity.KeyFile keyFile) {
            return "key " + keyFile.privateKey();
        }
        return "the keys of the ssh-agent" + ((ClientIdentity.Agent) identity).socket().map(s -> " at " + s)
                .orElse(" named by SSH_AUTH_SOCK");
    }

    static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return message == null ? root.getClass().getSimpleName() : message;
    }
}
