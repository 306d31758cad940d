package dev.gantry.backend.cyclecloud.internal.gridengine;

import java.util.Arrays;
import java.util.Optional;

/**
 * The codes of qacct's {@code failed} field: why Grid Engine itself, not the job, ended a run. The table is the one
 * sge_status(5) prints for Son of Grid Engine 8.1.9, code by code, with its "OK" column (whether the resource usage
 * is valid, that is whether the job ran at all). Code 0 is no failure: the job's own {@code exit_status} then says
 * how it ended.
 */
public enum QacctFailure {
    NO_FAILURE(0, Stage.NONE, "ran and exited normally"),
    ASSUMEDLY_BEFORE_JOB(1, Stage.BEFORE_JOB, "failed early in execd"),
    BEFORE_WRITING_CONFIG(3, Stage.BEFORE_JOB, "failed before execd set up local spool"),
    BEFORE_WRITING_PID(4, Stage.BEFORE_JOB, "shepherd failed to record its pid (a file system problem?)"),
    SETTING_PROCESSOR_SET(6, Stage.BEFORE_JOB, "failed setting up processor set"),
    BEFORE_PROLOG(7, Stage.BEFORE_JOB, "failed before prolog"),
    IN_PROLOG(8, Stage.BEFORE_JOB, "failed in prolog"),
    BEFORE_PESTART(9, Stage.BEFORE_JOB, "failed before starting the parallel environment"),
    IN_PESTART(10, Stage.BEFORE_JOB, "failed in the parallel environment's start procedure"),
    BEFORE_JOB(11, Stage.BEFORE_JOB, "failed in shepherd before starting job"),
    BEFORE_PESTOP(12, Stage.AFTER_JOB, "ran, but failed before calling the parallel environment's stop procedure"),
    IN_PESTOP(13, Stage.AFTER_JOB, "ran, but the parallel environment's stop procedure failed"),
    BEFORE_EPILOG(14, Stage.AFTER_JOB, "ran, but failed before calling epilog"),
    IN_EPILOG(15, Stage.AFTER_JOB, "ran, but failed in epilog"),
    RELEASING_PROCESSOR_SET(16, Stage.AFTER_JOB, "ran, but processor set could not be released"),
    THROUGH_SIGNAL(17, Stage.KILLED, "job killed by signal (possibly qdel)"),
    SHEPHERD_RETURNED_ERROR(18, Stage.SHEPHERD, "shepherd died somehow"),
    BEFORE_WRITING_EXIT_STATUS(19, Stage.SHEPHERD, "shepherd didn't write reports correctly (program or machine "
            + "crash?)"),
    UNEXPECTED_ERROR_FILE(20, Stage.SHEPHERD, "shepherd encountered a problem"),
    IN_RECOGNIZING_JOB(21, Stage.SHEPHERD, "qmaster asked about an unknown job"),
    MIGRATING(24, Stage.REQUEUED, "ran, will be migrated (checkpointing job)"),
    RESCHEDULING(25, Stage.REQUEUED, "ran, will be rescheduled"),
    OPENING_OUTPUT_FILE(26, Stage.BEFORE_JOB, "failed opening stderr/stdout file"),
    SEARCHING_REQUESTED_SHELL(27, Stage.BEFORE_JOB, "failed finding specified shell"),
    CHANGING_TO_WORKING_DIRECTORY(28, Stage.BEFORE_JOB, "failed changing to start directory"),
    AFS_SETUP(29, Stage.BEFORE_JOB, "failed setting up AFS security"),
    APPLICATION_ERROR(30, Stage.AFTER_JOB, "ran and exited 100 (application error), maybe rescheduled"),
    ACCESSING_SGEPASSWD_FILE(31, Stage.BEFORE_JOB, "sgepasswd not readable (MS Windows)"),
    ENTRY_MISSING_IN_PASSWORD_FILE(32, Stage.BEFORE_JOB, "user not in sgepasswd (MS Windows)"),
    WRONG_PASSWORD(33, Stage.BEFORE_JOB, "wrong password against sgepasswd (MS Windows)"),
    COMMUNICATING_WITH_HELPER_SERVICE(34, Stage.BEFORE_JOB, "failure of the helper service (MS Windows)"),
    BEFORE_JOB_IN_HELPER_SERVICE(35, Stage.BEFORE_JOB, "failure running the helper service (MS Windows)"),
    CHECKING_CONFIGURED_DAEMONS(36, Stage.BEFORE_JOB, "failed because of configured remote startup daemon"),
    QMASTER_ENFORCED_LIMIT(37, Stage.LIMIT, "ran, but killed for exceeding its h_rt, h_cpu or h_vmem limit"),
    ADDING_SUPPLEMENTARY_GROUP(38, Stage.BEFORE_JOB, "failed adding supplementary gid to job"),
    ASSUMEDLY_AFTER_JOB(100, Stage.KILLED, "ran, but killed by a signal (qdel, exceeding a resource, the job "
            + "itself), or its task or shepherd died (a host crash)");

    /** Where in a run the failure happened, which decides what it means for the job. */
    public enum Stage {
        /** No failure: the exit status tells. */
        NONE,
        /** The job never ran: its setup failed (accounting data are not valid). */
        BEFORE_JOB,
        /** The job ran; a step after it failed. */
        AFTER_JOB,
        /** The job ran and was killed by a signal. */
        KILLED,
        /** The job ran and was killed at a hard limit. */
        LIMIT,
        /** The shepherd (Grid Engine's per-job process) died or lost track. */
        SHEPHERD,
        /** The run ended so that the job runs again: not an end of the job. */
        REQUEUED
    }

    private final int code;
    private final Stage stage;
    private final String description;

    QacctFailure(int code, Stage stage, String description) {
        this.code = code;
        this.stage = stage;
        this.description = description;
    }

    public int code() {
        return code;
    }

    public Stage stage() {
        return stage;
    }

    /** sge_status(5)'s explanation, for status messages. */
    public String description() {
        return description;
    }

    /** Whether the job's own process ran (sge_status(5)'s "OK": its resource usage is valid). */
    public boolean ran() {
        return stage != Stage.BEFORE_JOB && stage != Stage.SHEPHERD;
    }

    /** The entry for a code; empty for one sge_status(5) does not list (a newer release's). */
    public static Optional<QacctFailure> of(int code) {
        return Arrays.stream(values()).filter(f -> f.code == code).findFirst();
    }
}
