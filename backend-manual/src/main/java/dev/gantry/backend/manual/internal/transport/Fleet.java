package dev.gantry.backend.manual.internal.transport;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * The machines jobs run on (this one alone for the local transport, the inventory's hosts over SSH), and the
 * fan-out that reads or stops them side by side.
 */
public final class Fleet implements AutoCloseable {
    private final Map<String, FleetHost> hosts = new LinkedHashMap<>();
    private final AutoCloseable connections;
    private final ExecutorService fanOut;

    /** @param connections what to close with the fleet (the SSH pool) */
    public Fleet(List<FleetHost> members, AutoCloseable connections) {
        if (members.isEmpty()) {
            throw new IllegalArgumentException("a fleet has at least one host");
        }
        members.forEach(h -> hosts.put(h.name(), h));
        this.connections = connections;
        this.fanOut = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "gantry-manual-fleet");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Whether jobs share the machines without accounting for each other: the local transport runs on the machine
     * the user works on, where Gantry does not own the capacity, so it never refuses a job for the ones running.
     * An SSH fleet places each rank where its GPUs, CPUs and memory are free.
     */
    public boolean sharesCapacity() {
        return hosts.size() == 1 && !first().remote();
    }

    public Collection<FleetHost> hosts() {
        return hosts.values();
    }

    public FleetHost first() {
        return hosts.values().iterator().next();
    }

    public int size() {
        return hosts.size();
    }

    public Optional<FleetHost> find(String name) {
        return Optional.ofNullable(hosts.get(name));
    }

    public FleetHost host(String name) {
        return find(name).orElseThrow(() -> new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "the job's host "
                + name + " is no longer in the inventory; add it back to manage the job"));
    }

    /** Commands run so far on all hosts together, where every host counts them (SSH hosts do). */
    public OptionalLong remoteCommands() {
        long sum = 0;
        for (FleetHost host : hosts.values()) {
            OptionalLong own = host.host().commands();
            if (own.isEmpty()) {
                return OptionalLong.empty();
            }
            sum += own.getAsLong();
        }
        return OptionalLong.of(sum);
    }

    /**
     * Scans every host at once: one command per host, which on a remote host watched for evictions also asks its
     * Scheduled Events.
     */
    public Map<String, FleetHost.Scan> scanAll() {
        return scanAll(true);
    }

    /** The same, without asking Scheduled Events when {@code events} is false. */
    public Map<String, FleetHost.Scan> scanAll(boolean events) {
        return scan(events, Optional.empty(), Optional.empty());
    }

    /**
     * Every host's scan for a submit of job {@code id}: the job whole, the others that still hold capacity, and the
     * first host also taking the job's claim when {@code claim} is given ({@link FleetHost#scan(boolean, Optional,
     * Optional)}).
     */
    public Map<String, FleetHost.Scan> scanForSubmit(String id, Optional<String> claim) {
        return scan(false, claim, Optional.of(id));
    }

    private Map<String, FleetHost.Scan> scan(boolean events, Optional<String> claim, Optional<String> submitted) {
        Map<String, FleetHost.Scan> scans = new LinkedHashMap<>();
        if (hosts.size() == 1) {
            FleetHost only = first();
            scans.put(only.name(), only.scan(events, claim, submitted)); // no thread for a fleet of one
            return scans;
        }
        Map<String, Future<FleetHost.Scan>> futures = new LinkedHashMap<>();
        FleetHost coordinator = first();
        for (FleetHost host : hosts.values()) {
            Optional<String> own = host == coordinator ? claim : Optional.empty();
            futures.put(host.name(), fanOut.submit(() -> host.scan(events, own, submitted)));
        }
        futures.forEach((name, future) -> scans.put(name, unwrap(future)));
        return scans;
    }

    /** Runs the action on every item at once and waits for all of them. */
    public <T> void parallel(List<T> items, Consumer<T> action) {
        if (items.size() == 1) {
            action.accept(items.get(0));
            return;
        }
        List<Future<?>> futures = new ArrayList<>();
        for (T item : items) {
            futures.add(fanOut.submit(() -> action.accept(item)));
        }
        futures.forEach(Fleet::unwrap);
    }

    public <T> Future<T> submit(Callable<T> task) {
        return fanOut.submit(task);
    }

    public static <T> T unwrap(Future<T> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GantryException(ErrorCode.REMOTE_ERROR, "interrupted while waiting for the hosts", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new GantryException(ErrorCode.INTERNAL, String.valueOf(e.getCause()), e.getCause());
        }
    }

    /** Jobs outlive this object; only the connections end. */
    @Override
    public void close() {
        fanOut.shutdownNow();
        try {
            connections.close();
        } catch (Exception e) {
            throw new GantryException(ErrorCode.INTERNAL, "closing the fleet's connections: " + e.getMessage(), e);
        }
    }
}
