package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Starts a command of a task on a node as Batch does on Linux: the command line through {@code /bin/sh -c}, in the
 * task's working directory {@code workitems/JOB/job-1/TASK/wd} under the node's root, its output in the task
 * directory's {@code stdout.txt} and {@code stderr.txt}, with the job's and the task's environment settings and
 * Batch's {@code AZ_BATCH_*} variables (for a multi-instance task also the host list and the master node).
 */
final class TaskLaunch {
    static final String PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
    /** The port Batch names in AZ_BATCH_MASTER_NODE. */
    static final int MASTER_PORT = 6000;

    private final FakeState state;

    TaskLaunch(FakeState state) {
        this.state = state;
    }

    static Path taskDir(FakeNode node, String jobId, String taskId) {
        return node.root.resolve("workitems").resolve(jobId).resolve("job-1").resolve(taskId);
    }

    /** Makes the node's directories (shared, startup, workitems). */
    static void prepareNode(FakeNode node) throws IOException {
        Files.createDirectories(node.root.resolve("shared"));
        Files.createDirectories(node.root.resolve("startup").resolve("wd"));
        Files.createDirectories(node.root.resolve("workitems"));
    }

    /**
     * Writes resource files: a task's into its working directory, a multi-instance task's common ones into the task
     * directory, one above it (MultiInstanceSettings.commonResourceFiles says so); a failure names the file and why.
     */
    void fetchResourceFiles(FakePool pool, FakeTask task, FakeNode node, JsonNode resourceFiles, boolean common)
            throws IOException {
        Path dir = taskDir(node, task.jobId, task.id());
        Path into = common ? dir : dir.resolve("wd");
        Files.createDirectories(dir.resolve("wd"));
        for (JsonNode file : resourceFiles) {
            String url = file.path("httpUrl").asText(null);
            if (url == null) {
                throw new ResourceFileFailure("ResourceFileDownloadFailed", "the fake reads httpUrl resource files "
                        + "only; this one has " + file);
            }
            String identity = file.path("identityReference").path("resourceId").asText(null);
            if (identity != null && !pool.identities.contains(identity)) {
                throw new ResourceFileFailure("BlobAccessDenied", "the pool " + pool.id + " has no identity "
                        + identity + " to read " + url);
            }
            byte[] content;
            try {
                content = state.options.blobs.read(url, identity);
            } catch (IOException e) {
                throw new ResourceFileFailure("BlobDownloadMiscError", "cannot read " + url + ": " + e.getMessage());
            }
            Path target = into.resolve(file.path("filePath").asText(Path.of(url.replaceAll("[?].*", ""))
                    .getFileName().toString())).normalize();
            if (!target.startsWith(into)) {
                throw new ResourceFileFailure("ResourceFileDownloadFailed", "filePath leaves the "
                        + (common ? "task" : "working") + " directory: " + file.path("filePath").asText());
            }
            Files.createDirectories(target.getParent());
            Files.write(target, content);
            String mode = file.path("fileMode").asText(null);
            if (mode != null) {
                Files.setPosixFilePermissions(target, PosixFilePermissions.fromString(permissions(mode)));
            }
        }
    }

    /** Starts a command line of the task on the node; {@code rank} is the node's place among the task's nodes. */
    NodeProcesses.Handle start(FakeJob job, FakeTask task, FakeNode node, String commandLine, int rank)
            throws IOException {
        Path dir = taskDir(node, task.jobId, task.id());
        Path wd = dir.resolve("wd");
        Files.createDirectories(wd);
        Map<String, String> environment = environment(job, task, node, rank, dir);
        JsonNode container = task.json.get("containerSettings");
        if (container == null) {
            return state.options.processes.start(node.id, List.of("/bin/sh", "-c", commandLine), environment, wd,
                    dir.resolve("stdout.txt"), dir.resolve("stderr.txt"));
        }
        ContainerTasks.prepare();
        String name = ContainerTasks.name(node.id, task.id());
        return new ContainerTasks.Handle(state.options.processes.startContainerClient(node.id,
                ContainerTasks.argv(container, environment, node.root, wd, commandLine, name,
                        state.options.processes.containerNetwork(node.id)), environment, wd,
                dir.resolve("stdout.txt"), dir.resolve("stderr.txt")), name);
    }

    private Map<String, String> environment(FakeJob job, FakeTask task, FakeNode node, int rank, Path dir) {
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("PATH", PATH);
        environment.put("HOME", dir.resolve("wd").toString());
        job.added.path("commonEnvironmentSettings").forEach(setting -> environment.put(
                setting.get("name").asText(), setting.path("value").asText("")));
        task.json.path("environmentSettings").forEach(setting -> environment.put(
                setting.get("name").asText(), setting.path("value").asText("")));
        environment.put("AZ_BATCH_ACCOUNT_NAME", state.options.account);
        environment.put("AZ_BATCH_ACCOUNT_URL", state.baseUrl + "/");
        environment.put("AZ_BATCH_POOL_ID", node.poolId);
        environment.put("AZ_BATCH_NODE_ID", node.id);
        environment.put("AZ_BATCH_NODE_IS_DEDICATED", Boolean.toString(node.dedicated));
        environment.put("AZ_BATCH_NODE_ROOT_DIR", node.root.toString());
        environment.put("AZ_BATCH_NODE_SHARED_DIR", node.root.resolve("shared").toString());
        environment.put("AZ_BATCH_NODE_STARTUP_DIR", node.root.resolve("startup").toString());
        environment.put("AZ_BATCH_JOB_ID", job.id);
        environment.put("AZ_BATCH_TASK_ID", task.id());
        environment.put("AZ_BATCH_TASK_DIR", dir.toString());
        environment.put("AZ_BATCH_TASK_WORKING_DIR", dir.resolve("wd").toString());
        if (task.json.has("multiInstanceSettings")) {
            List<String> addresses = task.nodeIds.stream()
                    .map(id -> state.options.processes.address(id)).toList();
            environment.put("AZ_BATCH_HOST_LIST", String.join(",", addresses));
            environment.put("AZ_BATCH_NODE_LIST", String.join(";", addresses));
            environment.put("AZ_BATCH_MASTER_NODE", addresses.get(0) + ":" + MASTER_PORT);
            environment.put("AZ_BATCH_IS_CURRENT_NODE_MASTER", Boolean.toString(rank == 0));
            environment.put("AZ_BATCH_TASK_SHARED_DIR", dir.toString());
        }
        return environment;
    }

    private static String permissions(String octal) {
        int mode = Integer.parseInt(octal, 8);
        StringBuilder text = new StringBuilder();
        for (int shift = 6; shift >= 0; shift -= 3) {
            int bits = mode >> shift;
            text.append((bits & 4) != 0 ? 'r' : '-').append((bits & 2) != 0 ? 'w' : '-')
                    .append((bits & 1) != 0 ? 'x' : '-');
        }
        return text.toString();
    }

    /** A resource file that could not be placed: the task fails before its command, with Batch's code. */
    static final class ResourceFileFailure extends IOException {
        private static final long serialVersionUID = 1L;
        final String code;

        ResourceFileFailure(String code, String message) {
            super(message);
            this.code = code;
        }
    }
}
