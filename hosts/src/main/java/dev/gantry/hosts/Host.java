package dev.gantry.hosts;

import dev.gantry.hosts.events.MetadataHost;
import dev.gantry.ssh.RemoteResult;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A machine jobs run on, as the backend needs it: run a short command (the job protocol's scripts), read and write
 * small files, signal process groups. Paths are absolute strings in the host's own file system. The local machine
 * implements it with the JDK, an SSH host with one remote command per operation over a shared connection, so the
 * job protocol ({@link dev.gantry.hosts.jobs.JobLauncher}, {@link dev.gantry.hosts.jobs.HostScan},
 * {@link dev.gantry.hosts.jobs.JobDirectory}) and the wrapper script are the same on both.
 */
public interface Host extends MetadataHost {
    /** A short name for messages: {@code local}, later the SSH host alias. */
    String name();

    /**
     * How the launch script starts a job in a new session here: {@code setsid}, {@code perl} (POSIX::setsid), or
     * empty for whichever the host has ({@link dev.gantry.hosts.jobs.JobLauncher}).
     */
    default String sessionLeader() {
        return "";
    }

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

    /**
     * Runs a short command to completion with {@code stdin} as its standard input (closed when empty) and returns
     * how it ended (the SSH module's result, whichever way the host runs it); fails with REMOTE_ERROR only when it cannot start, the host cannot be reached or it outlives the
     * timeout. The job protocol's fixed scripts ({@link dev.gantry.hosts.jobs.JobLauncher},
     * {@link dev.gantry.hosts.jobs.HostScan}) run through it, one command each on every kind of host.
     */
    RemoteResult exec(List<String> argv, Optional<byte[]> stdin, Duration timeout);

    /**
     * Commands this host has run for the backend so far, where the host counts them (an SSH host does: each is a
     * round trip); empty where a command is a local process and nobody needs the count.
     */
    default OptionalLong commands() {
        return OptionalLong.empty();
    }

    /** The subdirectories of a directory (job ids under the work directory). */
    List<String> list(String directory);
}
