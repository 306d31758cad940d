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
    /** Slurm: jobs submitted with {@code sbatch}. */
    SLURM,
    /** Grid Engine (Altair or Son of Grid Engine): jobs submitted with {@code qsub}. */
    GRIDENGINE,
    /** OpenPBS: for advice; the cyclecloud backend refuses it in this version (its scripts are tested, never live). */
    PBS;

    private static final List<String> CONFIG_NAMES = Arrays.stream(values()).map(Scheduler::configName).toList();

    /**
     * The name configuration uses.
     *
     * @return the name {@code gantry.yaml} spells, e.g. {@code gridengine}
     */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Every name configuration accepts, for "must be one of" messages.
     *
     * @return every name {@code gantry.yaml} accepts, in this order: slurm, gridengine, pbs; unmodifiable
     */
    public static List<String> configNames() {
        return CONFIG_NAMES;
    }

    /**
     * The scheduler a configuration names.
     *
     * @param name the name, exactly as {@link #configName()} spells it (lower case)
     * @return the scheduler; empty for any other text, null included
     */
    public static Optional<Scheduler> ofConfigName(String name) {
        return Arrays.stream(values()).filter(s -> s.configName().equals(name)).findFirst();
    }
}
