package dev.gantry.ssh;

import java.time.Duration;
import java.util.OptionalInt;

/** A remote command that is still streaming its output (see {@link SshPool#stream}). */
public interface RemoteCommand extends AutoCloseable {

    /**
     * Waits for the command to end.
     *
     * @return its exit code (-1 when ended by a signal without status), or empty if it is still running after
     *         {@code timeout}
     * @throws dev.gantry.api.GantryException REMOTE_ERROR when the connection was lost before the command ended
     */
    OptionalInt awaitExit(Duration timeout) throws InterruptedException;

    /** True until the command has ended or was cancelled. */
    boolean isRunning();

    /** What the command wrote to stderr so far (the last 64 KiB). */
    String stderrText();

    /** Stops the command: asks the server to end it and closes its channel. Idempotent. */
    void cancel();

    /** Same as {@link #cancel()}. */
    @Override
    void close();
}
