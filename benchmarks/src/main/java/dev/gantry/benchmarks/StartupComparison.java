package dev.gantry.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code gantry} command's start-up against a bare {@code java -version} of the same JDK, in one run, alternating
 * every command so that machine noise hits them all alike: {@code gantry --help} and {@code gantry --version}
 * (target: within 2x) and {@code gantry plan SPEC} on the embedded catalog (target: within 3x), for each launcher
 * given, typically the checkout's {@code ./gantry} and an unpacked distribution's {@code bin/gantry}. Each launcher
 * runs once first, unmeasured, so that it makes its start-up archive. Every run gets the same empty home. Usage, from
 * the repository root after a build:
 *
 * <pre>
 * java -cp "benchmarks/target/classes:$(cat benchmarks/target/benchmarks.classpath)" \
 *     dev.gantry.benchmarks.StartupComparison 15 examples/quickstart.yaml ./gantry /tmp/gantry-0.1.0/bin/gantry
 * </pre>
 */
public final class StartupComparison {
    private static final double HELP_TARGET = 2.0;
    private static final double PLAN_TARGET = 3.0;

    private StartupComparison() {
    }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        String spec = args.length > 1 ? args[1] : "examples/quickstart.yaml";
        List<String> launchers = args.length > 2 ? List.of(args).subList(2, args.length) : List.of("./gantry");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path home = Files.createTempDirectory("gantry-startup");
        Map<String, List<String>> commands = new LinkedHashMap<>();
        commands.put("java -version", List.of(java, "-version"));
        for (String launcher : launchers) {
            commands.put(launcher + " --help", List.of(launcher, "--help"));
            time(List.of(launcher, "plan", spec), home); // makes the launcher's start-up archive; not measured
            // A build from before --version existed is measured with its version command.
            String version = exitCode(List.of(launcher, "--version"), home) == 0 ? "--version" : "version";
            commands.put(launcher + " " + version, List.of(launcher, version));
            commands.put(launcher + " plan", List.of(launcher, "plan", spec));
        }
        StartupArchives.await(home);
        Map<String, long[]> times = new LinkedHashMap<>();
        commands.keySet().forEach(name -> times.put(name, new long[runs]));
        for (int i = 0; i < runs; i++) {
            for (Map.Entry<String, List<String>> command : commands.entrySet()) {
                times.get(command.getKey())[i] = time(command.getValue(), home);
            }
        }
        double bare = median(times.get("java -version")) / 1e6;
        System.out.printf(Locale.ROOT, "runs: %d each, alternating; java: %s (%s)%n", runs,
                System.getProperty("java.version"), java);
        System.out.printf(Locale.ROOT, "%-60s %9s %9s %7s %7s %s%n", "command", "median", "min", "ratio", "target",
                "met");
        List<String> unmet = new ArrayList<>();
        for (Map.Entry<String, long[]> entry : times.entrySet()) {
            double median = median(entry.getValue()) / 1e6;
            double ratio = median / bare;
            boolean isBare = entry.getKey().equals("java -version");
            double target = entry.getKey().endsWith(" plan") ? PLAN_TARGET : HELP_TARGET;
            boolean met = ratio <= target;
            if (!isBare && !met) {
                unmet.add(entry.getKey());
            }
            System.out.printf(Locale.ROOT, "%-60s %6.1f ms %6.1f ms %6.2fx %7s %s%n", entry.getKey(), median,
                    min(entry.getValue()) / 1e6, ratio, isBare ? "" : "<= " + target + "x",
                    isBare ? "" : met ? "yes" : "NO");
        }
        System.out.println(unmet.isEmpty() ? "all start-up targets met" : "targets not met: " + unmet);
    }

    static long time(List<String> command, Path home) throws IOException, InterruptedException {
        return time(command, home, Map.of());
    }

    /** One run's wall time, in a given home, with {@code env} added to the environment; a failed run throws. */
    static long time(List<String> command, Path home, Map<String, String> env)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("HOME", home.toString());
        builder.environment().putAll(env);
        builder.environment().put("GANTRY_STATE_DIR", home.resolve("state").toString());
        long start = System.nanoTime();
        Process process = builder.start();
        int code = process.waitFor();
        long took = System.nanoTime() - start;
        if (code != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited " + code);
        }
        return took;
    }

    private static int exitCode(List<String> command, Path home) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("HOME", home.toString());
        return builder.start().waitFor();
    }

    static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }

    private static long min(long[] values) {
        return Arrays.stream(values).min().orElse(0);
    }
}
