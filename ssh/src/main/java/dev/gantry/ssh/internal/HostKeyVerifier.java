package dev.gantry.ssh.internal;

import com.jcraft.jsch.HostKey;
import com.jcraft.jsch.HostKeyRepository;
import com.jcraft.jsch.JSch;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.UserInfo;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.ssh.HostKeyPolicy;
import dev.gantry.ssh.SshTarget;
import java.nio.file.Files;
import java.util.Optional;

/**
 * Applies a target's {@link HostKeyPolicy} during the key exchange of one connect, and remembers why it refused a
 * key so the caller can explain the refusal with the offered fingerprint and the way to trust it. Never writes to
 * a known_hosts file: trusting a new key is the user's decision.
 */
final class HostKeyVerifier implements HostKeyRepository {

    private final SshTarget target;
    private final HostKeyRepository knownHosts;
    private volatile GantryException rejection;

    HostKeyVerifier(SshTarget target) {
        this.target = target;
        this.knownHosts = target.hostKeyPolicy() instanceof HostKeyPolicy.KnownHostsFile file
                ? loadKnownHosts(file) : null;
    }

    private static HostKeyRepository loadKnownHosts(HostKeyPolicy.KnownHostsFile file) {
        JSch jsch = new JSch();
        // A missing file trusts nothing; the refusal then says how to create it.
        if (Files.isRegularFile(file.file())) {
            try {
                jsch.setKnownHosts(file.file().toString());
            } catch (JSchException e) {
                throw new GantryException(ErrorCode.CONFIG_INVALID, "cannot read known_hosts file " + file.file()
                        + ": " + e.getMessage() + "; fix or recreate it with ssh-keyscan", e);
            }
        }
        return jsch.getHostKeyRepository();
    }

    /** Why the key was refused, if it was. */
    Optional<GantryException> rejection() {
        return Optional.ofNullable(rejection);
    }

    @Override
    public int check(String host, byte[] key) {
        HostKeyPolicy policy = target.hostKeyPolicy();
        if (policy instanceof HostKeyPolicy.InsecureAcceptAnyHostKey) {
            return OK;
        }
        String offered = HostKeyFingerprint.sha256(key);
        String type = HostKeyFingerprint.keyType(key);
        if (policy instanceof HostKeyPolicy.PinnedFingerprints pinned) {
            if (pinned.fingerprints().contains(offered)) {
                return OK;
            }
            rejection = new GantryException(ErrorCode.HOST_KEY_REJECTED, "host key of " + endpoint()
                    + " does not match the pinned fingerprint" + (pinned.fingerprints().size() > 1 ? "s " : " ")
                    + String.join(", ", pinned.fingerprints()) + ": the server offered " + type + " key " + offered
                    + ". Someone may be intercepting the connection, or the host was reinstalled. If you have "
                    + "checked that " + offered + " is the host's key (ssh-keygen -l -E sha256 -f "
                    + "/etc/ssh/ssh_host_*_key.pub on the host), pin it: hostKeyFingerprint: " + offered);
            return NOT_INCLUDED;
        }
        HostKeyPolicy.KnownHostsFile file = (HostKeyPolicy.KnownHostsFile) policy;
        int verdict = knownHosts.check(host, key);
        if (verdict == CHANGED) {
            rejection = new GantryException(ErrorCode.HOST_KEY_REJECTED, "host key of " + endpoint()
                    + " has CHANGED: the server offered " + type + " key " + offered + ", but " + file.file()
                    + " lists a different key for " + host + ". Someone may be intercepting the connection, or "
                    + "the host was reinstalled. If you have checked that " + offered + " is the host's key, "
                    + "remove the old entry with `ssh-keygen -R '" + host + "' -f " + file.file() + "`, then "
                    + trustAdvice(offered, file));
        } else if (verdict != OK) {
            rejection = new GantryException(ErrorCode.HOST_KEY_REJECTED, "host key of " + endpoint()
                    + " is unknown: the server offered " + type + " key " + offered + ", which " + file.file()
                    + " does not list. If you have checked that this is the host's key (ssh-keygen -l -E sha256 "
                    + "-f /etc/ssh/ssh_host_*_key.pub on the host), " + trustAdvice(offered, file));
        }
        return verdict;
    }

    private String trustAdvice(String offered, HostKeyPolicy.KnownHostsFile file) {
        return "trust it with `ssh-keyscan -p " + target.port() + " " + target.host() + " >> " + file.file()
                + "` or pin it with hostKeyFingerprint: " + offered;
    }

    private String endpoint() {
        return target.host() + ":" + target.port();
    }

    @Override
    public void add(HostKey hostkey, UserInfo ui) {
        // Deliberately nothing: keys are trusted by the user (ssh-keyscan or a pin), never silently learned.
    }

    @Override
    public void remove(String host, String type) {
    }

    @Override
    public void remove(String host, String type, byte[] key) {
    }

    @Override
    public String getKnownHostsRepositoryID() {
        return "gantry:" + target.hostKeyPolicy();
    }

    @Override
    public HostKey[] getHostKey() {
        return knownHosts == null ? new HostKey[0] : knownHosts.getHostKey();
    }

    @Override
    public HostKey[] getHostKey(String host, String type) {
        return knownHosts == null ? new HostKey[0] : knownHosts.getHostKey(host, type);
    }
}
