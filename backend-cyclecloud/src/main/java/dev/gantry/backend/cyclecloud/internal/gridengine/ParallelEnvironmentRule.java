package dev.gantry.backend.cyclecloud.internal.gridengine;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * How a Grid Engine parallel environment spreads a job's slots over hosts (sge_pe(5)), as {@code qconf -sp} shows it.
 *
 * @param name the parallel environment's name
 * @param allocationRule {@code $pe_slots} (all on one host), {@code $fill_up}, {@code $round_robin}, or a number: that
 *     many slots on each host
 * @param controlSlaves whether Grid Engine starts and controls the job's tasks on its other hosts
 *     ({@code qrsh -inherit}), which a job of several hosts needs
 */
public record ParallelEnvironmentRule(String name, String allocationRule, boolean controlSlaves) {
    public ParallelEnvironmentRule {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(allocationRule, "allocationRule");
    }

    /**
     * The slots it grants on each host, where its allocation rule is a number: the one rule under which a job of
     * {@code N} times that many slots spans exactly {@code N} hosts. Empty for the {@code $} rules.
     */
    public OptionalInt slotsPerHost() {
        if (!allocationRule.matches("[1-9][0-9]{0,5}")) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(Integer.parseInt(allocationRule));
    }
}
