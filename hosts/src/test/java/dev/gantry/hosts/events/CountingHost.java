package dev.gantry.hosts.events;

import dev.gantry.hosts.Host;
import dev.gantry.hosts.LocalHost;
import dev.gantry.hosts.MachineFacts;
import dev.gantry.ssh.RemoteResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The local machine, counting the short commands run through {@link #run} (Scheduled Events queries, probes): each
 * would be one remote command on an SSH host.
 */
public final class CountingHost implements Host {
    private final Host local = LocalHost.detect();
    private final List<List<String>> commands = new ArrayList<>();

    public synchronized int runs() {
        return commands.size();
    }

    public synchronized List<List<String>> commandLines() {
        return List.copyOf(commands);
    }

    @Override
    public String run(List<String> argv, Duration timeout) {
        synchronized (this) {
            commands.add(List.copyOf(argv));
        }
        return local.run(argv, timeout);
    }

    @Override
    public String name() {
        return local.name();
    }

    /** The job protocol's scripts (launch, scan) run uncounted: these tests count what goes through run. */
    @Override
    public RemoteResult exec(List<String> argv, Optional<byte[]> stdin, Duration timeout) {
        return local.exec(argv, stdin, timeout);
    }

    @Override
    public boolean isDirectory(String path) {
        return local.isDirectory(path);
    }

    @Override
    public boolean exists(String path) {
        return local.exists(path);
    }

    @Override
    public boolean createDirectory(String path) {
        return local.createDirectory(path);
    }

    @Override
    public Optional<String> readText(String path) {
        return local.readText(path);
    }

    @Override
    public void writeAtomically(String path, String text) {
        local.writeAtomically(path, text);
    }

    @Override
    public byte[] readFrom(String path, long offset) {
        return local.readFrom(path, offset);
    }

    @Override
    public boolean isAlive(long pid, Optional<Instant> startedAt) {
        return local.isAlive(pid, startedAt);
    }

    @Override
    public boolean signalGroup(long pgid, String signal) {
        return local.signalGroup(pgid, signal);
    }

    @Override
    public boolean groupAlive(long pgid) {
        return local.groupAlive(pgid);
    }

    @Override
    public MachineFacts facts() {
        return local.facts();
    }

    @Override
    public List<String> list(String directory) {
        return local.list(directory);
    }

    @Override
    public void writePrivate(String path, String text) {
        local.writePrivate(path, text);
    }

    @Override
    public void delete(String path) {
        local.delete(path);
    }
}
