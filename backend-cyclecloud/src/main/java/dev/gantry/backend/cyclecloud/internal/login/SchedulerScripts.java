package dev.gantry.backend.cyclecloud.internal.login;

/**
 * The fixed scripts a scheduler's backend runs on the login node, each made of the scheduler's own parts (read beside
 * its class: {@code submit.sh}, {@code status.sh}, {@code cancel.sh}, {@code probe.sh}, {@code doctor.sh}) and the
 * parts every scheduler shares ({@code login/claim.sh} after the submit, {@code login/records.sh} before the status,
 * {@code login/cancel.sh} after the cancel).
 */
public record SchedulerScripts(LoginScript submit, LoginScript status, LoginScript cancel, LoginScript probe,
                               LoginScript doctor) {
    /** The scripts of the scheduler whose parts lie beside {@code owner}. */
    public static SchedulerScripts of(Class<?> owner) {
        return new SchedulerScripts(
                LoginScript.of(owner, "submit", "bash", "submit.sh", "login/claim.sh"),
                LoginScript.of(owner, "status", "sh", "login/records.sh", "status.sh"),
                LoginScript.of(owner, "cancel", "sh", "cancel.sh", "login/cancel.sh"),
                LoginScript.of(owner, "probe", "sh", "probe.sh"),
                LoginScript.of(owner, "doctor", "sh", "doctor.sh"));
    }
}
