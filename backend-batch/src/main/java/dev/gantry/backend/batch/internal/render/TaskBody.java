package dev.gantry.backend.batch.internal.render;

import com.microsoft.azure.batch.protocol.models.AutoUserScope;
import com.microsoft.azure.batch.protocol.models.AutoUserSpecification;
import com.microsoft.azure.batch.protocol.models.ComputeNodeIdentityReference;
import com.microsoft.azure.batch.protocol.models.ContainerWorkingDirectory;
import com.microsoft.azure.batch.protocol.models.ElevationLevel;
import com.microsoft.azure.batch.protocol.models.MultiInstanceSettings;
import com.microsoft.azure.batch.protocol.models.ResourceFile;
import com.microsoft.azure.batch.protocol.models.TaskAddParameter;
import com.microsoft.azure.batch.protocol.models.TaskConstraints;
import com.microsoft.azure.batch.protocol.models.TaskContainerSettings;
import com.microsoft.azure.batch.protocol.models.TaskDependencies;
import com.microsoft.azure.batch.protocol.models.UserIdentity;
import dev.gantry.api.ContainerSpec;
import dev.gantry.api.Plan;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobNames;
import dev.gantry.api.backend.SubmitOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The body of a task add (one element of an add-task-collection) for one submission. */
public final class TaskBody {
    /** Batch's longest task id. */
    public static final int MAX_TASK_ID = 64;
    /** Batch refuses a dependency list whose task ids add up to more than this (TaskDependencyListTooLong). */
    public static final int MAX_DEPENDENCY_CHARS = 64_000;

    /**
     * Where a task's secrets file is, for Batch to fetch with the pools' identity: parameters, never values.
     *
     * @param blobUrl the blob holding the secrets file ({@link SecretsFile})
     * @param identityResourceId the user-assigned identity Batch reads it with
     */
    public record SecretsBlob(String blobUrl, String identityResourceId) {
        public SecretsBlob {
            Objects.requireNonNull(blobUrl, "blobUrl");
            Objects.requireNonNull(identityResourceId, "identityResourceId");
        }
    }

    /**
     * What a task is rendered from.
     *
     * @param plan the plan
     * @param options its idempotency key, attempt and dependencies
     * @param account the account's name
     * @param jobId the Batch job of the plan's pool
     * @param masterPort {@code MASTER_PORT}
     * @param retention {@code taskRetention}
     * @param containerRunOptions extra run options of a container task (the GPU vendor's device options), one
     *     token each
     * @param secrets the secrets file's blob, when the workload has secrets
     */
    public record Input(Plan plan, SubmitOptions options, String account, String jobId, int masterPort,
                        Duration retention, List<String> containerRunOptions, Optional<SecretsBlob> secrets) {
        public Input {
            Objects.requireNonNull(plan, "plan");
            Objects.requireNonNull(options, "options");
            Objects.requireNonNull(account, "account");
            Objects.requireNonNull(jobId, "jobId");
            Objects.requireNonNull(retention, "retention");
            containerRunOptions = List.copyOf(containerRunOptions);
            Objects.requireNonNull(secrets, "secrets");
        }
    }

    /** What to do with a submission. */
    public sealed interface Result permits Ready, Hold {
    }

    /**
     * Add this task now.
     *
     * @param ref the task's reference ({@link TaskRef#id()} is the JobRef's id)
     * @param task the body
     */
    public record Ready(TaskRef ref, TaskAddParameter task) implements Result {
    }

    /**
     * Batch cannot carry these dependencies: Gantry holds the submission and renders it again, without them, once
     * each has ended as it must.
     *
     * @param waitFor the dependencies Gantry waits for itself
     * @param reason why they are not Batch task dependencies
     */
    public record Hold(List<JobDependency> waitFor, String reason) implements Result {
        public Hold {
            waitFor = List.copyOf(waitFor);
        }
    }

    private TaskBody() {
    }

    /** The task's id: the idempotency key made into a Batch id, so a retried submit meets its own task. */
    public static String taskId(SubmitOptions options) {
        return JobNames.caseInsensitiveId(options.idempotencyKey(), MAX_TASK_ID);
    }

    public static Result render(Input input) {
        TaskRef ref = new TaskRef(input.account(), input.jobId(), taskId(input.options()));
        List<String> nativeIds = new ArrayList<>();
        List<JobDependency> held = new ArrayList<>();
        for (JobDependency dependency : input.options().dependencies()) {
            Optional<TaskRef> other = TaskRef.parse(dependency.job().id());
            // Batch's dependencies start a task only after its dependencies succeeded, within one job.
            boolean sameJob = other.isPresent() && other.get().account().equals(ref.account())
                    && other.get().jobId().equals(ref.jobId());
            if (dependency.condition() == JobDependency.Condition.AFTER_SUCCESS && sameJob) {
                nativeIds.add(other.get().taskId());
            } else {
                held.add(dependency);
            }
        }
        if (!held.isEmpty()) {
            return new Hold(held, "Batch task dependencies start a task only after tasks of its own job succeeded; "
                    + "Gantry waits itself for dependencies in another pool or that may end in any state");
        }
        int chars = nativeIds.stream().mapToInt(String::length).sum();
        if (chars > MAX_DEPENDENCY_CHARS) {
            return new Hold(input.options().dependencies(), "the dependencies' task ids add up to " + chars
                    + " characters, over Batch's " + MAX_DEPENDENCY_CHARS + " (TaskDependencyListTooLong)");
        }
        return new Ready(ref, task(input, ref, nativeIds));
    }

    private static TaskAddParameter task(Input input, TaskRef ref, List<String> dependsOn) {
        Plan plan = input.plan();
        TaskAddParameter task = new TaskAddParameter().withId(ref.taskId())
                .withDisplayName(plan.workload().name())
                .withCommandLine(plan.nodes() > 1 ? CoordinationCommand.APPLICATION_LINE : Launcher.COMMAND_LINE)
                .withEnvironmentSettings(TaskEnvironment.of(ref.id(), plan, input.options(), input.masterPort()))
                .withUserIdentity(new UserIdentity().withAutoUser(new AutoUserSpecification()
                        .withScope(AutoUserScope.TASK).withElevationLevel(ElevationLevel.NON_ADMIN)))
                // Batch never retries: a failure is the workload's, and Gantry's attempts are core's to decide.
                .withConstraints(new TaskConstraints().withMaxTaskRetryCount(0)
                        .withRetentionTime(Periods.of(input.retention())));
        plan.workload().container().map(ContainerSpec::image).ifPresent(image -> task.withContainerSettings(
                container(image, input.containerRunOptions())));
        Optional<ResourceFile> secrets = input.secrets().map(TaskBody::secretsFile);
        if (plan.nodes() > 1) {
            MultiInstanceSettings multi = new MultiInstanceSettings().withNumberOfInstances(plan.nodes())
                    .withCoordinationCommandLine(CoordinationCommand.COORDINATION_LINE);
            // Common resource files reach every node (into the task's root directory); task ones the primary only.
            secrets.ifPresent(file -> multi.withCommonResourceFiles(List.of(file)));
            task.withMultiInstanceSettings(multi);
        } else {
            secrets.ifPresent(file -> task.withResourceFiles(List.of(file)));
        }
        if (!dependsOn.isEmpty()) {
            task.withDependsOn(new TaskDependencies().withTaskIds(dependsOn));
        }
        return task;
    }

    private static TaskContainerSettings container(String image, List<String> runOptions) {
        for (String option : runOptions) {
            if (option.isEmpty() || option.chars().anyMatch(c -> Character.isWhitespace(c) || c == '"' || c == '\'')) {
                throw new IllegalArgumentException("container run option '" + option + "' must be one token without "
                        + "spaces or quotes");
            }
        }
        TaskContainerSettings settings = new TaskContainerSettings().withImageName(image)
                .withWorkingDirectory(ContainerWorkingDirectory.TASK_WORKING_DIRECTORY);
        if (!runOptions.isEmpty()) {
            settings.withContainerRunOptions(String.join(" ", runOptions));
        }
        return settings;
    }

    private static ResourceFile secretsFile(SecretsBlob blob) {
        return new ResourceFile().withHttpUrl(blob.blobUrl()).withFilePath(Launcher.SECRETS_FILE).withFileMode("0600")
                .withIdentityReference(new ComputeNodeIdentityReference().withResourceId(blob.identityResourceId()));
    }
}
