package dev.gantry.ssh.internal;

import com.jcraft.jsch.ChannelExec;
import com.jcraft.jsch.Session;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.ssh.RemoteResult;
import dev.gantry.ssh.ShellQuoting;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Runs one command to completion on its own exec channel, collecting all of its output. */
public final class CommandRun {

    /** How often a running command is checked for completion; small against any sensible timeout. */
    static final long POLL_MILLIS = 5;

    private CommandRun() {
    }

    public static RemoteResult run(TargetConnection connection, List<String> argv, Optional<byte[]> stdin,
                                   Duration timeout) {
        String command = ShellQuoting.command(argv);
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
        // Written by the session's reader thread; ByteArrayOutputStream's methods are synchronized.
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        long deadline = System.nanoTime() + timeout.toNanos();
        ChannelExec channel = Channels.open(connection, "exec", (ChannelExec c) -> {
            c.setCommand(command);
            // An empty stdin still ends in EOF, so a command that reads stdin does not wait forever.
            c.setInputStream(new ByteArrayInputStream(stdin.orElse(new byte[0])), false);
            c.setOutputStream(stdout, true);
            c.setErrStream(stderr, true);
        });
        Session session = sessionOf(channel);
        String program = argv.get(0);
        try {
            while (!channel.isClosed()) {
                if (!session.isConnected()) {
                    throw lost(connection, program, null);
                }
                if (System.nanoTime() > deadline) {
                    Channels.stop(channel);
                    throw new GantryException(ErrorCode.REMOTE_ERROR, "`" + program + "` on "
                            + connection.target().host() + ":" + connection.target().port() + " did not finish within "
                            + timeout.toMillis() + " ms; its channel was closed and the command signalled to stop");
                }
                Thread.sleep(POLL_MILLIS);
            }
            int status = channel.getExitStatus();
            // No exit status and no signal: the channel ended without the command reporting (a dying session
            // closes its channels before it reads as disconnected, so its state cannot be the test here).
            if (status == -1 && channel.getExitSignal() == null) {
                throw lost(connection, program, null);
            }
            return new RemoteResult(status, stdout.toByteArray(), stderr.toByteArray());
        } catch (InterruptedException e) {
            Channels.stop(channel);
            Thread.currentThread().interrupt();
            throw new GantryException(ErrorCode.REMOTE_ERROR, "interrupted while `" + program + "` ran on "
                    + connection.target().host() + ":" + connection.target().port(), e);
        } finally {
            Channels.close(connection, channel);
        }
    }

    static Session sessionOf(com.jcraft.jsch.Channel channel) {
        try {
            return channel.getSession();
        } catch (com.jcraft.jsch.JSchException e) {
            throw new IllegalStateException("a connected channel has a session", e);
        }
    }

    static GantryException lost(TargetConnection connection, String program, Throwable cause) {
        return new GantryException(ErrorCode.REMOTE_ERROR, "the connection to " + connection.target().host() + ":"
                + connection.target().port() + " was lost while `" + program + "` ran; it may or may not have "
                + "finished there. The next command reconnects", cause);
    }
}
