package dev.gantry.backend.cyclecloud.internal;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The schedulers CycleCloud clusters run, as {@code backends.cyclecloud.scheduler} names them. */
public enum Scheduler {
    SLURM, GRIDENGINE, PBS;

    /** The name {@code gantry.yaml} spells. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    static List<String> configNames() {
        return Arrays.stream(values()).map(Scheduler::configName).toList();
    }

    static Scheduler fromConfig(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
