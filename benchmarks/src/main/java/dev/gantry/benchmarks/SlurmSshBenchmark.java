package dev.gantry.benchmarks;

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
import dev.gantry.api.backend.SecretResolver;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.api.backend.Submission;
import dev.gantry.backend.cyclecloud.CycleCloudBackendProvider;
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
 * The CycleCloud backend against the real Slurm test cluster of scripts/test-cluster.sh, in one run:
 * <ol>
 *   <li>submissions per second of a local {@code sbatch --wrap true} loop on the controller machine (the floor);</li>
 *   <li>the same number of one-node jobs through Gantry over one SSH connection to the login node, one
 *       {@code submit} each;</li>
 *   <li>the same through one {@code submitAll} (one remote command for all of them);</li>
 *   <li>remote commands and scheduler commands (squeue runs, counted by a wrapper Slurm's commands are reached
 *       through) per status poll while tracking 1 and 1,000 jobs, and the poll's latency.</li>
 * </ol>
 * Usage, as root from the repository root:
 *
 * <pre>
 * scripts/test-cluster.sh up
 * ./mvnw -o -q -B -pl benchmarks -am package -DskipTests
 * java -cp "benchmarks/target/classes:$(cat benchmarks/target/benchmarks.classpath)" \
 *     dev.gantry.benchmarks.SlurmSshBenchmark 200 20
 * </pre>
 */
public final class SlurmSshBenchmark {
    private static final Path CLUSTER = Path.of("/var/lib/gantry-test-cluster/cluster.env");
    private static final List<String> COMMANDS = List.of("sbatch", "squeue", "scancel", "scontrol", "sinfo", "srun");

    private SlurmSshBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int submits = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int polls = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        Map<String, String> env = clusterEnv();
        String shared = env.get("SHARED_DIR");
        String run = "bench-" + UUID.randomUUID().toString().substring(0, 8);
        Path root = Path.of(shared, run);
        Path bin = root.resolve("bin");
        Path counter = root.resolve("squeue-calls");
        Files.createDirectories(bin);
        wrappers(bin, counter);
        chown(root, env.get("LOGIN_USER"));

        Map<String, String> config = new LinkedHashMap<>();
        config.put("address", env.get("LOGIN_ADDRESS"));
        config.put("port", env.get("LOGIN_PORT"));
        config.put("user", env.get("LOGIN_USER"));
        config.put("identityFile", env.get("LOGIN_IDENTITY"));
        config.put("hostKeyFingerprint", env.get("LOGIN_FINGERPRINT"));
        config.put("workDir", root + "/jobs");
        config.put("binDir", bin.toString());
        BackendContext context = new BackendContext() {
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
        Plan plan = Plan.builder(Workload.builder("bench-submit").phase(Phase.TRAINING).model(ModelClass.SMALL)
                .command("true").build(), new VmSize("bench", "bench", 1, 0.5, Optional.empty(), false,
                Architecture.X64, Set.of("V2"))).build();
        System.out.printf(Locale.ROOT, "Slurm over SSH to %s:%s, %d submits, %d polls%n", env.get("LOGIN_ADDRESS"),
                env.get("LOGIN_PORT"), submits, polls);

        try (Backend backend = new CycleCloudBackendProvider().create(new BackendConfig("cyclecloud", config),
                context)) {
            backend.validate(plan); // connects and probes the cluster once; not measured
            // Submission alone is measured: the nodes are drained, so no job starts (and competes with sbatch for
            // the two CPUs and the controller) while any of the three is measured; each round's jobs are cancelled.
            exec(List.of("scontrol", "update", "nodename=" + env.get("SLURM_NODES").replace(' ', ','), "state=drain",
                    "reason=gantry-benchmark"));
            for (int round = 1; round <= 3; round++) {
                double local = localLoop(submits, env.get("LOGIN_USER"));
                cancelAll(env.get("LOGIN_USER"));
                long start = System.nanoTime();
                for (int i = 0; i < submits; i++) {
                    backend.submit(plan, SubmitOptions.withKey(run + "-r" + round + "-one-" + i));
                }
                double oneByOne = submits / seconds(start);
                cancelAll(env.get("LOGIN_USER"));
                List<Submission> batch = new ArrayList<>();
                for (int i = 0; i < submits; i++) {
                    batch.add(new Submission(plan, SubmitOptions.withKey(run + "-r" + round + "-all-" + i)));
                }
                start = System.nanoTime();
                backend.submitAll(batch);
                double all = submits / seconds(start);
                cancelAll(env.get("LOGIN_USER"));
                System.out.printf(Locale.ROOT, "round %d: local sbatch loop %6.1f/s | Gantry submit one by one "
                        + "%6.1f/s = %.2f | Gantry submitAll %6.1f/s = %.2f%n", round, local, oneByOne,
                        oneByOne / local, all, all / local);
            }
            drain();
            for (int tracked : List.of(1, 1000)) {
                List<JobRef> refs = seed(root.resolve("jobs"), run, tracked, env.get("LOGIN_USER"));
                backend.statuses(refs); // warm
                long[] nanos = new long[polls];
                long commands = 0;
                long squeues = 0;
                for (int p = 0; p < polls; p++) {
                    long before = backend.remoteCalls().orElse(-1);
                    long squeueBefore = lines(counter);
                    long t = System.nanoTime();
                    backend.statuses(refs);
                    nanos[p] = System.nanoTime() - t;
                    commands = Math.max(commands, backend.remoteCalls().orElse(-1) - before);
                    squeues = Math.max(squeues, lines(counter) - squeueBefore);
                }
                Arrays.sort(nanos);
                System.out.printf(Locale.ROOT, "status poll of %4d jobs: %d remote command(s), %d squeue run(s) per "
                                + "poll (most seen), median %.1f ms, p90 %.1f ms%n", tracked, commands, squeues,
                        nanos[polls / 2] / 1e6, nanos[(int) (polls * 0.9)] / 1e6);
                exec(List.of("scancel", "-u", env.get("LOGIN_USER"), "-n", "bench-held"));
            }
        } finally {
            exec(List.of("scancel", "-n", "bench-held"));
            exec(List.of("scontrol", "update", "nodename=" + env.get("SLURM_NODES").replace(' ', ','),
                    "state=resume"));
            exec(List.of("rm", "-rf", root.toString()));
        }
    }

    /** N sbatch calls in a shell loop on this machine (the controller), as the login user. */
    private static double localLoop(int n, String user) throws Exception {
        long start = System.nanoTime();
        // As the login user, as Gantry submits; stdin is not a terminal for either.
        exec(List.of("runuser", "-u", user, "--", "bash", "-c", "cd /tmp; for i in $(seq " + n + "); do sbatch "
                + "-Q -p hpc -o /dev/null --wrap true </dev/null >/dev/null || exit 1; done"));
        return n / seconds(start);
    }

    /**
     * {@code tracked} job directories whose Slurm ids are real jobs held pending ({@code sbatch -H}), so that squeue
     * lists every one of them.
     */
    private static List<JobRef> seed(Path jobs, String run, int tracked, String user) throws Exception {
        String ids = exec(List.of("runuser", "-u", user, "--", "bash", "-c", "for i in $(seq " + tracked + "); do "
                + "sbatch --parsable -H -J bench-held -p hpc -o /dev/null --wrap true || exit 1; done"));
        List<String> slurmIds = ids.lines().map(String::strip).filter(s -> !s.isEmpty()).toList();
        List<JobRef> refs = new ArrayList<>();
        for (int i = 0; i < slurmIds.size(); i++) {
            String id = "job-" + run + "-poll" + tracked + "-" + i;
            Path dir = Files.createDirectories(jobs.resolve(id));
            Files.writeString(dir.resolve("slurm-id"), slurmIds.get(i) + "\n");
            refs.add(new JobRef("cyclecloud", id));
        }
        chown(jobs, user);
        return refs;
    }

    /** Slurm's commands reached through wrappers; the squeue one counts its runs. */
    private static void wrappers(Path bin, Path counter) throws IOException {
        for (String command : COMMANDS) {
            String real = exec(List.of("sh", "-c", "command -v " + command)).strip();
            String count = command.equals("squeue") ? "echo >>'" + counter + "'\n" : "";
            Path wrapper = bin.resolve(command);
            Files.writeString(wrapper, "#!/bin/sh\n" + count + "exec '" + real + "' \"$@\"\n");
            Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Files.writeString(counter, "");
        Files.setPosixFilePermissions(counter, PosixFilePermissions.fromString("rw-rw-rw-"));
    }

    /** Cancels the user's jobs and waits until Slurm lists none pending. */
    private static void cancelAll(String user) throws Exception {
        exec(List.of("scancel", "-u", user));
        drain();
    }

    /** Waits until the queue is empty, so one measure's jobs do not slow the next. */
    private static void drain() throws Exception {
        for (int i = 0; i < 600; i++) {
            if (exec(List.of("squeue", "-h", "-t", "PD,R,CG,CF")).isBlank()) {
                return;
            }
            Thread.sleep(500);
        }
    }

    private static long lines(Path file) throws IOException {
        return Files.readAllLines(file).size();
    }

    private static Map<String, String> clusterEnv() throws IOException {
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

    private static void chown(Path path, String user) throws IOException {
        exec(List.of("chown", "-R", user + ":", path.toString()));
    }

    private static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }

    private static String exec(List<String> argv) throws IOException {
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
