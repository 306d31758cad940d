package dev.gantry.ssh;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/** Who we log in as: a private key file, or the keys an ssh-agent holds (the key itself never enters Gantry). */
public sealed interface ClientIdentity {

    /** An unencrypted OpenSSH or PEM private key file. Keys with a passphrase belong in an ssh-agent. */
    static ClientIdentity keyFile(Path privateKey) {
        return new KeyFile(privateKey);
    }

    /** The ssh-agent named by the {@code SSH_AUTH_SOCK} environment variable. */
    static ClientIdentity agent() {
        return new Agent(Optional.empty());
    }

    /** The ssh-agent listening on the given Unix socket. */
    static ClientIdentity agent(Path socket) {
        return new Agent(Optional.of(socket));
    }

    record KeyFile(Path privateKey) implements ClientIdentity {
        public KeyFile {
            Objects.requireNonNull(privateKey, "privateKey");
        }
    }

    /** An ssh-agent; an empty socket means the one {@code SSH_AUTH_SOCK} names. */
    record Agent(Optional<Path> socket) implements ClientIdentity {
        public Agent {
            Objects.requireNonNull(socket, "socket");
        }
    }
}
