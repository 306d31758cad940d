package dev.gantry.backend.cyclecloud.internal.login;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.hosts.Host;
import dev.gantry.ssh.RemoteResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The thin I/O adapter: Gantry's fixed scripts run on the cluster's login node, one remote command each. A script's
 * inputs are its positional parameters and stdin, never shell text, so no value of a user's reaches a shell as code.
 */
public final class LoginNode {
    /** Long enough for the scheduler to wait out a busy controller, short enough that a wedged one is reported. */
    public static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);

    private final Host host;
    private final String bin;

    /** @param bin the directory of the scheduler's commands there, ending in {@code /}; empty: the login PATH */
    public LoginNode(Host host, String bin) {
        if (!bin.isEmpty() && !bin.endsWith("/")) {
            throw new IllegalArgumentException("the scheduler's directory ends in '/': " + bin);
        }
        this.host = host;
        this.bin = bin;
    }

    public Host host() {
        return host;
    }

    /** The directory of the scheduler's commands, ending in {@code /}; empty: the login PATH. */
    public String bin() {
        return bin;
    }

    /** Runs a script; its standard output when it ran, REMOTE_ERROR naming what failed otherwise. */
    public String run(LoginScript script, List<String> args, Optional<byte[]> stdin) {
        return run(script, args, stdin, COMMAND_TIMEOUT);
    }

    /** The same with its own time limit (the doctor runs the probe on every node). */
    public String run(LoginScript script, List<String> args, Optional<byte[]> stdin, Duration timeout) {
        List<String> argv = new ArrayList<>(List.of(script.shell(), "-c", script.text(), "gantry-" + script.name()));
        argv.addAll(args);
        RemoteResult result = host.exec(argv, stdin, timeout);
        if (!result.succeeded()) {
            throw new GantryException(ErrorCode.REMOTE_ERROR, "the " + script.name() + " command on the login node "
                    + host.name() + " failed (exit " + result.exitCode() + "): " + result.stderrText().strip());
        }
        return result.stdoutText();
    }
}
