package dev.gantry.backend.cyclecloud.internal.slurm;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.hosts.Host;
import dev.gantry.ssh.RemoteResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The thin I/O adapter: Gantry's fixed scripts run on the cluster's login node, one remote command each. A script's
 * inputs are its positional parameters and stdin, never shell text, so no value of a user's reaches a shell as code.
 */
public final class SlurmLogin {
    /** Long enough for sbatch to wait out a busy controller, short enough that a wedged one is reported. */
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);

    /** The fixed scripts, and the shell each is written for (bash where builtins spare a process per job). */
    enum Script {
        SUBMIT("bash", "submit.sh"), STATUS("sh", "status.sh"), CANCEL("sh", "cancel.sh"), PROBE("sh", "probe.sh"),
        DOCTOR("sh", "doctor.sh");

        private final String shell;
        private final String text;

        Script(String shell, String resource) {
            this.shell = shell;
            this.text = load(resource);
        }

        String text() {
            return text;
        }
    }

    private final Host host;
    private final String slurmBin;

    /** @param slurmBin the directory of Slurm's commands there, ending in {@code /}; empty: the login PATH */
    public SlurmLogin(Host host, String slurmBin) {
        this.host = host;
        this.slurmBin = slurmBin;
    }

    public Host host() {
        return host;
    }

    public String slurmBin() {
        return slurmBin;
    }

    /** Runs a script; its standard output when it ran, REMOTE_ERROR naming what failed otherwise. */
    String run(Script script, List<String> args, Optional<byte[]> stdin) {
        return run(script, args, stdin, COMMAND_TIMEOUT);
    }

    /** The same with its own time limit (the doctor runs the probe on every node). */
    String run(Script script, List<String> args, Optional<byte[]> stdin, Duration timeout) {
        List<String> argv = new ArrayList<>(List.of(script.shell, "-c", script.text(), "gantry-" + script.name()
                .toLowerCase(java.util.Locale.ROOT)));
        argv.addAll(args);
        RemoteResult result = host.exec(argv, stdin, timeout);
        if (!result.succeeded()) {
            throw new GantryException(ErrorCode.REMOTE_ERROR, "the " + script.name().toLowerCase(java.util.Locale.ROOT)
                    + " command on the login node " + host.name() + " failed (exit " + result.exitCode() + "): "
                    + result.stderrText().strip());
        }
        return result.stdoutText();
    }

    private static String load(String name) {
        try (InputStream in = SlurmLogin.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the gantry-backend-cyclecloud jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
