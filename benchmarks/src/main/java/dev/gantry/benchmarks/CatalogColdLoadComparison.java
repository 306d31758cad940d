package dev.gantry.benchmarks;

import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.CatalogLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Loading the embedded catalog in a fresh JVM, as {@code gantry plan} does: the CSV snapshot against its compact
 * form (made at build time by {@code CompactSnapshot}). Each run is a child JVM with the launcher's flags (C1 only,
 * serial collector, class-data sharing on), the two kinds alternating so that machine noise hits both; it prints
 * the medians of the load itself (timed inside the child, class loading included) and of the child's whole life.
 * Usage, from the repository root after {@code ./mvnw -pl core,benchmarks package -DskipTests}:
 *
 * <pre>
 * java -cp "benchmarks/target/classes:$(cat benchmarks/target/benchmarks.classpath)" \
 *     dev.gantry.benchmarks.CatalogColdLoadComparison 15
 * </pre>
 */
public final class CatalogColdLoadComparison {
    static final List<String> JVM_FLAGS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto");

    private static String entries;

    private CatalogColdLoadComparison() {
    }

    /** One cold load: {@code csv} or {@code compact}; prints the load's nanoseconds. */
    public static final class Child {
        public static void main(String[] args) {
            boolean csv = args[0].equals("csv");
            long start = System.nanoTime();
            Catalog catalog = csv ? CatalogLoader.loadEmbeddedCsvUncached() : CatalogLoader.loadEmbeddedUncached();
            long took = System.nanoTime() - start;
            // Checked after the timing: loadEmbeddedUncached falls back to the CSV without a word when the compact
            // form is missing, and a comparison of the CSV with itself would say nothing.
            if (!csv && Child.class.getResource("/dev/gantry/catalog/azure-snapshot.bin") == null) {
                throw new IllegalStateException("azure-snapshot.bin is not on the class path: build core first"
                        + " (./mvnw -pl core,benchmarks package -DskipTests)");
            }
            System.out.println(took + " " + catalog.entries().size());
        }
    }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("java.class.path");
        long[][] load = new long[2][runs];
        long[][] wall = new long[2][runs];
        String[] kinds = {"csv", "compact"};
        run(java, classPath, "csv"); // the first child after a build pays for cold file caches; not measured
        run(java, classPath, "compact");
        for (int i = 0; i < runs; i++) {
            for (int k = 0; k < 2; k++) {
                long start = System.nanoTime();
                load[k][i] = run(java, classPath, kinds[k]);
                wall[k][i] = System.nanoTime() - start;
            }
        }
        System.out.printf(Locale.ROOT, "runs: %d each, flags %s%n", runs, String.join(" ", JVM_FLAGS));
        for (int k = 0; k < 2; k++) {
            System.out.printf(Locale.ROOT, "%-8s load: median %.1f ms (min %.1f)   JVM wall: median %.1f ms (min %.1f)%n",
                    kinds[k], median(load[k]) / 1e6, min(load[k]) / 1e6, median(wall[k]) / 1e6, min(wall[k]) / 1e6);
        }
        System.out.printf(Locale.ROOT, "compact load is %.1fx faster (medians)%n", median(load[0]) / median(load[1]));
    }

    private static long run(String java, String classPath, String kind) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of(java));
        command.addAll(JVM_FLAGS);
        command.addAll(List.of("-cp", classPath, Child.class.getName(), kind));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        int code = process.waitFor();
        if (code != 0) {
            throw new IllegalStateException(kind + " load exited " + code + ": " + output);
        }
        String[] parts = output.split(" ");
        // Both kinds must load the same catalog, or the comparison compares different work.
        if (entries == null) {
            entries = parts[1];
        } else if (!parts[1].equals(entries)) {
            throw new IllegalStateException(kind + " load gave " + parts[1] + " entries, the other " + entries);
        }
        return Long.parseLong(parts[0]);
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
