package dev.gantry.backend.batch.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.azure.AzureResponseBuilder;
import com.microsoft.azure.PagedList;
import com.microsoft.azure.batch.BatchClient;
import com.microsoft.azure.batch.auth.BatchSharedKeyCredentials;
import com.microsoft.azure.batch.protocol.BatchServiceClient;
import com.microsoft.azure.batch.protocol.models.BatchErrorException;
import com.microsoft.azure.batch.protocol.models.CloudTask;
import com.microsoft.azure.batch.protocol.models.EnvironmentSetting;
import com.microsoft.azure.batch.protocol.models.FileGetFromTaskOptions;
import com.microsoft.azure.batch.protocol.models.JobAddParameter;
import com.microsoft.azure.batch.protocol.models.MetadataItem;
import com.microsoft.azure.batch.protocol.models.MultiInstanceSettings;
import com.microsoft.azure.batch.protocol.models.OnAllTasksComplete;
import com.microsoft.azure.batch.protocol.models.PoolAddParameter;
import com.microsoft.azure.batch.protocol.models.PoolInformation;
import com.microsoft.azure.batch.protocol.models.StartTask;
import com.microsoft.azure.batch.protocol.models.TaskAddCollectionResult;
import com.microsoft.azure.batch.protocol.models.TaskAddParameter;
import com.microsoft.azure.batch.protocol.models.TaskAddStatus;
import com.microsoft.azure.batch.protocol.models.TaskDependencies;
import com.microsoft.azure.batch.protocol.models.TaskListOptions;
import com.microsoft.azure.batch.protocol.models.TaskState;
import com.microsoft.azure.serializer.AzureJacksonAdapter;
import com.microsoft.rest.RestClient;
import dev.gantry.backend.batch.fake.BatchFake;
import dev.gantry.backend.batch.fake.BatchFakeOptions;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The SDK's protocol layer against the fake with shared key: the fake verifies the SDK's signatures with its own
 * implementation of the scheme, and takes the bodies the SDK's serializer writes (so the fake's schema and the SDK's
 * models agree), and the SDK reads the fake's answers (paged lists through odata.nextLink, files with ocp-range).
 */
class BatchFakeSdkRoundTripTest {
    private final BatchFake fake = new BatchFake(new BatchFakeOptions().auth(true, false)
            .autoscaleInterval(Duration.ofMillis(100)));

    @AfterEach
    void close() {
        fake.close();
    }

    private BatchServiceClient client(String key) {
        RestClient rest = new RestClient.Builder()
                .withBaseUrl(fake.url() + "/")
                .withCredentials(new BatchSharedKeyCredentials(fake.url(), fake.accountName(), key))
                .withSerializerAdapter(new AzureJacksonAdapter())
                .withResponseBuilderFactory(new AzureResponseBuilder.Factory())
                .build();
        return BatchClient.open(rest, fake.url()).protocolLayer();
    }

    @Test
    void theSdksSignedRequestsAndBodiesAreAcceptedAndItsReadsWork() throws Exception {
        BatchServiceClient batch = client(fake.accountKey());
        batch.pools().add(new PoolAddParameter().withId("sdk-pool").withVmSize("standard_d2s_v3")
                .withVirtualMachineConfiguration(FakeAccounts.ubuntuWithContainers())
                .withEnableAutoScale(true).withAutoScaleFormula("$TargetDedicatedNodes=2;")
                .withAutoScaleEvaluationInterval(org.joda.time.Period.minutes(5))
                .withEnableInterNodeCommunication(true).withTaskSlotsPerNode(1)
                .withStartTask(new StartTask().withCommandLine("/bin/sh -c 'true'").withWaitForSuccess(true))
                .withMetadata(List.of(new MetadataItem().withName("gantry").withValue("1"))));
        batch.jobs().add(new JobAddParameter().withId("sdk-job")
                .withPoolInfo(new PoolInformation().withPoolId("sdk-pool")).withUsesTaskDependencies(true)
                .withOnAllTasksComplete(OnAllTasksComplete.NO_ACTION));
        List<TaskAddParameter> tasks = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            tasks.add(new TaskAddParameter().withId("t" + i).withCommandLine("/bin/sh -c 'echo $WORD " + i + "'")
                    .withEnvironmentSettings(List.of(new EnvironmentSetting().withName("WORD").withValue("hello"))));
        }
        tasks.add(new TaskAddParameter().withId("after").withCommandLine("true")
                .withDependsOn(new TaskDependencies().withTaskIds(List.of("t0"))));
        tasks.add(new TaskAddParameter().withId("multi").withCommandLine("true")
                .withMultiInstanceSettings(new MultiInstanceSettings().withNumberOfInstances(2)
                        .withCoordinationCommandLine("true")));
        TaskAddCollectionResult result = batch.tasks().addCollection("sdk-job", tasks);
        assertEquals(7, result.value().size());
        result.value().forEach(r -> assertEquals(TaskAddStatus.SUCCESS, r.status(), r.taskId()));

        PagedList<CloudTask> listed = batch.tasks().list("sdk-job", new TaskListOptions().withMaxResults(2)
                .withSelect("id,state,stateTransitionTime,executionInfo")
                .withFilter("stateTransitionTime ge datetime'2020-01-01T00:00:00Z'"));
        listed.loadAll();
        assertEquals(7, listed.size(), "the SDK followed odata.nextLink to the end");

        Instant deadline = Instant.now().plusSeconds(20);
        CloudTask t3 = batch.tasks().get("sdk-job", "t3");
        while (t3.state() != TaskState.COMPLETED && Instant.now().isBefore(deadline)) {
            Thread.sleep(50);
            t3 = batch.tasks().get("sdk-job", "t3");
        }
        assertEquals(TaskState.COMPLETED, t3.state());
        assertEquals(0, t3.executionInfo().exitCode());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        batch.files().getFromTask("sdk-job", "t3", "stdout.txt",
                new FileGetFromTaskOptions().withOcpRange("bytes=0-4"), out);
        assertEquals("hello", out.toString(StandardCharsets.UTF_8));
        assertTrue(fake.count("Task_List") >= 4, fake.counts().toString());
    }

    @Test
    void aWrongKeyIsAuthenticationFailed() {
        String wrong = java.util.Base64.getEncoder().encodeToString(new byte[64]);
        BatchErrorException e = assertThrows(BatchErrorException.class, () -> client(wrong).pools().list());
        assertEquals(403, e.response().code());
        assertEquals("AuthenticationFailed", e.body().code());
    }
}
