package dev.gantry.backend.cyclecloud.internal.slurm;

import dev.gantry.backend.cyclecloud.internal.login.LoginScript;

/** The fixed scripts the Slurm backend runs on the login node. */
final class SlurmScripts {
    static final LoginScript SUBMIT = LoginScript.of(SlurmScripts.class, "submit", "bash", "submit.sh",
            "login/claim.sh");
    static final LoginScript STATUS = LoginScript.of(SlurmScripts.class, "status", "sh", "login/records.sh",
            "status.sh");
    static final LoginScript CANCEL = LoginScript.of(SlurmScripts.class, "cancel", "sh", "cancel.sh",
            "login/cancel.sh");
    static final LoginScript PROBE = LoginScript.of(SlurmScripts.class, "probe", "sh", "probe.sh");
    static final LoginScript DOCTOR = LoginScript.of(SlurmScripts.class, "doctor", "sh", "doctor.sh");
    /** The record of Slurm's job id in a job's directory. */
    static final String SLURM_ID = "slurm-id";

    private SlurmScripts() {
    }
}
