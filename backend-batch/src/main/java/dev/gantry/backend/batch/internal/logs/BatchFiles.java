package dev.gantry.backend.batch.internal.logs;

import com.microsoft.azure.batch.protocol.BatchServiceClient;
import com.microsoft.azure.batch.protocol.models.FileGetFromComputeNodeOptions;
import com.microsoft.azure.batch.protocol.models.FileGetFromTaskOptions;
import com.microsoft.rest.ServiceResponse;
import dev.gantry.backend.batch.internal.remote.AccountCalls;
import dev.gantry.backend.batch.internal.remote.BatchCalls;
import dev.gantry.backend.batch.internal.remote.BatchRefusal;
import dev.gantry.backend.batch.internal.remote.Refused;
import java.io.ByteArrayOutputStream;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Reads task and node files, one protocol call per method, each through the one retry policy. Files are read into an
 * {@code OutputStream}: the SDK's {@code InputStream} form of {@code files().getFromTask} failed with "Socket closed"
 * (the response is closed before the stream is read). A file not there yet is empty ({@code FileNotFound}); a range
 * past its end is no bytes ({@code 416 InvalidRange}); files Batch removed are {@link FilesGone}.
 */
final class BatchFiles {
    static final String FILE_NOT_FOUND = "FileNotFound";
    static final String TASK_FILES_CLEANED_UP = "TaskFilesCleanedup";
    static final String NODE_NOT_FOUND = "NodeNotFound";
    private static final Set<String> GONE = Set.of(TASK_FILES_CLEANED_UP, NODE_NOT_FOUND);
    private static final byte[] NONE = new byte[0];

    private final AccountCalls calls;

    BatchFiles(AccountCalls calls) {
        this.calls = Objects.requireNonNull(calls, "calls");
    }

    /**
     * The file's length (its properties), or empty when it is not there yet. Read from the raw response's
     * {@code Content-Length}, looked up without regard to case: the SDK's typed headers map it by exact name, and a
     * server that spells it {@code Content-length} (the JDK's HTTP server does) would read as no length at all.
     */
    Optional<Long> length(FileLocation file) {
        String what = "reading the length of " + describe(file);
        ServiceResponse<?> response;
        try {
            response = calls.call(what, BatchFiles::readsAsAnswer, batch -> properties(batch, file));
        } catch (Refused refused) {
            if (absent(refused.refusal(), file)) {
                return Optional.empty();
            }
            if (BatchRefusal.NO_CODE.equals(refused.code())) {
                // A HEAD's error has no body, so no code: a one-byte GET of the same file names it (files Batch
                // removed become FilesGone, 409 TaskFilesCleanedup); otherwise the HEAD's own error stands.
                range(file, 0, 0);
            }
            throw BatchCalls.failure(what, refused.refusal());
        }
        // A HEAD's answer is in headResponse(), not response().
        okhttp3.Headers headers = response.response() != null ? response.response().headers()
                : response.headResponse().headers();
        String length = headers.get("Content-Length");
        return Optional.of(length == null ? 0L : Long.parseLong(length.strip()));
    }

    private static ServiceResponse<?> properties(BatchServiceClient batch, FileLocation file) {
        if (file instanceof FileLocation.TaskFile task) {
            return batch.files().getPropertiesFromTaskWithServiceResponseAsync(task.jobId(), task.taskId(),
                    task.path()).toBlocking().single();
        }
        FileLocation.NodeFile node = (FileLocation.NodeFile) file;
        return batch.files().getPropertiesFromComputeNodeWithServiceResponseAsync(node.poolId(), node.nodeId(),
                node.path()).toBlocking().single();
    }

    /**
     * Bytes {@code start} to {@code end} (inclusive), or from {@code start} to the end when {@code end} is negative
     * ({@code ocp-range: bytes=START-END} or {@code bytes=START-}; Batch documents no suffix form).
     */
    byte[] range(FileLocation file, long start, long end) {
        String range = "bytes=" + start + "-" + (end < 0 ? "" : Long.toString(end));
        String what = "reading " + describe(file);
        try {
            return calls.call(what, BatchFiles::readsAsAnswer, batch -> {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                if (file instanceof FileLocation.TaskFile task) {
                    batch.files().getFromTask(task.jobId(), task.taskId(), task.path(),
                            new FileGetFromTaskOptions().withOcpRange(range), out);
                } else {
                    FileLocation.NodeFile node = (FileLocation.NodeFile) file;
                    batch.files().getFromComputeNode(node.poolId(), node.nodeId(), node.path(),
                            new FileGetFromComputeNodeOptions().withOcpRange(range), out);
                }
                return out.toByteArray();
            });
        } catch (Refused refused) {
            if (absent(refused.refusal(), file) || refused.refusal().status() == 416) {
                return NONE;
            }
            throw BatchCalls.failure(what, refused.refusal());
        }
    }

    /** The refusals a file read reads itself: not there (yet), gone, past the end, or a HEAD's without a code. */
    private static boolean readsAsAnswer(BatchRefusal refusal) {
        return refusal.status() == 404 || refusal.status() == 416 || GONE.contains(refusal.code())
                || BatchRefusal.NO_CODE.equals(refusal.code());
    }

    /** Whether the refusal says "not there yet"; throws {@link FilesGone} when it says "never again". */
    private static boolean absent(BatchRefusal refusal, FileLocation file) {
        if (GONE.contains(refusal.code())) {
            String where = file instanceof FileLocation.NodeFile node ? " on node " + node.nodeId() : "";
            throw new FilesGone(file.path() + where + " is gone: Batch removed it (" + refusal.code() + ": "
                    + refusal.message() + "). A task's files live on the node that ran it, until its taskRetention "
                    + "passes or the node leaves the pool");
        }
        // A HEAD answers 404 without a body: the file is not there (yet).
        return refusal.status() == 404 && (BatchRefusal.NO_CODE.equals(refusal.code())
                || FILE_NOT_FOUND.equals(refusal.code()));
    }

    private static String describe(FileLocation file) {
        return file instanceof FileLocation.TaskFile task ? file.path() + " of task " + task.taskId() + " of job "
                + task.jobId() : file.path() + " on node " + ((FileLocation.NodeFile) file).nodeId() + " of pool "
                + ((FileLocation.NodeFile) file).poolId();
    }
}
