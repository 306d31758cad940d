package dev.gantry.backend.batch.internal.logs;

import com.microsoft.azure.batch.protocol.BatchServiceClient;
import com.microsoft.azure.batch.protocol.models.BatchErrorException;
import com.microsoft.azure.batch.protocol.models.FileGetFromComputeNodeOptions;
import com.microsoft.azure.batch.protocol.models.FileGetFromTaskOptions;
import com.microsoft.rest.ServiceResponse;
import java.io.ByteArrayOutputStream;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads task and node files, one protocol call per method. Files are read into an {@code OutputStream}: the SDK's
 * {@code InputStream} form of {@code files().getFromTask} failed with "Socket closed" (the response is closed before
 * the stream is read). A file not there yet is empty ({@code FileNotFound}); a range past its end is no bytes
 * ({@code 416 InvalidRange}); files Batch removed are {@link FilesGone}.
 */
final class BatchFiles {
    static final String FILE_NOT_FOUND = "FileNotFound";
    static final String TASK_FILES_CLEANED_UP = "TaskFilesCleanedup";
    static final String NODE_NOT_FOUND = "NodeNotFound";
    private static final byte[] NONE = new byte[0];

    private final BatchServiceClient protocol;

    BatchFiles(BatchServiceClient protocol) {
        this.protocol = Objects.requireNonNull(protocol, "protocol");
    }

    /**
     * The file's length (its properties), or empty when it is not there yet. Read from the raw response's
     * {@code Content-Length}, looked up without regard to case: the SDK's typed headers map it by exact name, and a
     * server that spells it {@code Content-length} (the JDK's HTTP server does) would read as no length at all.
     */
    Optional<Long> length(FileLocation file) {
        try {
            ServiceResponse<?> response = file instanceof FileLocation.TaskFile task
                    ? protocol.files().getPropertiesFromTaskWithServiceResponseAsync(task.jobId(), task.taskId(),
                    task.path()).toBlocking().single()
                    : propertiesOnNode((FileLocation.NodeFile) file);
            // A HEAD's answer is in headResponse(), not response().
            okhttp3.Headers headers = response.response() != null ? response.response().headers()
                    : response.headResponse().headers();
            String length = headers.get("Content-Length");
            return Optional.of(length == null ? 0L : Long.parseLong(length.strip()));
        } catch (BatchErrorException e) {
            if (absent(e, file)) {
                return Optional.empty();
            }
            if (e.body() == null) {
                // A HEAD's error has no body, so no code: a one-byte GET of the same file names it (files Batch
                // removed become FilesGone, 409 TaskFilesCleanedup); otherwise the HEAD's own error stands.
                range(file, 0, 0);
            }
            throw e;
        }
    }

    private ServiceResponse<?> propertiesOnNode(FileLocation.NodeFile node) {
        return protocol.files().getPropertiesFromComputeNodeWithServiceResponseAsync(node.poolId(), node.nodeId(),
                node.path()).toBlocking().single();
    }

    /**
     * Bytes {@code start} to {@code end} (inclusive), or from {@code start} to the end when {@code end} is negative
     * ({@code ocp-range: bytes=START-END} or {@code bytes=START-}; Batch documents no suffix form).
     */
    byte[] range(FileLocation file, long start, long end) {
        String range = "bytes=" + start + "-" + (end < 0 ? "" : Long.toString(end));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            if (file instanceof FileLocation.TaskFile task) {
                protocol.files().getFromTask(task.jobId(), task.taskId(), task.path(),
                        new FileGetFromTaskOptions().withOcpRange(range), out);
            } else {
                FileLocation.NodeFile node = (FileLocation.NodeFile) file;
                protocol.files().getFromComputeNode(node.poolId(), node.nodeId(), node.path(),
                        new FileGetFromComputeNodeOptions().withOcpRange(range), out);
            }
            return out.toByteArray();
        } catch (BatchErrorException e) {
            if (absent(e, file) || e.response() != null && e.response().code() == 416) {
                return NONE;
            }
            throw e;
        }
    }

    /** Whether the error says "not there yet"; throws {@link FilesGone} when it says "never again". */
    private static boolean absent(BatchErrorException e, FileLocation file) {
        String code = e.body() == null ? null : e.body().code();
        if (TASK_FILES_CLEANED_UP.equals(code) || NODE_NOT_FOUND.equals(code)) {
            String where = file instanceof FileLocation.NodeFile node ? " on node " + node.nodeId() : "";
            throw new FilesGone(file.path() + where + " is gone: Batch removed it (" + code + ": "
                    + (e.body().message() == null ? "" : e.body().message().value()) + "). A task's files live on "
                    + "the node that ran it, until its taskRetention passes or the node leaves the pool");
        }
        // A HEAD answers 404 without a body: the file is not there (yet).
        return e.response() != null && e.response().code() == 404 && (code == null || FILE_NOT_FOUND.equals(code));
    }
}
