package dev.gantry.backend.cyclecloud.internal.slurm;

import java.util.List;

/**
 * What Gantry puts in a Slurm job's comment ({@code --comment}, shown by squeue): the Gantry ids of the jobs it
 * depends on, so that a job Slurm cancels because a dependency failed is reported naming that dependency, from the
 * one squeue of a status poll. Job ids are not secret.
 */
public final class SlurmJobComment {
    static final String DEPENDS = "gantry-depends-on=";

    private SlurmJobComment() {
    }

    /** The comment for a job with these dependencies; empty when it has none. */
    public static java.util.Optional<String> of(List<String> dependencyIds) {
        return dependencyIds.isEmpty() ? java.util.Optional.empty()
                : java.util.Optional.of(DEPENDS + String.join(",", dependencyIds));
    }
}
