package dev.gantry.backend.batch.internal.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.azure.batch.protocol.models.AutoUserScope;
import com.microsoft.azure.batch.protocol.models.AutoUserSpecification;
import com.microsoft.azure.batch.protocol.models.ComputeNodeIdentityReference;
import com.microsoft.azure.batch.protocol.models.ContainerWorkingDirectory;
import com.microsoft.azure.batch.protocol.models.ElevationLevel;
import com.microsoft.azure.batch.protocol.models.EnvironmentSetting;
import com.microsoft.azure.batch.protocol.models.MultiInstanceSettings;
import com.microsoft.azure.batch.protocol.models.ResourceFile;
import com.microsoft.azure.batch.protocol.models.TaskAddCollectionResult;
import com.microsoft.azure.batch.protocol.models.TaskAddOptions;
import com.microsoft.azure.batch.protocol.models.TaskAddParameter;
import com.microsoft.azure.batch.protocol.models.TaskAddStatus;
import com.microsoft.azure.batch.protocol.models.TaskConstraints;
import com.microsoft.azure.batch.protocol.models.TaskContainerSettings;
import com.microsoft.azure.batch.protocol.models.TaskDependencies;
import com.microsoft.azure.batch.protocol.models.UserIdentity;
import com.microsoft.azure.serializer.AzureJacksonAdapter;
import com.microsoft.rest.Validator;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InaccessibleObjectException;
import java.util.List;
import java.util.UUID;
import org.joda.time.Period;
import org.junit.jupiter.api.Test;

/**
 * The module runs on Java 17 as Gantry runs it, with no {@code --add-opens}: neither the parent pom nor this module
 * gives surefire one (this JVM is the proof), the SDK's serializer reads and writes a task body with every part Gantry
 * uses, and a protocol-layer call (validation, serialization, the request, the answer) goes through.
 */
class ProtocolLayerOnJava17Test {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theTestJvmOpensNothingOfTheJdk() {
        List<String> arguments = ManagementFactory.getRuntimeMXBean().getInputArguments();
        assertTrue(arguments.stream().noneMatch(argument -> argument.contains("add-opens")), arguments.toString());
        assertFalse(Object.class.getModule().isOpen("java.util", getClass().getModule()),
                "java.util must not be open to the class path");
        assertTrue(Runtime.version().feature() >= 17, Runtime.version().toString());
    }

    @Test
    void theSdksWrapperOptionsWouldFailHereWhichIsWhyTheyAreNeverUsed() {
        // What the *Operations wrappers do: a client-request-id UUID in the options, which client-runtime's Validator
        // reflects into. Without --add-opens java.base/java.util it cannot.
        TaskAddOptions options = new TaskAddOptions().withClientRequestId(UUID.randomUUID());
        assertThrows(InaccessibleObjectException.class, () -> Validator.validate(options));
    }

    @Test
    void aTaskBodyRoundTripsThroughTheSdksSerializer() throws Exception {
        AzureJacksonAdapter serializer = new AzureJacksonAdapter();
        String json = serializer.serialize(task("task-1"));
        TaskAddParameter read = serializer.deserialize(json, TaskAddParameter.class);
        assertEquals(JSON.readTree(json), JSON.readTree(serializer.serialize(read)));
        JsonNode tree = JSON.readTree(json);
        assertEquals("P7D", tree.path("constraints").path("retentionTime").asText());
        assertEquals("0600", tree.path("resourceFiles").path(0).path("fileMode").asText());
        assertEquals("taskWorkingDirectory", tree.path("containerSettings").path("workingDirectory").asText());
        assertEquals("task", tree.path("userIdentity").path("autoUser").path("scope").asText());
        assertEquals("arg with 'quotes' and $dollars", tree.path("environmentSettings").path(1).path("value").asText());
    }

    @Test
    void aProtocolLayerCallGoesThroughWithoutAddOpens() throws Exception {
        try (LocalBatchService service = LocalBatchService.http()) {
            service.answer((exchange, request) -> LocalBatchService.json(exchange, 200,
                    "{\"value\":[{\"status\":\"success\",\"taskId\":\"task-1\",\"eTag\":\"0x8D\"}]}"));
            TaskAddCollectionResult result;
            try (BatchConnection batch = BatchConnection.open(BatchAccountUrl.of(service.url()),
                    new BatchAuth.Entra(scope -> "t"))) {
                result = batch.protocol().tasks().addCollection("job-1", List.of(task("task-1")));
            }
            assertEquals(TaskAddStatus.SUCCESS, result.value().get(0).status());
            LocalBatchService.Received request = service.received().get(0);
            assertEquals("/jobs/job-1/addtaskcollection", request.rawPath());
            JsonNode sent = JSON.readTree(request.body()).path("value").path(0);
            assertEquals(JSON.readTree(new AzureJacksonAdapter().serialize(task("task-1"))), sent);
        }
    }

    private static TaskAddParameter task(String id) {
        ResourceFile secrets = new ResourceFile()
                .withHttpUrl("https://gantrysecrets.blob.core.windows.net/secrets/" + id)
                .withFilePath(".gantry-secrets").withFileMode("0600")
                .withIdentityReference(new ComputeNodeIdentityReference().withResourceId("/subscriptions/s/"
                        + "resourceGroups/g/providers/Microsoft.ManagedIdentity/userAssignedIdentities/gantry"));
        return new TaskAddParameter().withId(id).withCommandLine("/bin/sh -c 'exec \"$GANTRY_ARG_0\"'")
                .withEnvironmentSettings(List.of(new EnvironmentSetting().withName("GANTRY_ARGC").withValue("1"),
                        new EnvironmentSetting().withName("GANTRY_ARG_0").withValue("arg with 'quotes' and $dollars")))
                .withResourceFiles(List.of(secrets))
                .withContainerSettings(new TaskContainerSettings().withImageName("busybox:1.36")
                        .withContainerRunOptions("--ipc=host")
                        .withWorkingDirectory(ContainerWorkingDirectory.TASK_WORKING_DIRECTORY))
                .withUserIdentity(new UserIdentity().withAutoUser(new AutoUserSpecification()
                        .withScope(AutoUserScope.TASK).withElevationLevel(ElevationLevel.NON_ADMIN)))
                .withConstraints(new TaskConstraints().withMaxTaskRetryCount(0).withRetentionTime(Period.days(7)))
                .withMultiInstanceSettings(new MultiInstanceSettings().withNumberOfInstances(2)
                        .withCoordinationCommandLine("/bin/sh -c 'true'").withCommonResourceFiles(List.of(secrets)))
                .withDependsOn(new TaskDependencies().withTaskIds(List.of("task-0")));
    }
}
