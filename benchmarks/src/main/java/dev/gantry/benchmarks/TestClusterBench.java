package dev.gantry.benchmarks;

import dev.gantry.api.Architecture;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.SecretRef;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.SecretResolver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * What the benchmarks against the test cluster of scripts/test-cluster.sh share: its summary, the login node's
 * settings, the scheduler's commands behind counting wrappers, and the measured status polls.
 */
final class TestClusterBench {
    private static final Path CLUSTER = Path.of("/var/lib/gantry-test-cluster/cluster.env");

    private TestClusterBench() {
    }

    /**
     * One benchmark run's place on the cluster's shared directory: its own work directory, the scheduler's commands
     * behind wrappers (the {@code counted} one counting its runs in {@code counter}), owned by the login user.
     *
     * @param env the cluster's summary
     * @param id the run's name, unique to it
     */
    record Run(Map<String, String> env, String id, Path root, Path bin, Path counter) {
        static Run start(List<String> commands, String counted) throws IOException {
            Map<String, String> env = clusterEnv();
            String id = "bench-" + UUID.randomUUID().toString().substring(0, 8);
            Path root = Path.of(env.get("SHARED_DIR"), id);
            Path counter = root.resolve(counted + "-calls");
            wrappers(root.resolve("bin"), commands, counted, counter);
            chown(root, env.get("LOGIN_USER"));
            return new Run(env, id, root, root.resolve("bin"), counter);
        }

        String user() {
            return env.get("LOGIN_USER");
        }

        /** The backend's settings for the login node, with this run's work directory and commands. */
        Map<String, String> settings() {
            return loginSettings(env, root, bin);
        }
    }

    /** The one-node plan every benchmark job is: {@code true} on a small CPU size. */
    static Plan plan() {
        return plan("true");
    }

    /** A one-node plan of the benchmark's size with this command. */
    static Plan plan(String... command) {
        return Plan.builder(Workload.builder("bench-submit").phase(Phase.TRAINING).model(ModelClass.SMALL)
                .command(command).build(), new VmSize("bench", "bench", 1, 0.5, Optional.empty(), false,
                Architecture.X64, Set.of("V2"))).build();
    }

    /** The backend's settings for the cluster's login node, its work directory and commands under {@code root}. */
    static Map<String, String> loginSettings(Map<String, String> env, Path root, Path bin) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("address", env.get("LOGIN_ADDRESS"));
        config.put("port", env.get("LOGIN_PORT"));
        config.put("user", env.get("LOGIN_USER"));
        config.put("identityFile", env.get("LOGIN_IDENTITY"));
        config.put("hostKeyFingerprint", env.get("LOGIN_FINGERPRINT"));
        config.put("workDir", root + "/jobs");
        config.put("binDir", bin.toString());
        return config;
    }

    static BackendContext context(Path root) {
        return new BackendContext() {
            @Override
            public Path stateDirectory() {
                return root;
            }

            @Override
            public SecretResolver secrets() {
                return (SecretRef ref) -> {
                    throw new IllegalStateException("the benchmark uses no secrets");
                };
            }
        };
    }

    /** The scheduler's commands reached through wrappers in {@code bin}; the {@code counted} one counts its runs. */
    static void wrappers(Path bin, List<String> commands, String counted, Path counter) throws IOException {
        Files.createDirectories(bin);
        for (String command : commands) {
            String real = exec(List.of("sh", "-c", "command -v " + command)).strip();
            String count = command.equals(counted) ? "echo >>'" + counter + "'\n" : "";
            Path wrapper = bin.resolve(command);
            Files.writeString(wrapper, "#!/bin/sh\n" + count + "exec '" + real + "' \"$@\"\n");
            Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Files.writeString(counter, "");
        Files.setPosixFilePermissions(counter, PosixFilePermissions.fromString("rw-rw-rw-"));
    }

    /**
     * {@code polls} status polls of {@code refs}, measured: the most remote commands and counted scheduler runs one
     * poll took, and the median and p90 latency, printed on one line.
     */
    /**
     * The issue's targets, judged from one run's figures: {@code submitAll} at least 0.7 of the local loop (by the
     * median of the rounds), and one remote command and one scheduler command per status poll, whatever the number
     * of jobs tracked. Printed, not asserted: the submission figures move with the machine's load.
     */
    static final class Targets {
        private static final double SUBMIT_RATIO = 0.7;
        private final List<Double> ratios = new ArrayList<>();
        private final List<long[]> polls = new ArrayList<>();
        private final String fanOut;

        /** @param fanOut what the measured fan-out submits, for the target's line */
        Targets(String fanOut) {
            this.fanOut = fanOut;
        }

        void round(double submitAllRatio) {
            ratios.add(submitAllRatio);
        }

        void poll(long remoteCommands, long schedulerRuns) {
            polls.add(new long[] {remoteCommands, schedulerRuns});
        }

        void print(String loop, String scheduler) {
            List<Double> sorted = ratios.stream().sorted().toList();
            double median = sorted.get(sorted.size() / 2);
            System.out.printf(Locale.ROOT, "target: %s at least %.2f of the %s: rounds %s, median %.2f: %s%n",
                    fanOut, SUBMIT_RATIO, loop, String.join(" ", ratios.stream().map(r -> String.format(Locale.ROOT,
                            "%.2f", r)).toList()), median, median >= SUBMIT_RATIO ? "met" : "NOT met");
            boolean one = polls.stream().allMatch(p -> p[0] == 1 && p[1] == 1);
            System.out.printf(Locale.ROOT, "target: 1 remote command and 1 %s per status poll at 1 and 1,000 jobs: "
                    + "%s: %s%n", scheduler, String.join(", ", polls.stream().map(p -> p[0] + " and " + p[1])
                    .toList()), one ? "met" : "NOT met");
        }
    }

    static void measurePolls(Backend backend, List<JobRef> refs, int polls, Path counter, String scheduler,
                             Targets targets, WorkCheck check) throws IOException {
        backend.statuses(refs); // warm
        long[] nanos = new long[polls];
        long commands = 0;
        long runs = 0;
        long fewestPending = refs.size();
        for (int p = 0; p < polls; p++) {
            long before = backend.remoteCalls().orElse(-1);
            long runsBefore = lines(counter);
            long t = System.nanoTime();
            Map<JobRef, JobStatus> answer = backend.statuses(refs);
            nanos[p] = System.nanoTime() - t;
            fewestPending = Math.min(fewestPending, refs.stream().map(answer::get)
                    .filter(status -> status != null && status.state() == JobState.PENDING).count());
            commands = Math.max(commands, backend.remoteCalls().orElse(-1) - before);
            runs = Math.max(runs, lines(counter) - runsBefore);
        }
        Arrays.sort(nanos);
        System.out.printf(Locale.ROOT, "status poll of %4d jobs: %d remote command(s), %d %s run(s) per poll (most "
                        + "seen), median %.1f ms, p90 %.1f ms%n", refs.size(), commands, runs, scheduler,
                nanos[polls / 2] / 1e6, nanos[(int) (polls * 0.9)] / 1e6);
        targets.poll(commands, runs);
        // Every tracked job is held pending: a poll that did not answer so for each of them measured less.
        check.count("status poll of " + refs.size() + " held jobs: jobs it answered PENDING for (fewest of "
                + polls + " polls)", refs.size(), fewestPending);
    }

    /**
     * One Gantry job directory per scheduler id ({@code ids}, one a line), each with its id recorded in
     * {@code idFile} as the submit records it, owned by the login user: the jobs a poll tracks.
     */
    static List<JobRef> jobDirectories(Path jobs, String run, String ids, String idFile, String user)
            throws IOException {
        List<String> numbers = ids.lines().map(String::strip).filter(s -> !s.isEmpty()).toList();
        List<JobRef> refs = new ArrayList<>();
        for (int i = 0; i < numbers.size(); i++) {
            String id = "job-" + run + "-poll" + numbers.size() + "-" + i;
            Path dir = Files.createDirectories(jobs.resolve(id));
            Files.writeString(dir.resolve(idFile), numbers.get(i) + "\n");
            refs.add(new JobRef("cyclecloud", id));
        }
        chown(jobs, user);
        return refs;
    }

    static long lines(Path file) throws IOException {
        return Files.readAllLines(file).size();
    }

    static Map<String, String> clusterEnv() throws IOException {
        if (!Files.isReadable(CLUSTER)) {
            throw new IllegalStateException(CLUSTER + " is missing: run scripts/test-cluster.sh up first");
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (String line : Files.readAllLines(CLUSTER)) {
            int eq = line.indexOf('=');
            if (!line.startsWith("#") && eq > 0) {
                env.put(line.substring(0, eq), line.substring(eq + 1).replace("\"", ""));
            }
        }
        return env;
    }

    static void chown(Path path, String user) throws IOException {
        exec(List.of("chown", "-R", user + ":", path.toString()));
    }

    static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }

    static String exec(List<String> argv) throws IOException {
        try {
            Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
            process.getOutputStream().close();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
                throw new IOException(String.join(" ", argv) + " failed: " + out);
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
