package dev.gantry.backend.cyclecloud.internal.slurm;

import dev.gantry.backend.cyclecloud.internal.login.SchedulerScripts;

/** The fixed scripts the Slurm backend runs on the login node. */
final class SlurmScripts {
    static final SchedulerScripts SCRIPTS = SchedulerScripts.of(SlurmScripts.class);
    /** The record of Slurm's job id in a job's directory. */
    static final String SLURM_ID = "slurm-id";

    private SlurmScripts() {
    }
}
