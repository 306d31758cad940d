package dev.gantry.api.backend;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a backend found on one host: the facts it probed (OS, CPUs, memory, GPUs, drivers, container runtimes,
 * InfiniBand; values as text, absent facts left out) and the checks against a plan or the host's own hardware.
 *
 * @param host the host as the backend names it, e.g. its address or node name
 * @param facts the facts probed by name, e.g. {@code gpu.model}, in the order probed
 * @param checks the checks, in the order made
 */
public record HostReport(String host, Map<String, String> facts, List<HostCheck> checks) {
    /**
     * Copies the facts and checks.
     *
     * @param host the host
     * @param facts the facts, copied in order
     * @param checks the checks, copied
     * @throws NullPointerException when a component is null
     */
    public HostReport {
        Objects.requireNonNull(host, "host");
        facts = Collections.unmodifiableMap(new LinkedHashMap<>(facts));
        checks = List.copyOf(checks);
    }

    /** {@return true when no check is MISSING: the host can run the plan, perhaps with warnings} */
    public boolean ok() {
        return checks.stream().noneMatch(c -> c.status() == HostCheck.Status.MISSING);
    }
}
