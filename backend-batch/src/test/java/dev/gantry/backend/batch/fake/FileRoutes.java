package dev.gantry.backend.batch.fake;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Files of a task (relative to its directory on its primary node: {@code stdout.txt}, {@code stderr.txt},
 * {@code wd/...}) and of a node (relative to its root): GET, with {@code ocp-range: bytes=START-END} or
 * {@code bytes=START-}, and HEAD for the properties ({@code Content-Length}, {@code ocp-creation-time},
 * {@code ocp-batch-file-isdirectory}, {@code ocp-batch-file-url}, {@code ocp-batch-file-mode}).
 */
final class FileRoutes {
    private static final Pattern RANGE = Pattern.compile("bytes=(\\d+)-(\\d*)");

    private final FakeState state;

    FileRoutes(FakeState state) {
        this.state = state;
    }

    FakeResponse taskFile(FakeRequest request, boolean head) {
        FakeTask task = state.task(request.segment(1), request.segment(3));
        String nodeId = task.json.path("nodeInfo").path("nodeId").asText(null);
        if (nodeId == null) {
            throw BatchError.notFound("FileNotFound", "file");
        }
        FakeNode node = state.anyNode(nodeId);
        if (node == null) {
            throw BatchError.conflict("TaskFilesCleanedup", "The files of the task were cleaned up: the node "
                    + nodeId + " that ran it is no longer in the pool.");
        }
        Path dir = TaskLaunch.taskDir(node, task.jobId, task.id());
        return file(request, dir, relative(request.segments(), 5), head);
    }

    FakeResponse nodeFile(FakeRequest request, boolean head) {
        FakeNode node = state.node(request.segment(1), request.segment(3));
        return file(request, node.root, relative(request.segments(), 5), head);
    }

    private static String relative(List<String> segments, int from) {
        return String.join("/", segments.subList(from, segments.size()));
    }

    private FakeResponse file(FakeRequest request, Path base, String relative, boolean head) {
        Path file = base.resolve(relative).normalize();
        if (relative.isEmpty() || !file.startsWith(base) || !Files.isRegularFile(file)) {
            throw BatchError.notFound("FileNotFound", "file");
        }
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            long length = attributes.size();
            FakeResponse response;
            if (head) {
                response = FakeResponse.empty(200).header("Content-Length", Long.toString(length));
            } else {
                response = FakeResponse.bytes(200, read(file, request.header("ocp-range"), length),
                        "application/octet-stream");
            }
            return response.header("ocp-creation-time", Json.httpDate(attributes.creationTime().toInstant()))
                    .header("ocp-batch-file-isdirectory", "false")
                    .header("ocp-batch-file-url", state.baseUrl + request.rawPath())
                    .header("ocp-batch-file-mode", "0100644")
                    .header("Last-Modified", Json.httpDate(Instant.ofEpochMilli(
                            attributes.lastModifiedTime().toMillis())));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] read(Path file, String range, long length) throws IOException {
        if (range == null) {
            return Files.readAllBytes(file);
        }
        Matcher matcher = RANGE.matcher(range.strip());
        if (!matcher.matches()) {
            throw new BatchError(416, "InvalidRange", "The range specified is invalid for the current size of the "
                    + "resource.", java.util.Map.of("Range", range));
        }
        long start = Long.parseLong(matcher.group(1));
        long end = matcher.group(2).isEmpty() ? length - 1 : Math.min(Long.parseLong(matcher.group(2)), length - 1);
        if (start >= length || end < start) {
            throw new BatchError(416, "InvalidRange", "The range specified is invalid for the current size of the "
                    + "resource.", java.util.Map.of("Range", range, "ResourceLength", Long.toString(length)));
        }
        byte[] bytes = new byte[(int) (end - start + 1)];
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            in.seek(start);
            in.readFully(bytes);
        }
        return bytes;
    }
}
