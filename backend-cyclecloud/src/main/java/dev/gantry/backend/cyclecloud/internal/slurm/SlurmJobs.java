package dev.gantry.backend.cyclecloud.internal.slurm;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.JobRef;
import dev.gantry.backend.cyclecloud.internal.CycleCloudSettings;
import java.util.regex.Pattern;

/**
 * How Gantry names a Slurm job and its directory. The id is the idempotency key with a prefix (no key can then name
 * a special file such as {@code ..}); the job's directory under the work directory and its Slurm job name are that
 * id, so a retry of the key finds both.
 */
public final class SlurmJobs {
    public static final String BACKEND = "cyclecloud";
    static final String PREFIX = "job-";
    static final String SLURM_ID = "slurm-id";
    private static final Pattern ID = Pattern.compile(Pattern.quote(PREFIX) + "[A-Za-z0-9._-]{1,128}");

    private SlurmJobs() {
    }

    static String idFor(String idempotencyKey) {
        return PREFIX + idempotencyKey;
    }

    static String directory(CycleCloudSettings settings, String id) {
        return settings.workDir() + "/" + id;
    }

    /** The id of a job this backend made; JOB_NOT_FOUND for any other reference. */
    static String jobId(JobRef ref) {
        if (!ref.backend().equals(BACKEND) || !ID.matcher(ref.id()).matches()) {
            throw new GantryException(ErrorCode.JOB_NOT_FOUND, "no job " + ref + " on the cyclecloud backend: its "
                    + "jobs are cyclecloud:job-KEY");
        }
        return ref.id();
    }

    static boolean isOurs(JobRef ref) {
        return ref.backend().equals(BACKEND) && ID.matcher(ref.id()).matches();
    }
}
