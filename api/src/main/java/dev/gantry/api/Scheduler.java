package dev.gantry.api;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The open-source schedulers an Azure HPC cluster runs under {@link Orchestrator#CYCLECLOUD}: what
 * {@code advice.scheduler} asks the advice for, and what {@code backends.cyclecloud.scheduler} runs jobs with. One
 * list, so that the advice and the backend never disagree on the names.
 */
public enum Scheduler {
    SLURM, GRIDENGINE, PBS;

    private static final List<String> CONFIG_NAMES = Arrays.stream(values()).map(Scheduler::configName).toList();

    /** The name {@code gantry.yaml} spells, e.g. {@code gridengine}. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Every name {@code gantry.yaml} accepts, in this order: slurm, gridengine, pbs (for "must be one of"). */
    public static List<String> configNames() {
        return CONFIG_NAMES;
    }

    /** The scheduler a configuration names, exactly as {@link #configName()} spells it; empty for any other text. */
    public static Optional<Scheduler> ofConfigName(String name) {
        return Arrays.stream(values()).filter(s -> s.configName().equals(name)).findFirst();
    }
}
