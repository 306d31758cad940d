package dev.gantry.backend.cyclecloud.internal.login;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.JobRef;
import java.util.regex.Pattern;

/**
 * How Gantry names a cluster job and its directory, whatever the scheduler. The id is the idempotency key with a
 * prefix (no key can then name a special file such as {@code ..}); the job's directory under the work directory and
 * its name in the scheduler are that id, so a retry of the key finds both.
 */
public final class ClusterJobs {
    public static final String BACKEND = "cyclecloud";
    static final String PREFIX = "job-";
    private static final Pattern ID = Pattern.compile(Pattern.quote(PREFIX) + "[A-Za-z0-9._-]{1,128}");
    private static final Pattern RECORDED_ID = Pattern.compile("\\{recorded-id:" + ID.pattern() + "\\}");

    private ClusterJobs() {
    }

    public static String idFor(String idempotencyKey) {
        return PREFIX + idempotencyKey;
    }

    public static String directory(String workDir, String id) {
        return workDir + "/" + id;
    }

    /** The id of a job this backend made; JOB_NOT_FOUND for any other reference. */
    public static String jobId(JobRef ref) {
        if (!isOurs(ref)) {
            throw new GantryException(ErrorCode.JOB_NOT_FOUND, "no job " + ref + " on the cyclecloud backend: its "
                    + "jobs are cyclecloud:job-KEY");
        }
        return ref.id();
    }

    /**
     * Where a batch script names the scheduler's id of another job of this backend, a dependency: the submit script
     * puts the id recorded in that job's directory in its place on the login node, in the same remote command as the
     * submit (no read per dependency before it).
     */
    public static String recordedIdOf(JobRef job) {
        return "{recorded-id:" + jobId(job) + "}";
    }

    /** Whether {@code text} is a {@link #recordedIdOf} placeholder. */
    public static boolean isRecordedId(String text) {
        return RECORDED_ID.matcher(text).matches();
    }

    public static boolean isOurs(JobRef ref) {
        return ref.backend().equals(BACKEND) && ID.matcher(ref.id()).matches();
    }
}
