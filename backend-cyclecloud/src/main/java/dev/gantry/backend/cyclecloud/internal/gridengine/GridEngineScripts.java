package dev.gantry.backend.cyclecloud.internal.gridengine;

import dev.gantry.backend.cyclecloud.internal.login.LoginScript;

/** The fixed scripts the Grid Engine backend runs on the login node. */
final class GridEngineScripts {
    static final LoginScript SUBMIT = LoginScript.of(GridEngineScripts.class, "submit", "bash", "submit.sh",
            "login/claim.sh");
    static final LoginScript STATUS = LoginScript.of(GridEngineScripts.class, "status", "sh", "login/records.sh",
            "status.sh");
    static final LoginScript CANCEL = LoginScript.of(GridEngineScripts.class, "cancel", "sh", "cancel.sh",
            "login/cancel.sh");
    static final LoginScript PROBE = LoginScript.of(GridEngineScripts.class, "probe", "sh", "probe.sh");
    static final LoginScript DOCTOR = LoginScript.of(GridEngineScripts.class, "doctor", "sh", "doctor.sh");
    /** The record of Grid Engine's job number in a job's directory. */
    static final String GE_ID = "ge-id";

    private GridEngineScripts() {
    }
}
