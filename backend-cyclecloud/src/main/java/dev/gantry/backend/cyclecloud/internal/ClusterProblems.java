package dev.gantry.backend.cyclecloud.internal;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import java.util.List;

/** The problems every scheduler's plan check reports alike, with their keys and fixes. */
public final class ClusterProblems {
    private ClusterProblems() {
    }

    /** The probe found the work directory not writable by the login user. */
    public static Problem workDirNotWritable(CycleCloudSettings settings) {
        return Problem.of("backends.cyclecloud.workDir", settings.workDir() + " is not writable by "
                + settings.login().user() + " on the login node; create it or choose another directory on the "
                + "shared file system");
    }

    /**
     * Adds what CycleCloud's node arrays say against the plan; false (with the problem that says so) when CycleCloud
     * refuses to give them, so that nothing is checked against a partition map that may be wrong. A CycleCloud that
     * cannot be reached is BACKEND_UNAVAILABLE, thrown: it says nothing about the plan.
     */
    public static boolean addLayoutProblems(PartitionChoice partitions, Plan plan, List<Problem> problems) {
        try {
            problems.addAll(partitions.problems(plan));
            return true;
        } catch (GantryException e) {
            if (e.code() == ErrorCode.BACKEND_UNAVAILABLE) {
                throw e;
            }
            problems.add(Problem.of(PartitionChoice.URL_SETTING, "cannot read the cluster's node arrays from "
                    + "CycleCloud: " + e.getMessage()));
            return false;
        }
    }
}
