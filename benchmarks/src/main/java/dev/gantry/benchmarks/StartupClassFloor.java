package dev.gantry.benchmarks;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How much of a command's start-up is the classes it loads: an installed {@code gantry} command against a JVM that
 * only loads and initializes the same classes, in the same order, with the launcher's own flags and start-up archive
 * ({@link LoadClassList}, started through the launcher with {@code GANTRY_JAVA_OPTS}, so that the JVM is set up
 * exactly as for the command), and a bare {@code java -version}; medians of alternating runs. Classes the JVM makes at
 * run time (lambdas, proxies, method-handle forms) are not in the list, so the floor is a lower bound. Usage, from the
 * repository root after a build and with the archive unpacked:
 *
 * <pre>
 * java -cp "benchmarks/target/classes:$(cat benchmarks/target/benchmarks.classpath)" \
 *     dev.gantry.benchmarks.StartupClassFloor 15 /tmp/gantry-install/gantry-0.1.0-SNAPSHOT/bin/gantry \
 *     plan examples/quickstart.yaml
 * </pre>
 */
public final class StartupClassFloor {
    private StartupClassFloor() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: StartupClassFloor RUNS INSTALLED_LAUNCHER ARGUMENTS...");
            System.exit(2);
        }
        int runs = Integer.parseInt(args[0]);
        Path launcher = Path.of(args[1]).toAbsolutePath();
        List<String> command = new ArrayList<>(List.of(args).subList(1, args.length));
        Path lib = launcher.getParent().getParent().resolve("lib");
        if (!Files.isRegularFile(lib.resolve("classpath"))) {
            throw new IllegalArgumentException(launcher + " is not an installed launcher (no " + lib.resolve("classpath")
                    + "); unpack the archive of cli/target and give its bin/gantry");
        }
        Path home = Files.createTempDirectory("gantry-floor");
        StartupComparison.time(command, home); // makes the start-up archive; not measured
        StartupArchives.await(home);
        Path log = home.resolve("classes.log");
        StartupComparison.time(command, home, Map.of("GANTRY_JAVA_OPTS", "-Xlog:class+load=info:file=" + log));
        List<String> classes = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            int start = line.indexOf("] ", line.indexOf("class,load"));
            int end = line.indexOf(" source: ");
            String name = start < 0 || end < start ? "" : line.substring(start + 2, end);
            // Hidden classes (lambdas, method-handle forms) and proxies are made at run time, not found by name.
            if (!name.isEmpty() && !name.contains("/") && !name.contains("$$Lambda") && !name.contains("$Proxy")) {
                classes.add(name);
            }
        }
        Path list = home.resolve("classes.txt");
        Files.write(list, classes);
        // The launcher's class path first (the archive was made for it), then this benchmark's own classes.
        StringBuilder classpath = new StringBuilder();
        for (String jar : Files.readAllLines(lib.resolve("classpath"))) {
            if (!jar.isBlank()) {
                classpath.append(lib.resolve(jar.strip())).append(File.pathSeparator);
            }
        }
        classpath.append(Path.of(LoadClassList.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
        // The launcher puts GANTRY_JAVA_OPTS before its own -cp and main class, so this main class is the one run.
        Map<String, String> floorOptions = Map.of("GANTRY_JAVA_OPTS",
                "-cp " + classpath + " " + LoadClassList.class.getName() + " " + list);

        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Map<String, long[]> times = new LinkedHashMap<>();
        times.put("java -version", new long[runs]);
        times.put(String.join(" ", command), new long[runs]);
        times.put("the same JVM, loading its " + classes.size() + " classes only", new long[runs]);
        for (int i = 0; i < runs; i++) {
            times.get("java -version")[i] = StartupComparison.time(List.of(java, "-version"), home);
            List<long[]> columns = new ArrayList<>(times.values());
            columns.get(1)[i] = StartupComparison.time(command, home);
            columns.get(2)[i] = StartupComparison.time(command, home, floorOptions);
        }
        double bare = StartupComparison.median(times.get("java -version")) / 1e6;
        System.out.printf(Locale.ROOT, "runs: %d each, alternating; java: %s%n", runs, System.getProperty("java.version"));
        for (Map.Entry<String, long[]> entry : times.entrySet()) {
            double median = StartupComparison.median(entry.getValue()) / 1e6;
            System.out.printf(Locale.ROOT, "%-70s %7.1f ms %6.2fx%n", entry.getKey(), median, median / bare);
        }
    }
}
