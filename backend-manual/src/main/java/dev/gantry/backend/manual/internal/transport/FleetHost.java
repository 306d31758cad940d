package dev.gantry.backend.manual.internal.transport;

import dev.gantry.api.GantryException;
import dev.gantry.api.backend.JobState;
import dev.gantry.hosts.Host;
import dev.gantry.hosts.container.ContainerLaunch;
import dev.gantry.hosts.events.EvictionWatch;
import dev.gantry.hosts.events.MetadataQuery;
import dev.gantry.hosts.jobs.HostScan;
import dev.gantry.hosts.jobs.JobDirectory;
import dev.gantry.hosts.jobs.StatusMapping;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One machine of the fleet with what the backend keeps about it: where its job directories are, the address other
 * ranks reach it at, whether it is a Spot VM (and its eviction watch), how its jobs run containers.
 *
 * @param host the machine: this one, or an SSH host
 * @param workDir the directory on it that holds one directory per job
 * @param address the address rank 0 listens on when this host is a job's master
 * @param defaultWorkingDirectory where a job without {@code workingDir} starts; empty: the login's home directory
 * @param remote whether it is reached over the network, where each command is a round trip
 * @param watch its Azure Scheduled Events, and whether it is a Spot VM at all ({@link #spot()})
 * @param containers how its jobs run container images
 */
public record FleetHost(Host host, String workDir, String address, Optional<String> defaultWorkingDirectory,
                        boolean remote, EvictionWatch watch, ContainerLaunch containers) {
    public FleetHost {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(workDir, "workDir");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(defaultWorkingDirectory, "defaultWorkingDirectory");
        Objects.requireNonNull(watch, "watch");
        Objects.requireNonNull(containers, "containers");
    }

    /**
     * One host's job directories, or why it could not be read; and, for a host watched for Spot evictions, what its
     * Scheduled Events said.
     */
    public record Scan(Map<String, HostScan.Entry> entries, Optional<String> error,
                       Optional<EvictionWatch.Check> events, Optional<Boolean> claimed) {
        public Scan(Map<String, HostScan.Entry> entries, Optional<String> error) {
            this(entries, error, Optional.empty(), Optional.empty());
        }

        public Optional<dev.gantry.hosts.events.ScheduledEvent> preemption() {
            return events.flatMap(EvictionWatch.Check::preemption);
        }
    }

    public String name() {
        return host.name();
    }

    /** Whether it is a Spot VM: a job that vanished there without an exit code was evicted, not failed. */
    public boolean spot() {
        return watch.spotHost();
    }

    public JobDirectory directory(String id) {
        return new JobDirectory(host, workDir + "/" + id);
    }

    /**
     * Reads every job directory in one command. A remote host's Scheduled Events ride in the same command (a round
     * trip costs more than the query); this machine asks them in a second command, only while one of its jobs runs.
     * For a submit of job {@code submitted} the scan reports that job whole and, of the others, those that have not
     * ended (placement counts them), and takes the job's claim in the same command when {@code claim} is given
     * ({@link HostScan#read}).
     *
     * @param events whether to ask the Scheduled Events at all (a scan right after an eviction or for a submit need
     *     not)
     */
    public Scan scan(boolean events, Optional<String> claim, Optional<String> submitted) {
        boolean watching = events && watch.watching();
        boolean together = watching && remote;
        List<MetadataQuery.Request> requests = together ? watch.requests() : List.of();
        try {
            String output = HostScan.read(host, workDir, requests, claim, submitted);
            Map<String, HostScan.Entry> entries = HostScan.parse(output);
            Optional<EvictionWatch.Check> check = Optional.empty();
            if (together) {
                check = Optional.of(watch.read(MetadataQuery.answers(output)));
            } else if (watching && entries.values().stream()
                    .anyMatch(e -> StatusMapping.map(e.snapshot(), spot()).state() == JobState.RUNNING)) {
                check = Optional.of(watch.check());
            }
            return new Scan(entries, Optional.empty(), check, HostScan.claimed(output));
        } catch (GantryException e) {
            return new Scan(Map.of(), Optional.of(e.getMessage()));
        }
    }
}
