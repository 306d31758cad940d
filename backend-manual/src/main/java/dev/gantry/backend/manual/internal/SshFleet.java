package dev.gantry.backend.manual.internal;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.hosts.SshHost;
import dev.gantry.hosts.container.ContainerLaunch;
import dev.gantry.hosts.container.ContainerSettings;
import dev.gantry.hosts.events.EvictionWatch;
import dev.gantry.hosts.events.MetadataQuery;
import dev.gantry.hosts.events.ScheduledEvent;
import dev.gantry.hosts.events.SpotSettings;
import dev.gantry.hosts.jobs.HostScan;
import dev.gantry.hosts.jobs.JobDirectory;
import dev.gantry.ssh.SshPool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/** The inventory's hosts over one SSH pool, and the fan-out that reads or stops them side by side. */
final class SshFleet implements AutoCloseable {
    /**
     * One host's job directories, or why it could not be read; and, for a host watched for Spot evictions, what its
     * Scheduled Events said in the same command.
     */
    record Scan(Map<String, HostScan.Entry> entries, Optional<String> error, Optional<EvictionWatch.Check> events) {
        Scan(Map<String, HostScan.Entry> entries, Optional<String> error) {
            this(entries, error, Optional.empty());
        }

        Optional<ScheduledEvent> preemption() {
            return events.flatMap(EvictionWatch.Check::preemption);
        }
    }

    private final Map<String, SshHost> hosts = new LinkedHashMap<>();
    private final Map<String, Inventory.InventoryHost> entries = new LinkedHashMap<>();
    private final Map<String, EvictionWatch> watches = new LinkedHashMap<>();
    private final Map<String, ContainerLaunch> containers = new LinkedHashMap<>();
    private final SshPool pool;
    private final ExecutorService fanOut;

    /**
     * @param spot the Scheduled Events settings every host shares (endpoint, acknowledgement); whether a host is a
     *     Spot VM is its own {@code spot} setting
     */
    SshFleet(Inventory inventory, SshPool pool, Duration commandTimeout, SpotSettings spot,
             ContainerSettings containerSettings) {
        this.pool = pool;
        for (Inventory.InventoryHost entry : inventory.hosts()) {
            SshHost host = new SshHost(entry.name(), entry.target(), entry.workDir(), entry.gpus(), pool,
                    commandTimeout);
            hosts.put(entry.name(), host);
            entries.put(entry.name(), entry);
            watches.put(entry.name(), new EvictionWatch(host, new SpotSettings(entry.spot() ? SpotSettings.Spot.TRUE
                    : SpotSettings.Spot.FALSE, spot.endpoint(), spot.eventsEnabled(), spot.acknowledge(),
                    entry.vmName())));
            containers.put(entry.name(), new ContainerLaunch(host, containerSettings));
        }
        this.fanOut = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "gantry-manual-ssh");
            t.setDaemon(true);
            return t;
        });
    }

    Map<String, SshHost> byName() {
        return hosts;
    }

    Collection<SshHost> hosts() {
        return hosts.values();
    }

    Optional<SshHost> find(String name) {
        return Optional.ofNullable(hosts.get(name));
    }

    SshHost host(String name) {
        return find(name).orElseThrow(() -> new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "the job's host "
                + name + " is no longer in the inventory; add it back to manage the job"));
    }

    long remoteCommands() {
        return hosts.values().stream().mapToLong(SshHost::commands).sum();
    }

    /** The host's inventory entry: its labels, size and whether it is a Spot VM. */
    Inventory.InventoryHost entry(SshHost host) {
        return entries.get(host.name());
    }

    /** How jobs on this host run their container images. */
    ContainerLaunch containers(SshHost host) {
        return containers.get(host.name());
    }

    /** The host's Spot eviction watch (Scheduled Events). */
    EvictionWatch watch(SshHost host) {
        return watches.get(host.name());
    }

    /**
     * Scans every host at once: one remote command per host, which on a host watched for evictions also asks its
     * Scheduled Events.
     */
    Map<String, Scan> scanAll() {
        Map<String, Future<Scan>> futures = new LinkedHashMap<>();
        for (SshHost host : hosts.values()) {
            EvictionWatch watch = watches.get(host.name());
            futures.put(host.name(), fanOut.submit(() -> {
                List<MetadataQuery.Request> requests = watch.watching() ? watch.requests() : List.of();
                try {
                    String output = HostScan.read(host, requests);
                    Optional<EvictionWatch.Check> events = requests.isEmpty() ? Optional.empty()
                            : Optional.of(watch.read(MetadataQuery.answers(output)));
                    return new Scan(HostScan.parse(output), Optional.empty(), events);
                } catch (GantryException e) {
                    return new Scan(Map.of(), Optional.of(e.getMessage()));
                }
            }));
        }
        Map<String, Scan> scans = new LinkedHashMap<>();
        futures.forEach((name, future) -> scans.put(name, unwrap(future)));
        return scans;
    }

    /** Runs the action on every item at once and waits for all of them. */
    <T> void parallel(List<T> items, Consumer<T> action) {
        List<Future<?>> futures = new ArrayList<>();
        for (T item : items) {
            futures.add(fanOut.submit(() -> action.accept(item)));
        }
        futures.forEach(SshFleet::unwrap);
    }

    <T> Future<T> submit(Callable<T> task) {
        return fanOut.submit(task);
    }

    static JobDirectory directory(SshHost host, String id) {
        return new JobDirectory(host, host.workDir() + "/" + id);
    }

    static <T> T unwrap(Future<T> future) {
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
        pool.close();
    }
}
