package dev.gantry.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where one {@code gantry} start spends its time: runs the command once with the JVM's class-loading log (through
 * {@code GANTRY_JAVA_OPTS}, which the launchers pass on) and prints, for each phase, when it began (the first class
 * that marks it), how many classes it loaded and how many of them came from jars rather than the start-up archive,
 * and the libraries with the most classes loaded. Usage, from the repository root after a build:
 *
 * <pre>
 * java -cp "benchmarks/target/classes:$(cat benchmarks/target/benchmarks.classpath)" \
 *     dev.gantry.benchmarks.StartupTimeline ./gantry plan examples/quickstart.yaml
 * </pre>
 */
public final class StartupTimeline {
    /** Phase name, then the class whose first load marks its start. */
    private static final List<String[]> PHASES = List.of(
            new String[] {"JVM start", "java.lang.Object"},
            new String[] {"CLI main", "dev.gantry.cli.Main"},
            new String[] {"command model (picocli)", "picocli.CommandLine"},
            new String[] {"Gantry facade and wiring (Dagger)", "dev.gantry.Gantry"},
            new String[] {"configuration", "dev.gantry.core.config.ConfigLoader"},
            new String[] {"spec reading (Jackson, SnakeYAML)", "dev.gantry.core.spec.SpecReader"},
            new String[] {"catalog", "dev.gantry.core.catalog.CatalogLoader"},
            new String[] {"advisor", "dev.gantry.core.advisor.CatalogIndex"});

    private StartupTimeline() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length == 0) {
            System.err.println("usage: StartupTimeline LAUNCHER [ARGUMENTS...]");
            System.exit(2);
        }
        Path home = Files.createTempDirectory("gantry-timeline");
        Path log = home.resolve("classes.log");
        ProcessBuilder builder = new ProcessBuilder(args).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put("HOME", home.toString());
        builder.environment().put("GANTRY_STATE_DIR", home.resolve("state").toString());
        builder.start().waitFor(); // makes the start-up archive, in the same home as the measured run
        StartupArchives.await(home);
        builder.environment().put("GANTRY_JAVA_OPTS", "-Xlog:class+load=info:file=" + log + ":uptime");
        long start = System.nanoTime();
        int code = builder.start().waitFor();
        double wall = (System.nanoTime() - start) / 1e6;
        if (code != 0) {
            throw new IllegalStateException(String.join(" ", args) + " exited " + code);
        }
        List<Loaded> loaded = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            // [0.123s][info][class,load] name source: shared objects file
            int close = line.indexOf("s]");
            int nameStart = line.indexOf("] ", line.indexOf("class,load"));
            int sourceAt = line.indexOf(" source: ");
            if (close < 1 || nameStart < 0 || sourceAt < 0) {
                continue;
            }
            double at = Double.parseDouble(line.substring(1, close)) * 1000;
            String source = line.substring(sourceAt + " source: ".length());
            loaded.add(new Loaded(at, line.substring(nameStart + 2, sourceAt), !source.startsWith("shared objects")
                    && !source.startsWith("jrt:") && !source.startsWith("__")));
        }
        System.out.printf(Locale.ROOT, "gantry start-up timeline: %s%nwall %.0f ms, %d classes loaded, %d from jars "
                + "(not in the start-up archive)%n%n", String.join(" ", args), wall, loaded.size(),
                loaded.stream().filter(Loaded::fromJar).count());
        System.out.printf(Locale.ROOT, "%-38s %9s %9s %8s %9s%n", "phase", "starts", "lasts", "classes", "from jars");
        // Phases in the order they began, which is not always the list's order.
        List<Mark> marks = new ArrayList<>();
        for (String[] phase : PHASES) {
            loaded.stream().filter(l -> l.name.equals(phase[1])).findFirst()
                    .ifPresent(first -> marks.add(new Mark(phase[0], first.at)));
        }
        marks.sort(java.util.Comparator.comparingDouble(Mark::at));
        // The last phase runs to the last class loaded: printing the result and the JVM's exit load few.
        marks.add(new Mark("(last class loaded)", loaded.get(loaded.size() - 1).at + 0.001));
        for (int i = 0; i < marks.size(); i++) {
            double from = marks.get(i).at;
            double to = i + 1 < marks.size() ? marks.get(i + 1).at : from;
            long classes = loaded.stream().filter(l -> l.at >= from && l.at < to).count();
            long jars = loaded.stream().filter(l -> l.at >= from && l.at < to && l.fromJar).count();
            System.out.printf(Locale.ROOT, "%-38s %6.0f ms %6.0f ms %8d %9d%n", marks.get(i).phase, from, to - from,
                    classes, jars);
        }
        Map<String, Integer> byLibrary = new LinkedHashMap<>();
        loaded.forEach(l -> byLibrary.merge(library(l.name), 1, Integer::sum));
        System.out.println();
        System.out.println("classes by library (top 12):");
        byLibrary.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(12)
                .forEach(e -> System.out.printf(Locale.ROOT, "  %5d  %s%n", e.getValue(), e.getKey()));
    }

    /** The first two or three name parts: {@code com.fasterxml.jackson}, {@code dev.gantry.core}, {@code java.util}. */
    private static String library(String className) {
        String[] parts = className.split("\\.");
        int keep = Math.min(parts.length - 1, parts[0].equals("java") || parts[0].equals("picocli") ? 2 : 3);
        return String.join(".", java.util.Arrays.copyOf(parts, Math.max(keep, 1)));
    }

    private record Loaded(double at, String name, boolean fromJar) {
    }

    private record Mark(String phase, double at) {
    }
}
