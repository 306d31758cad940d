package dev.gantry.backend.manual.internal;

import static dev.gantry.backend.manual.internal.SshJobs.await;
import static dev.gantry.backend.manual.internal.SshJobs.awaitRunning;
import static dev.gantry.backend.manual.internal.SshJobs.plan;
import static dev.gantry.backend.manual.internal.SshJobs.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.backend.manual.ManualBackendProvider;
import dev.gantry.backend.manual.internal.transport.FleetHost;
import dev.gantry.hosts.events.FakeMetadataService;
import dev.gantry.hosts.jobs.HostScan;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Spot hosts over SSH: each host asks its (fake) metadata service for Scheduled Events in the same command as its
 * status scan, and a Preempt event for one host's VM evicts what runs there. The fake listens on the test bridge
 * and tells the hosts apart by their addresses, as each VM's own metadata service would.
 */
class SshScheduledEventsTest {
    private final SshCase cases = new SshCase(new SshHosts());
    private final SshHosts hosts = cases.hosts();
    private final FakeMetadataService imds;

    SshScheduledEventsTest() throws Exception {
        imds = new FakeMetadataService("unnamed", InetAddress.getByName("10.200.0.1"));
        imds.vmNameOf(hosts.host(1).address(), "spot-vm-1");
        imds.vmNameOf(hosts.host(2).address(), "spot-vm-2");
    }

    private ManualBackend backend(Map<String, String> extra) {
        Map<String, String> config = new java.util.TreeMap<>(Map.of("defaults.spot", "true",
                "scheduledEvents.endpoint", imds.eventsUrl(), "cancelGrace", "2s"));
        config.putAll(extra);
        return cases.backend(config);
    }

    @AfterEach
    void cleanUp() throws Exception {
        try {
            cases.close();
        } finally {
            imds.close();
        }
    }

    @Test
    void aPollAsksEachSpotHostsEventsInTheSameCommandAsItsScan() throws Exception {
        ManualBackend backend = backend(Map.of());
        JobRef job = cases.submit(backend, plan(workload("poll").command("sleep", "60"), 2, 0));
        awaitRunning(backend, job);
        long commands = backend.remoteCalls().getAsLong();
        long queries = imds.eventQueries();
        assertEquals(JobState.RUNNING, backend.status(job).state());
        assertEquals(2, backend.remoteCalls().getAsLong() - commands, "one command per host, events included");
        assertEquals(2, imds.eventQueries() - queries, "each host asked for its Scheduled Events");
    }

    @Test
    void aPreemptEventEvictsTheRanksOnThatVmAndStopsTheOthers() throws Exception {
        ManualBackend backend = backend(Map.of());
        JobRef job = cases.submit(backend, plan(workload("evicted").command("sh", "-c",
                "trap 'echo checkpointing; exit 0' TERM; while :; do sleep 0.1; done"), 2, 0));
        awaitRunning(backend, job);
        String rank1Host = backend.scanAll().entrySet().stream()
                .filter(e -> e.getValue().entries().get(job.id()).placement().orElseThrow().rank() == 1)
                .map(Map.Entry::getKey).findFirst().orElseThrow();
        String vm = rank1Host.equals("gantry-h1") ? "spot-vm-1" : "spot-vm-2";
        imds.injectPreempt(vm);

        JobStatus status = await(backend, job, s -> s.state().isTerminal(), Duration.ofSeconds(20));
        assertEquals(JobState.PREEMPTED, status.state(), status.toString());
        assertTrue(status.message().startsWith("rank 1 on " + rank1Host + ": "), status.message());
        assertTrue(status.message().contains("Preempt"), status.message());
        Map<String, FleetHost.Scan> scans = backend.scanAll();
        scans.forEach((host, scan) -> {
            HostScan.Entry entry = scan.entries().get(job.id());
            boolean evicted = host.equals(rank1Host);
            assertEquals(evicted, entry.snapshot().preempted().isPresent(), host + " " + entry);
            assertEquals(!evicted, entry.snapshot().cancelled(), "the other rank was stopped: " + host);
            assertTrue(!entry.snapshot().alive(), host + " still runs the job");
        });
    }

    @Test
    void unreadableEventsAreSaidBesideTheStatusWithoutFailingThePoll() throws Exception {
        ManualBackend backend = backend(Map.of("scheduledEvents.endpoint",
                "http://10.200.0.1:9/metadata/scheduledevents?api-version=2020-07-01"));
        JobRef job = cases.submit(backend, plan(workload("no-imds").command("sleep", "60"), 1, 0));
        JobStatus status = awaitRunning(backend, job);
        assertTrue(status.message().contains("could not read http://10.200.0.1:9/metadata/instance/compute/name"),
                status.message());
    }

    @Test
    void theLocalTransportsSpotKeysAreRefusedNamingThePerHostOnes() {
        for (String key : List.of("spot", "vmName")) {
            Map<String, String> config = new java.util.TreeMap<>(hosts.config(Map.of()));
            config.put(key, key.equals("spot") ? "true" : "vm-1");
            GantryException e = assertThrows(GantryException.class, () -> new ManualBackendProvider()
                    .create(new BackendConfig("manual", config), cases.context()));
            assertEquals(ErrorCode.CONFIG_INVALID, e.code());
            assertTrue(e.getMessage().startsWith("backends.manual." + key + ": applies to transport local; with "
                    + "transport ssh each host says whether it is a Spot VM (hosts[*].spot or defaults.spot)"),
                    e.getMessage());
        }
    }
}
