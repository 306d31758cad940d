package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;

/** Batch's {@code failureInfo} of a task or start task: category, code and message. */
final class FailureInfo {
    private static final Set<String> USER_ERRORS = Set.of("TaskEnded", "FailureExitCode", "BlobAccessDenied",
            "CommandProgramNotFound", "ResourceFileDownloadFailed", "BlobDownloadMiscError",
            "ContainerPreparationError");

    private FailureInfo() {
    }

    static ObjectNode of(String code, String message) {
        ObjectNode failure = Json.object();
        failure.put("category", USER_ERRORS.contains(code) ? "usererror" : "servererror");
        failure.put("code", code);
        failure.put("message", message);
        return failure;
    }
}
