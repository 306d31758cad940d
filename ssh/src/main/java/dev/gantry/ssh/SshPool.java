package dev.gantry.ssh;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.ssh.internal.CommandRun;
import dev.gantry.ssh.internal.FileTransfer;
import dev.gantry.ssh.internal.LineStream;
import dev.gantry.ssh.internal.TargetConnection;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * SSH to many hosts from many threads: one pooled session per {@link SshTarget}, one channel per command or
 * transfer. A session that died (server restart, network cut, keepalives unanswered) is replaced on next use, with
 * exponential backoff and jitter bounded by {@link ReconnectPolicy} and the target's connect timeout; a host that
 * refuses the connection fails at once, one that does not answer after exactly its connect timeout. A command that
 * had started when its connection was lost is never re-sent (it may have run); the caller gets REMOTE_ERROR and
 * decides.
 *
 * <p>Every command is an argv, quoted with {@link ShellQuoting} so each element reaches the program verbatim. Commands
 * are not logged: argv may carry values that are not for logs.
 *
 * <p>Errors are {@link GantryException}s: HOST_KEY_REJECTED (with the offered fingerprint and how to trust it),
 * AUTH_FAILED (which user and key), BACKEND_UNAVAILABLE (no connection to host:port: refused at once, or no answer
 * within the connect timeout), REMOTE_ERROR (naming host:port, with the cause).
 */
public final class SshPool implements AutoCloseable {

    /** OpenSSH's default MaxSessions: channels one connection may have open at once. */
    public static final int DEFAULT_MAX_CHANNELS_PER_HOST = 10;

    private final ReconnectPolicy reconnectPolicy;
    private final int maxChannelsPerHost;
    private final RandomGenerator random = RandomGenerator.getDefault();
    private final ConcurrentMap<SshTarget, TargetConnection> connections = new ConcurrentHashMap<>();
    private final AtomicInteger sessionsOpened = new AtomicInteger();
    private volatile boolean closed;

    public SshPool() {
        this(ReconnectPolicy.DEFAULT);
    }

    public SshPool(ReconnectPolicy reconnectPolicy) {
        this(reconnectPolicy, DEFAULT_MAX_CHANNELS_PER_HOST);
    }

    /**
     * @param maxChannelsPerHost channels (commands, streams, transfers) open at once on one host's session; more wait
     *                           up to the target's connect timeout for a free one. Match the server's MaxSessions.
     */
    public SshPool(ReconnectPolicy reconnectPolicy, int maxChannelsPerHost) {
        this.reconnectPolicy = Objects.requireNonNull(reconnectPolicy, "reconnectPolicy");
        if (maxChannelsPerHost < 1) {
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, List.of(Problem.of("maxChannelsPerHost",
                    maxChannelsPerHost + " is not allowed; give 1 or more (OpenSSH allows 10 by default)")));
        }
        this.maxChannelsPerHost = maxChannelsPerHost;
    }

    /**
     * Runs argv on the target and waits for it to finish.
     *
     * @param stdin   bytes fed to the command's stdin, then EOF (empty: EOF at once)
     * @param timeout after this the command is signalled to stop, its channel closed and REMOTE_ERROR thrown
     * @return exit code, stdout and stderr; a non-zero exit is a result, not an exception
     */
    public RemoteResult exec(SshTarget target, List<String> argv, Optional<byte[]> stdin, Duration timeout) {
        return CommandRun.run(connection(target), argv, stdin, timeout);
    }

    /** {@link #exec(SshTarget, List, Optional, Duration)} without stdin. */
    public RemoteResult exec(SshTarget target, List<String> argv, Duration timeout) {
        return exec(target, argv, Optional.empty(), timeout);
    }

    /**
     * Starts argv and hands each line of its stdout (UTF-8, line end removed) to {@code onLine} as it arrives, until
     * the command ends or is cancelled. {@code onLine} runs on the session's network thread: keep it quick; if it
     * throws, the command is cancelled.
     */
    public RemoteCommand stream(SshTarget target, List<String> argv, Consumer<String> onLine) {
        return LineStream.start(connection(target), argv, onLine);
    }

    /** Writes {@code content} to {@code remotePath} atomically (temp file, then rename) with permissions {@code mode}. */
    public void writeFile(SshTarget target, String remotePath, byte[] content, int mode) {
        FileTransfer.write(connection(target), remotePath, new ByteArrayInputStream(content), mode);
    }

    /** Uploads a local file to {@code remotePath} atomically with permissions {@code mode}, e.g. 0600. */
    public void upload(SshTarget target, Path local, String remotePath, int mode) {
        try (InputStream content = Files.newInputStream(local)) {
            FileTransfer.write(connection(target), remotePath, content, mode);
        } catch (IOException e) {
            throw new GantryException(ErrorCode.REMOTE_ERROR, "cannot read local file " + local + " to upload it to "
                    + target.host() + ":" + target.port() + ": " + e, e);
        }
    }

    /** Uploads bytes; the same as {@link #writeFile}. */
    public void upload(SshTarget target, byte[] content, String remotePath, int mode) {
        writeFile(target, remotePath, content, mode);
    }

    /** The content of a remote file. */
    public byte[] download(SshTarget target, String remotePath) {
        return FileTransfer.read(connection(target), remotePath);
    }

    /** Downloads a remote file to {@code local}, replacing it only once the whole file has arrived. */
    public void download(SshTarget target, String remotePath, Path local) {
        FileTransfer.download(connection(target), remotePath, local);
    }

    /** Sessions this pool has opened so far, reconnects included: one per target while nothing breaks. */
    public int sessionsOpened() {
        return sessionsOpened.get();
    }

    /** Disconnects every session; running commands end with REMOTE_ERROR. Later use throws IllegalStateException. */
    @Override
    public void close() {
        closed = true;
        connections.values().forEach(TargetConnection::close);
        connections.clear();
    }

    private TargetConnection connection(SshTarget target) {
        Objects.requireNonNull(target, "target");
        if (closed) {
            throw new IllegalStateException("this SSH pool is closed");
        }
        return connections.computeIfAbsent(target,
                t -> new TargetConnection(t, reconnectPolicy, random, sessionsOpened, maxChannelsPerHost));
    }
}
