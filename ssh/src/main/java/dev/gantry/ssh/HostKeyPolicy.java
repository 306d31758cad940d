package dev.gantry.ssh;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How the identity of an SSH server is verified before anything is sent to it. An unknown or changed host key is
 * refused with a message that shows the offered fingerprint and how to trust it; trusting any key at all is possible
 * only through {@link #INSECURE_ACCEPT_ANY_HOST_KEY}, whose name says what it costs.
 */
public sealed interface HostKeyPolicy {

    /** Accepts whatever key the server offers: a man in the middle goes unnoticed. For throw-away hosts only. */
    HostKeyPolicy INSECURE_ACCEPT_ANY_HOST_KEY = new InsecureAcceptAnyHostKey();

    /** Trusts the keys listed in an OpenSSH known_hosts file (plain or hashed entries, {@code [host]:port} form). */
    static HostKeyPolicy knownHosts(Path file) {
        return new KnownHostsFile(file);
    }

    /** Trusts only keys whose SHA-256 fingerprint, as {@code ssh-keygen -l} prints it ({@code SHA256:...}), is listed. */
    static HostKeyPolicy pinned(String... fingerprints) {
        return new PinnedFingerprints(List.of(fingerprints));
    }

    /** Keys listed in an OpenSSH known_hosts file. */
    record KnownHostsFile(Path file) implements HostKeyPolicy {
        public KnownHostsFile {
            Objects.requireNonNull(file, "file");
        }
    }

    /** Keys pinned by their SHA-256 fingerprints; several are allowed so a host key can be rotated without downtime. */
    record PinnedFingerprints(List<String> fingerprints) implements HostKeyPolicy {
        private static final Pattern SHA256 = Pattern.compile("SHA256:[A-Za-z0-9+/]{43}");

        public PinnedFingerprints {
            fingerprints = List.copyOf(fingerprints);
            List<Problem> problems = new ArrayList<>();
            if (fingerprints.isEmpty()) {
                problems.add(Problem.of("hostKeyFingerprint",
                        "no fingerprint given; pin the host's key as ssh-keygen -l -E sha256 prints it, "
                                + "e.g. SHA256:t1TmsEZS4vdjjS4sINzxFuOL7hEaKbSrbyEqQxX28p4"));
            }
            for (int i = 0; i < fingerprints.size(); i++) {
                String fingerprint = fingerprints.get(i);
                if (!SHA256.matcher(fingerprint).matches()) {
                    problems.add(Problem.of("hostKeyFingerprint[" + i + "]", "'" + fingerprint
                            + "' is not a SHA-256 host key fingerprint; expected SHA256: followed by 43 base64 "
                            + "characters, as ssh-keygen -l -E sha256 -f KEY.pub prints it"));
                }
            }
            if (!problems.isEmpty()) {
                throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
            }
        }
    }

    /** See {@link #INSECURE_ACCEPT_ANY_HOST_KEY}. */
    record InsecureAcceptAnyHostKey() implements HostKeyPolicy {
        @Override
        public String toString() {
            return "INSECURE_ACCEPT_ANY_HOST_KEY";
        }
    }
}
