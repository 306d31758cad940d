package dev.gantry.hosts;

import dev.gantry.hosts.events.MetadataHost;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A machine jobs run on, as the backend needs it: start a detached command, read and write small files, signal
 * process groups. Paths are absolute strings in the host's own file system. The local transport implements it with
 * the JDK; an SSH transport implements the same operations over one connection, so job bookkeeping
 * ({@link dev.gantry.hosts.jobs.JobDirectory}) and the wrapper script are shared.
 */
public interface Host extends MetadataHost {
    /** A short name for messages: {@code local}, later the SSH host alias. */
    String name();

    /**
     * Starts {@code argv} in its own session and process group, detached from this process: it keeps running when
     * the caller exits. Environment values travel only in the child's environment, never on a command line.
     *
     * @param launchLog where the launcher's own output goes (the job's output is redirected by the wrapper)
     */
    void startDetached(List<String> argv, String workingDirectory, Map<String, String> environment, String launchLog);

    /** The argv prefix that puts a command into a new session (setsid or its fallback). */
    List<String> sessionLeader();

    boolean isDirectory(String path);

    boolean exists(String path);

    /** Creates a directory atomically; false when it already existed. Parents are created as needed. */
    boolean createDirectory(String path);

    /** The file's text, empty when it does not exist. */
    Optional<String> readText(String path);

    /** Writes a file so that readers see either nothing or all of it (write to a temporary name, then rename). */
    void writeAtomically(String path, String text);

    /**
     * Writes a file only its owner can read or write: the permissions (0600) are set as the file is created, so
     * its content is never readable by others, not even for a moment. For files that hold secrets.
     */
    void writePrivate(String path, String text);

    /** Deletes a file; nothing happens when it does not exist. */
    void delete(String path);

    /** Bytes of a file from an offset to its current end; empty when the file does not exist (yet). */
    byte[] readFrom(String path, long offset);

    /**
     * Holds an exclusive lock on a lock file, against other threads of this process and other processes, until
     * closed. Blocks until the lock is free.
     */
    AutoCloseable lock(String path);

    /**
     * Whether {@code pid} is alive and is still the process that started at {@code startedAt} (not a later process
     * that reused the id).
     */
    boolean isAlive(long pid, Optional<Instant> startedAt);

    /** Sends a signal ({@code TERM} or {@code KILL}) to a process group; false when no process received it. */
    boolean signalGroup(long pgid, String signal);

    /** Whether any process of the group still runs (zombies, which have ended, do not count). */
    boolean groupAlive(long pgid);

    /** What the machine has, for validating plans against it. */
    MachineFacts facts();

    /**
     * Runs a short command to completion with stdin closed and returns its standard output; fails with
     * REMOTE_ERROR when it cannot start or outlives the timeout. For probes, never for jobs.
     */
    String run(List<String> argv, Duration timeout);

    /** The subdirectories of a directory (job ids under the work directory). */
    List<String> list(String directory);
}
