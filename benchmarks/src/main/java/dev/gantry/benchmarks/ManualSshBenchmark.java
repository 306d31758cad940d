package dev.gantry.benchmarks;

import com.sun.net.httpserver.HttpServer;
import dev.gantry.api.Architecture;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.SecretRef;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.SecretResolver;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.manual.ManualBackendProvider;
import dev.gantry.ssh.ClientIdentity;
import dev.gantry.ssh.HostKeyPolicy;
import dev.gantry.ssh.RemoteResult;
import dev.gantry.ssh.SshPool;
import dev.gantry.ssh.SshTarget;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The manual backend over SSH against the test hosts of scripts/test-hosts.sh: the cost of one status poll of 1,000
 * jobs spread over 2 hosts (remote commands and latency), the same on Spot hosts whose scan also asks their Scheduled
 * Events (from a metadata service stand-in on the test bridge), submit latency over a warm session against a cold
 * one (a new process: connect, authenticate, probe the hosts once), and, in the same run, warm submits to a fleet of
 * the first host alone beside a raw command loop on a warm session to that host (the floor of a remote command).
 * Usage, as root from the repository root:
 *
 * <pre>
 * scripts/test-hosts.sh up 2
 * ./mvnw -o -q -B -pl benchmarks -am package -DskipTests
 * java -cp "benchmarks/target/classes:$(cat benchmarks/target/benchmarks.classpath)" \
 *     dev.gantry.benchmarks.ManualSshBenchmark 1000 20
 * </pre>
 */
public final class ManualSshBenchmark {
    /** Makes N finished job directories and RUNNING ones whose process names its directory, as the wrapper's does. */
    private static final String SEED = """
            dir=$1 n=$2 running=$3
            mkdir -p "$dir"
            i=0
            while [ "$i" -lt "$n" ]; do
              d="$dir/job-bench-$4-$i"
              mkdir -p "$d"
              echo 2026-01-01T00:00:00Z > "$d/started"
              echo "rank=0 hosts=$5 gpus= vcpus=0 memoryGib=0.000" > "$d/placement"
              if [ "$i" -lt "$running" ]; then
                setsid sh -c 'sleep 600' gantry-job "$d" </dev/null >/dev/null 2>&1 &
                echo $! > "$d/pid"
              else
                echo 1 > "$d/pid"; echo 2026-01-01T00:00:01Z > "$d/ended"; echo $((i % 3)) > "$d/exit"
              fi
              i=$((i + 1))
            done
            """;

    private ManualSshBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int jobs = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int polls = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        List<String[]> hosts = Files.readAllLines(Path.of("/var/lib/gantry-test-hosts/hosts")).stream()
                .filter(l -> !l.startsWith("#") && !l.isBlank()).map(l -> l.split("\t")).limit(2).toList();
        if (hosts.size() < 2) {
            throw new IllegalStateException("run scripts/test-hosts.sh up 2 (as root) first");
        }
        String root = "/tmp/gantry-bench-" + UUID.randomUUID();
        Map<String, String> config = new TreeMap<>();
        config.put("transport", "ssh");
        config.put("defaults.user", hosts.get(0)[3]);
        config.put("defaults.identityFile", hosts.get(0)[4]);
        for (int i = 0; i < hosts.size(); i++) {
            config.put("hosts[" + i + "].name", hosts.get(i)[0]);
            config.put("hosts[" + i + "].address", hosts.get(i)[1]);
            config.put("hosts[" + i + "].hostKeyFingerprint", hosts.get(i)[5]);
            config.put("hosts[" + i + "].workDir", root + "/" + hosts.get(i)[0]);
        }
        BackendContext context = new BackendContext() {
            @Override
            public Path stateDirectory() {
                return Path.of(root);
            }

            @Override
            public SecretResolver secrets() {
                return (SecretRef ref) -> {
                    throw new IllegalStateException("the benchmark uses no secrets");
                };
            }
        };
        BackendConfig backendConfig = new BackendConfig("manual", config);
        List<JobRef> refs = new ArrayList<>();
        int running = 5;
        try (SshPool pool = new SshPool()) {
            for (String[] h : hosts) {
                SshTarget target = SshTarget.of(h[1], Integer.parseInt(h[2]), h[3],
                        ClientIdentity.keyFile(Path.of(h[4])), HostKeyPolicy.pinned(h[5]));
                RemoteResult seeded = pool.exec(target, List.of("sh", "-c", SEED, "seed", root + "/" + h[0],
                        String.valueOf(jobs / hosts.size()), String.valueOf(running), h[0], h[0]),
                        Duration.ofMinutes(2));
                if (!seeded.succeeded()) {
                    throw new IllegalStateException("seeding " + h[0] + " failed: " + seeded.stderrText());
                }
                for (int i = 0; i < jobs / hosts.size(); i++) {
                    refs.add(new JobRef("manual", "job-bench-" + h[0] + "-" + i));
                }
            }
        }
        try (Backend backend = new ManualBackendProvider().create(backendConfig, context)) {
            backend.statuses(refs); // connects; not measured
            long[] nanos = new long[polls];
            long commands = 0;
            Map<JobState, Integer> states = new EnumMap<>(JobState.class);
            for (int i = 0; i < polls; i++) {
                long before = remoteCalls(backend);
                long start = System.nanoTime();
                Map<JobRef, JobStatus> statuses = backend.statuses(refs);
                nanos[i] = System.nanoTime() - start;
                commands = Math.max(commands, remoteCalls(backend) - before);
                states.clear();
                statuses.values().forEach(s -> states.merge(s.state(), 1, Integer::sum));
            }
            System.out.printf(Locale.ROOT, "status of %d jobs on %d hosts: %d remote commands per poll; "
                    + "poll latency median %.1f ms, p90 %.1f ms over %d polls; states %s%n", refs.size(), hosts.size(),
                    commands, median(nanos), percentile(nanos, 0.9), polls, states);
            spotPolls(config, context, refs, polls);

            Plan plan = Plan.builder(Workload.builder("bench-submit").phase(Phase.TRAINING).model(ModelClass.SMALL)
                    .command("true").build(), new VmSize("bench", "bench", 1, 0.5, Optional.empty(), false,
                    Architecture.X64, Set.of("V2"))).build();
            int submits = 10;
            // The first submit probes each host once (its capacity): a warm session has done that already.
            backend.submit(plan, SubmitOptions.withKey("warm-up-" + UUID.randomUUID()));
            Submits twoHosts = warmSubmits(backend, plan, submits, "warm-");
            long[] warm = twoHosts.nanos();
            long submitCommands = twoHosts.maxCommands();
            long[] cold = new long[submits];
            for (int i = 0; i < submits; i++) {
                long start = System.nanoTime();
                try (Backend fresh = new ManualBackendProvider().create(backendConfig, context)) {
                    fresh.submit(plan, SubmitOptions.withKey("cold-" + UUID.randomUUID()));
                }
                cold[i] = System.nanoTime() - start;
            }
            System.out.printf(Locale.ROOT, "submit (1 node, %d jobs already there): warm session median %.1f ms "
                    + "(at most %d remote commands), cold (new sessions + one probe per host) median %.1f ms over %d "
                    + "submits each%n", refs.size(), median(warm), submitCommands, median(cold), submits);
            oneHostSubmits(config, context, plan, submits, rawCommands(hosts.get(0), submits * 2), median(warm));
        } finally {
            try (SshPool pool = new SshPool()) {
                String[] h = hosts.get(0);
                SshTarget target = SshTarget.of(h[1], Integer.parseInt(h[2]), h[3],
                        ClientIdentity.keyFile(Path.of(h[4])), HostKeyPolicy.pinned(h[5]));
                // The seeded sleepers name their directories; end them, then remove what the run wrote.
                pool.exec(target, List.of("sh", "-c", "for p in \"$1\"/*/job-*/pid; do read -r x < \"$p\"; "
                        + "[ \"$x\" -gt 1 ] && kill -- \"-$x\"; done; rm -rf -- \"$1\"", "clean", root),
                        Duration.ofMinutes(1));
            }
        }
    }

    /** Each submit's latency, and the most remote commands one of them ran. */
    private record Submits(long[] nanos, long maxCommands) {
    }

    /** Submits of one-node jobs with fresh keys, one after another over the backend's warm sessions. */
    private static Submits warmSubmits(Backend backend, Plan plan, int count, String keyPrefix) {
        long[] nanos = new long[count];
        long commands = 0;
        for (int i = 0; i < count; i++) {
            long before = remoteCalls(backend);
            long start = System.nanoTime();
            backend.submit(plan, SubmitOptions.withKey(keyPrefix + UUID.randomUUID()));
            nanos[i] = System.nanoTime() - start;
            commands = Math.max(commands, remoteCalls(backend) - before);
        }
        return new Submits(nanos, commands);
    }

    /**
     * One short command ({@code true}) at a time over a warm pooled session to the first host: the floor a submit
     * of N remote commands is measured against. Returns the median in milliseconds.
     */
    private static double rawCommands(String[] h, int count) {
        SshTarget target = SshTarget.of(h[1], Integer.parseInt(h[2]), h[3], ClientIdentity.keyFile(Path.of(h[4])),
                HostKeyPolicy.pinned(h[5]));
        try (SshPool pool = new SshPool()) {
            pool.exec(target, List.of("true"), Duration.ofSeconds(30)); // connects; not measured
            long[] nanos = new long[count];
            for (int i = 0; i < count; i++) {
                long start = System.nanoTime();
                RemoteResult r = pool.exec(target, List.of("true"), Duration.ofSeconds(30));
                nanos[i] = System.nanoTime() - start;
                if (!r.succeeded()) {
                    throw new IllegalStateException("true failed on " + h[0] + ": " + r.stderrText());
                }
            }
            double raw = median(nanos);
            System.out.printf(Locale.ROOT, "raw command on a warm session to %s: median %.1f ms over %d commands%n",
                    h[0], raw, count);
            return raw;
        }
    }

    /**
     * Warm single-node submits to a fleet of the first host alone (its 500 seeded jobs there), beside the raw
     * command loop of the same run: the submit's cost in remote commands and against their floor.
     */
    private static void oneHostSubmits(Map<String, String> config, BackendContext context, Plan plan, int submits,
                                       double raw, double twoHostWarm) {
        Map<String, String> one = new TreeMap<>();
        config.forEach((key, value) -> {
            if (!key.startsWith("hosts[1]")) {
                one.put(key, value);
            }
        });
        try (Backend backend = new ManualBackendProvider().create(new BackendConfig("manual", one), context)) {
            backend.submit(plan, SubmitOptions.withKey("one-host-warmup-" + UUID.randomUUID())); // connects, probes
            Submits oneHost = warmSubmits(backend, plan, submits, "one-host-");
            System.out.printf(Locale.ROOT, "submit (1 node) to a fleet of 1 host: warm median %.1f ms (at most %d "
                    + "remote commands) = %.1fx the raw command; to the fleet of 2 hosts: %.1fx%n",
                    median(oneHost.nanos()), oneHost.maxCommands(), median(oneHost.nanos()) / raw, twoHostWarm / raw);
        }
    }

    /**
     * The same polls with both hosts marked as Spot VMs: each host's scan also asks its Scheduled Events, from a
     * stand-in metadata service on the test bridge (no events pending), so a poll still costs one command per host.
     */
    private static void spotPolls(Map<String, String> config, BackendContext context, List<JobRef> refs, int polls)
            throws Exception {
        HttpServer imds = HttpServer.create(new InetSocketAddress(InetAddress.getByName("10.200.0.1"), 0), 0);
        imds.createContext("/metadata/", exchange -> {
            byte[] body = (exchange.getRequestURI().getPath().endsWith("/compute/name") ? "bench-vm"
                    : "{\"DocumentIncarnation\": 1, \"Events\": []}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (var out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        imds.start();
        Map<String, String> spot = new TreeMap<>(config);
        spot.put("defaults.spot", "true");
        spot.put("scheduledEvents.endpoint", "http://10.200.0.1:" + imds.getAddress().getPort()
                + "/metadata/scheduledevents?api-version=2020-07-01");
        try (Backend backend = new ManualBackendProvider().create(new BackendConfig("manual", spot),
                context)) {
            backend.statuses(refs); // connects and learns the VM names; not measured
            long[] nanos = new long[polls];
            long commands = 0;
            for (int i = 0; i < polls; i++) {
                long before = remoteCalls(backend);
                long start = System.nanoTime();
                backend.statuses(refs);
                nanos[i] = System.nanoTime() - start;
                commands = Math.max(commands, remoteCalls(backend) - before);
            }
            System.out.printf(Locale.ROOT, "status of %d jobs on 2 Spot hosts (Scheduled Events in the scan): %d "
                    + "remote commands per poll; poll latency median %.1f ms, p90 %.1f ms over %d polls%n",
                    refs.size(), commands, median(nanos), percentile(nanos, 0.9), polls);
        } finally {
            imds.stop(0);
        }
    }

    private static double median(long[] nanos) {
        return percentile(nanos, 0.5);
    }

    private static double percentile(long[] nanos, double p) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.min(sorted.length - 1, Math.round(p * (sorted.length - 1)))] / 1e6;
    }

    /** The backend's own count of remote commands, through the public SPI. */
    private static long remoteCalls(Backend backend) {
        return backend.remoteCalls().orElseThrow(() -> new IllegalStateException(
                "the manual backend over SSH counts its remote commands; this one does not"));
    }
}
