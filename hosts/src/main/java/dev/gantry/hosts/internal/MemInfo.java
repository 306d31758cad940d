package dev.gantry.hosts.internal;

import java.util.List;
import java.util.OptionalDouble;

/** Reads {@code /proc/meminfo}. */
public final class MemInfo {
    private MemInfo() {
    }

    /** MemTotal in GiB; empty when the line is missing or malformed. */
    public static OptionalDouble totalGib(List<String> lines) {
        for (String line : lines) {
            if (line.startsWith("MemTotal:")) {
                String[] parts = line.substring("MemTotal:".length()).trim().split("\\s+");
                try {
                    return OptionalDouble.of(Long.parseLong(parts[0]) / (1024.0 * 1024.0));
                } catch (NumberFormatException e) {
                    return OptionalDouble.empty();
                }
            }
        }
        return OptionalDouble.empty();
    }
}
