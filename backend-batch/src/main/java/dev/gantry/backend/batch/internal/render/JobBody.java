package dev.gantry.backend.batch.internal.render;

import com.microsoft.azure.batch.protocol.models.JobAddParameter;
import com.microsoft.azure.batch.protocol.models.OnAllTasksComplete;
import com.microsoft.azure.batch.protocol.models.PoolInformation;

/**
 * The body of a job add for a pool's one job: tasks may depend on each other (dependencies stay within a job), and
 * the job stays open when its tasks have ended, so later submits keep using it.
 */
public final class JobBody {
    private JobBody() {
    }

    public static JobAddParameter render(String jobId, String poolId, PoolKey key) {
        return new JobAddParameter().withId(jobId).withPoolInfo(new PoolInformation().withPoolId(poolId))
                .withUsesTaskDependencies(true).withOnAllTasksComplete(OnAllTasksComplete.NO_ACTION)
                .withMetadata(PoolMetadata.of(key));
    }
}
