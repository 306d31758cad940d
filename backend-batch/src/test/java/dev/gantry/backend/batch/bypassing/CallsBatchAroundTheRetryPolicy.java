package dev.gantry.backend.batch.bypassing;

import com.microsoft.azure.batch.protocol.BatchServiceClient;
import com.microsoft.azure.batch.protocol.Tasks;
import dev.gantry.backend.batch.internal.remote.AccountCalls;
import dev.gantry.backend.batch.internal.rest.BatchConnection;

/**
 * Deliberate violations for ProtocolCallsGoThroughBatchCallsTest, one per way around the retry policy; never used
 * elsewhere.
 */
final class CallsBatchAroundTheRetryPolicy {
    /** Keeps the client, to call it later outside any request. */
    private BatchServiceClient kept;

    /** Asks the connection for its client itself, and lists tasks with it. */
    int listsTasksDirectly(BatchConnection connection) {
        return connection.protocol().tasks().list("job").size();
    }

    /** Lets the client out of a request, and calls it afterwards. */
    int leaksTheClientFromARequest(AccountCalls calls) {
        kept = calls.call("leaking", CallsBatchAroundTheRetryPolicy::client);
        return kept.tasks().list("job").size();
    }

    private static BatchServiceClient client(BatchServiceClient batch) {
        return batch;
    }

    /** Hands out the operations of a client it was given, for a caller to use outside the request. */
    static Tasks tasksOf(BatchServiceClient batch) {
        return batch.tasks();
    }
}
