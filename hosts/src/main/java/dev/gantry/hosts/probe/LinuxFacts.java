package dev.gantry.hosts.probe;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parsers for the operating-system probes: {@code /etc/os-release}, {@code uname -srm}, {@code nproc},
 * {@code /proc/meminfo} and {@code df -Pk}. Each is a pure function of the probe's text. */
public final class LinuxFacts {
    private static final Pattern OS_LINE = Pattern.compile("^([A-Z_][A-Z0-9_]*)=(.*)$");
    private static final Pattern MEM_TOTAL = Pattern.compile("^MemTotal:\\s+([0-9]+)\\s+kB\\s*$");
    private static final double KIB_PER_GIB = 1024.0 * 1024.0;

    private LinuxFacts() {
    }

    /** The kernel release and machine architecture from {@code uname -srm}. */
    public record Uname(String release, String machine) {
    }

    /** {@code /etc/os-release}: {@code KEY=value} lines, values optionally quoted. */
    public static Parsed<Optional<OsRelease>> osRelease(String text) {
        Map<String, String> values = new HashMap<>();
        for (String line : text.split("\n")) {
            Matcher m = OS_LINE.matcher(line.strip());
            if (m.matches()) {
                values.put(m.group(1), unquote(m.group(2)));
            }
        }
        if (!values.containsKey("ID") && !values.containsKey("NAME")) {
            return new Parsed<>(Optional.empty(), List.of(new ProbeProblem("os",
                    "no ID or NAME in /etc/os-release: '" + ProbeOutput.abbreviate(text) + "'")));
        }
        String name = values.getOrDefault("NAME", values.getOrDefault("ID", ""));
        String version = values.getOrDefault("VERSION_ID", "");
        String pretty = values.getOrDefault("PRETTY_NAME", (name + " " + version).strip());
        return Parsed.of(Optional.of(new OsRelease(values.getOrDefault("ID", name.toLowerCase(java.util.Locale.ROOT)),
                name, version, pretty)));
    }

    private static String unquote(String value) {
        String v = value.strip();
        if (v.length() >= 2 && (v.startsWith("\"") && v.endsWith("\"") || v.startsWith("'") && v.endsWith("'"))) {
            v = v.substring(1, v.length() - 1);
        }
        return v.replace("\\\"", "\"").replace("\\$", "$").replace("\\`", "`").replace("\\\\", "\\");
    }

    /** {@code uname -srm}: {@code Linux 6.5.0-1025-azure x86_64} → kernel release and machine. */
    public static Parsed<Optional<Uname>> uname(String text) {
        String[] fields = text.strip().split("\\s+");
        if (fields.length != 3) {
            return new Parsed<>(Optional.empty(), List.of(new ProbeProblem("kernel",
                    "expected 'SYSTEM RELEASE MACHINE' from uname -srm, got '" + ProbeOutput.abbreviate(text) + "'")));
        }
        return Parsed.of(Optional.of(new Uname(fields[1], fields[2])));
    }

    /** {@code nproc}: one positive integer. */
    public static Parsed<OptionalInt> cpus(String text) {
        String value = text.strip();
        try {
            int n = Integer.parseInt(value);
            if (n >= 1) {
                return Parsed.of(OptionalInt.of(n));
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        return new Parsed<>(OptionalInt.empty(), List.of(new ProbeProblem("cpus",
                "expected a positive number of CPUs from nproc, got '" + ProbeOutput.abbreviate(value) + "'")));
    }

    /** {@code /proc/meminfo}: the {@code MemTotal} line, in kB (KiB), as GiB. */
    public static Parsed<OptionalDouble> memoryGib(String text) {
        for (String line : text.split("\n")) {
            Matcher m = MEM_TOTAL.matcher(line.strip());
            if (m.matches()) {
                return Parsed.of(OptionalDouble.of(Long.parseLong(m.group(1)) / KIB_PER_GIB));
            }
        }
        return new Parsed<>(OptionalDouble.empty(), List.of(new ProbeProblem("meminfo",
                "no 'MemTotal: N kB' line in /proc/meminfo")));
    }

    /**
     * {@code df -Pk DIR}: a header and one line {@code FILESYSTEM 1024-BLOCKS USED AVAILABLE CAPACITY MOUNTED-ON}
     * (POSIX format, so one line per file system). The mount point may contain spaces: it is the rest of the line.
     */
    public static Parsed<Optional<DiskSpace>> disk(String text, String path) {
        List<String> lines = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                lines.add(line.strip());
            }
        }
        if (lines.size() != 2 || !lines.get(0).startsWith("Filesystem")) {
            return new Parsed<>(Optional.empty(), List.of(new ProbeProblem("disk",
                    "expected a header and one line from df -Pk, got " + lines.size() + " line(s): '"
                            + ProbeOutput.abbreviate(text) + "'")));
        }
        String[] fields = lines.get(1).split("\\s+", 6);
        if (fields.length != 6 || !fields[3].matches("[0-9]+")) {
            return new Parsed<>(Optional.empty(), List.of(new ProbeProblem("disk",
                    "expected FILESYSTEM BLOCKS USED AVAILABLE CAPACITY MOUNTED-ON from df -Pk, got '"
                            + ProbeOutput.abbreviate(lines.get(1)) + "'")));
        }
        return Parsed.of(Optional.of(new DiskSpace(path, fields[5], Long.parseLong(fields[3]) / KIB_PER_GIB)));
    }
}
