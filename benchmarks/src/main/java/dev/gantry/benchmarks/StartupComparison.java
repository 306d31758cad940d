package dev.gantry.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code gantry plan} wall time from a cold JVM against a bare JVM start (a class with an empty main), in the same
 * run, alternating the two so that machine noise hits both. Target: within 3x. Usage, from the repository root
 * after {@code ./gantry version} has built the CLI:
 *
 * <pre>
 * java -cp "benchmarks/target/classes:$(cat benchmarks/target/benchmarks.classpath)" \
 *     dev.gantry.benchmarks.StartupComparison 20 examples/llm-finetune.yaml
 * </pre>
 */
public final class StartupComparison {
    private StartupComparison() {
    }

    /** The bare JVM: starts, runs nothing, exits. */
    public static final class Empty {
        public static void main(String[] args) {
        }
    }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        String spec = args.length > 1 ? args[1] : "examples/llm-finetune.yaml";
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("java.class.path");
        Path home = Files.createTempDirectory("gantry-startup");
        List<String> bare = List.of(java, "-cp", classPath, Empty.class.getName());
        List<String> plan = List.of("./gantry", "plan", spec, "--output", "json");
        time(plan, home); // first run after a build writes the class-data archive; not measured
        long[] bareTimes = new long[runs];
        long[] planTimes = new long[runs];
        for (int i = 0; i < runs; i++) {
            bareTimes[i] = time(bare, home);
            planTimes[i] = time(plan, home);
        }
        double bareMedian = median(bareTimes) / 1e6;
        double planMedian = median(planTimes) / 1e6;
        System.out.printf(Locale.ROOT, "runs: %d%nbare JVM start: median %.1f ms (min %.1f)%n"
                        + "gantry plan:    median %.1f ms (min %.1f)%nratio: %.2fx (target <= 3x)%n",
                runs, bareMedian, min(bareTimes) / 1e6, planMedian, min(planTimes) / 1e6, planMedian / bareMedian);
    }

    private static long time(List<String> command, Path home) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put("HOME", home.toString());
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

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }

    private static long min(long[] values) {
        return Arrays.stream(values).min().orElse(0);
    }
}
