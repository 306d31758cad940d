package dev.gantry.backend.cyclecloud.internal.gridengine;

import dev.gantry.backend.cyclecloud.internal.login.SchedulerScripts;

/** The fixed scripts the Grid Engine backend runs on the login node. */
final class GridEngineScripts {
    static final SchedulerScripts SCRIPTS = SchedulerScripts.of(GridEngineScripts.class);
    /** The record of Grid Engine's job number in a job's directory. */
    static final String GE_ID = "ge-id";

    private GridEngineScripts() {
    }
}
