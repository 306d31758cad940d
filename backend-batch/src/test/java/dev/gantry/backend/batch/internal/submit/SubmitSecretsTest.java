package dev.gantry.backend.batch.internal.submit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.SecretRef;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.azure.fakes.BlobFake;
import dev.gantry.backend.batch.fake.BatchFake;
import dev.gantry.backend.batch.fake.BatchFakeOptions;
import dev.gantry.backend.batch.fake.RecordedRequest;
import dev.gantry.backend.batch.internal.records.TaskEntry;
import dev.gantry.backend.batch.internal.remote.AzureAdapters;
import dev.gantry.backend.batch.internal.remote.IdentityPools;
import dev.gantry.backend.batch.internal.render.PoolMetadata;
import dev.gantry.backend.batch.internal.render.TaskChunks;
import dev.gantry.backend.batch.internal.render.WireJson;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task's secret reaches its process through one blob read with the pool's identity, and nowhere else: in no request
 * the Batch fake received, not in the state directory; the blob is deleted on request.
 */
class SubmitSecretsTest {
    private static final String VALUE = "s3cr3t 'quoted' $HOME\\n";

    @TempDir
    Path state;

    private final BlobFake blobs = newBlobFake();
    private final String container = blobs.createContainer("secrets");
    private final BatchFake fake = new BatchFake(new BatchFakeOptions().account(SubmitRig.REGION).auth(true, false)
            .autoscaleInterval(Duration.ofMillis(100))
            .blobs((url, identity) -> blobs.content("secrets", URLDecoder.decode(url.substring(container.length() + 1),
                    StandardCharsets.UTF_8)).orElseThrow(() -> new IOException("no blob " + url))));

    @AfterEach
    void close() {
        fake.close();
        blobs.close();
    }

    private static BlobFake newBlobFake() {
        try {
            return new BlobFake();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Resource Manager's pool PUT as the fake's shared state takes it; PoolExists found and read back. */
    private IdentityPools resourceManager() {
        return (resourceId, body, identity) -> {
            assertEquals(SubmitRig.ACCOUNT_RESOURCE_ID, resourceId);
            try {
                fake.addPoolFromResourceManager(WireJson.compact(body), List.of(identity));
            } catch (IllegalStateException e) {
                assertTrue(e.getMessage().startsWith("PoolExists"), e.getMessage());
            }
            Map<String, String> metadata = new LinkedHashMap<>();
            fake.pool(body.id()).orElseThrow().path("metadata").forEach(item -> metadata.put(item.path("name")
                    .asText(), item.path("value").asText()));
            return metadata;
        };
    }

    /** The submit path with a pool identity made through Resource Manager and the secrets container. */
    private SubmitRig rig() {
        SubmitRig.Identity identity = new SubmitRig.Identity(resourceManager(), URI.create(container),
                AzureAdapters.blobStore(blobs.blobs()));
        SubmitRig rig = new SubmitRig(fake, state, TaskChunks::chunk, 3, Optional.of(identity));
        rig.secretValues.put("env:API_TOKEN", VALUE);
        return rig;
    }

    /** Prints the secret's value (this test's value is no real secret). */
    private static Plan printing() {
        return SubmitRig.plan(Workload.builder("secret").phase(Phase.TRAINING)
                .model(ModelClass.SMALL).resources(Resources.builder().vcpus(1).memoryGib(1))
                .command("/bin/sh", "-c", "printf '%s' \"$API_TOKEN\"")
                .secret("API_TOKEN", SecretRef.parse("env:API_TOKEN")));
    }

    @Test
    void aSecretReachesTheProcessThroughItsBlobOnly() throws Exception {
        try (SubmitRig rig = rig()) {
            TaskEntry entry = rig.submitter.submit(printing(), SubmitOptions.withKey("secret-1"));

            assertEquals(Optional.of("gantry-secrets/" + entry.ref().account() + "/" + entry.jobId() + "/secret-1"),
                    entry.secretsBlob());
            assertTrue(fake.pool(entry.poolId()).orElseThrow().path("metadata").toString()
                    .contains(PoolMetadata.OWNER), "the pool was made through Resource Manager, marked as Gantry's");
            JsonNode task = rig.completed(entry);
            assertEquals(0, task.path("executionInfo").path("exitCode").asInt(-1), task.toString());
            assertEquals(VALUE, rig.stdout(entry), "the value reached the process");

            for (RecordedRequest request : fake.requests()) {
                assertFalse(request.body().contains("s3cr3t"), "a request to Batch holds the value: "
                        + request.operation());
            }
            long uploads = blobs.requests().stream().filter(r -> r.method().equals("PUT")
                    && r.bodyText().contains("s3cr3t")).count();
            assertEquals(1, uploads, "the blob upload is the one request that holds it");
            try (Stream<Path> files = Files.walk(state)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    assertFalse(Files.readString(file).contains("s3cr3t"), "the state directory holds it: " + file);
                }
            }

            assertTrue(rig.secrets.delete(entry.secretsBlob().orElseThrow()));
            assertEquals(Optional.empty(), blobs.content("secrets", entry.secretsBlob().orElseThrow()));
            assertFalse(rig.secrets.delete(entry.secretsBlob().orElseThrow()), "already gone");
        }
    }

    /**
     * A task Batch never added never reads its secrets: its blob goes at once, not at gc a taskRetention later (the
     * add failed for good here: Batch answered 500 to every try).
     */
    @Test
    void theBlobOfATaskBatchNeverAddedIsDeletedAtOnce() {
        try (SubmitRig rig = rig()) {
            fake.faults().serverError("Task_AddCollection", 99);

            GantryException e = assertThrows(GantryException.class,
                    () -> rig.submitter.submit(printing(), SubmitOptions.withKey("refused")));

            assertEquals(ErrorCode.REMOTE_ERROR, e.code(), e.getMessage());
            assertEquals(List.of(), blobs.names("secrets"), "the value left the container with the failure");
            assertEquals(TaskEntry.Phase.FAILED, rig.entries.byKey("refused").orElseThrow().phase());
        }
    }

    /**
     * A reply lost after Batch applied the add, on every try: the submit fails, but Batch has the task, which will
     * read its blob, so the blob stays (the task's end, a resubmit with the same key or gc deletes it).
     */
    @Test
    void theBlobOfATaskBatchHasAfterAllIsKept() throws Exception {
        try (SubmitRig rig = rig()) {
            fake.faults().dropAfterApply("Task_AddCollection", 99);

            assertThrows(GantryException.class, () -> rig.submitter.submit(printing(),
                    SubmitOptions.withKey("applied")));
            TaskEntry entry = rig.entries.byKey("applied").orElseThrow();

            assertEquals(List.of(entry.secretsBlob().orElseThrow()), blobs.names("secrets"));
            JsonNode task = rig.completed(entry);
            assertEquals(0, task.path("executionInfo").path("exitCode").asInt(-1), "it read its blob: " + task);
        }
    }
}
