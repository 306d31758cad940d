package dev.gantry.api.backend;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a backend found on one host: the facts it probed (OS, CPUs, memory, GPUs, drivers, container runtimes,
 * InfiniBand; values as text, absent facts left out) and the checks against a plan or the host's own hardware.
 */
public record HostReport(String host, Map<String, String> facts, List<HostCheck> checks) {
    public HostReport {
        Objects.requireNonNull(host, "host");
        facts = Collections.unmodifiableMap(new LinkedHashMap<>(facts));
        checks = List.copyOf(checks);
    }

    /** True when no check is MISSING. */
    public boolean ok() {
        return checks.stream().noneMatch(c -> c.status() == HostCheck.Status.MISSING);
    }
}
