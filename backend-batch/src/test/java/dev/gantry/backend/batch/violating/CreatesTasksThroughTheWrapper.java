package dev.gantry.backend.batch.violating;

import com.microsoft.azure.batch.BatchClient;
import com.microsoft.azure.batch.auth.BatchCredentials;
import com.microsoft.azure.batch.protocol.models.TaskAddParameter;
import java.io.IOException;
import java.util.List;

/** A deliberate violation for SdkWrappersStayUnusedTest; never used elsewhere. */
final class CreatesTasksThroughTheWrapper {
    void submit(BatchCredentials credentials, List<TaskAddParameter> tasks) throws IOException, InterruptedException {
        BatchClient.open(credentials).taskOperations().createTasks("job", tasks);
    }
}
