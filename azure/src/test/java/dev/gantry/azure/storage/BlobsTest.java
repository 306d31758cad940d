package dev.gantry.azure.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.azure.fakes.BlobFake;
import dev.gantry.azure.fakes.LocalHttps;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Blob REST calls of {@link Blobs} against {@link BlobFake}, with tokens from its fake issuer. */
class BlobsTest {
    private static final byte[] SECRET = "hunter2-secret-value".getBytes(StandardCharsets.UTF_8);

    private BlobFake storage;
    private String container;
    private Blobs blobs;

    @BeforeEach
    void start() throws Exception {
        storage = new BlobFake();
        container = storage.createContainer("secrets");
        blobs = storage.blobs();
    }

    @AfterEach
    void stop() {
        storage.close();
    }

    @Test
    void aPutWritesABlockBlobWithAStorageTokenAndTheServiceVersion() {
        String url = blobs.put(container, "job-1/task-1", SECRET);
        assertEquals(container + "/job-1/task-1", url);
        assertArrayEquals(SECRET, storage.content("secrets", "job-1/task-1").orElseThrow());
        BlobFake.Request put = storage.requests().get(0);
        assertEquals("PUT", put.method());
        assertEquals("BlockBlob", put.headers().get("x-ms-blob-type"));
        assertEquals(Blobs.API_VERSION, put.headers().get("x-ms-version"));
        assertEquals("Bearer fake-token:https://storage.azure.com/.default", put.headers().get("authorization"));
        assertEquals(List.of("https://storage.azure.com/.default"), storage.issuer().asked());
    }

    @Test
    void theSecretTravelsInTheUploadAndNowhereElse() {
        blobs.put(container, "task-1", SECRET);
        blobs.list(container, "");
        blobs.delete(container, "task-1");
        List<BlobFake.Request> carrying = storage.requests().stream()
                .filter(r -> r.bodyText().contains("hunter2") || r.headers().toString().contains("hunter2")
                        || r.path().contains("hunter2"))
                .toList();
        assertEquals(1, carrying.size());
        assertEquals("PUT", carrying.get(0).method());
    }

    @Test
    void aDeleteRemovesTheBlobAndADeletedOneIsNothingToDo() {
        blobs.put(container, "task-1", SECRET);
        assertTrue(blobs.delete(container, "task-1"));
        assertEquals(Optional.empty(), storage.content("secrets", "task-1"));
        assertFalse(blobs.delete(container, "task-1"));
    }

    @Test
    void aListingFollowsTheMarkersToTheLastPage() {
        for (String name : List.of("gantry/a", "gantry/b", "gantry/c", "gantry/d", "gantry/e", "other/x")) {
            blobs.put(container, name, SECRET);
        }
        List<StoredBlob> listed = blobs.list(container, "gantry/");
        assertEquals(List.of("gantry/a", "gantry/b", "gantry/c", "gantry/d", "gantry/e"),
                listed.stream().map(StoredBlob::name).toList());
        assertEquals(SECRET.length, listed.get(0).size());
        assertTrue(storage.requests().stream().filter(r -> r.method().equals("GET")).count() >= 3,
                "two blobs a page: three pages");
    }

    @Test
    void aBusyServiceIsAskedAgain() {
        storage.busy(1);
        blobs.put(container, "task-1", SECRET);
        assertEquals(2, storage.requests().size());
        assertArrayEquals(SECRET, storage.content("secrets", "task-1").orElseThrow());
    }

    @Test
    void aMissingContainerSaysHowToCreateIt() {
        GantryException e = assertThrows(GantryException.class,
                () -> blobs.put(storage.containerUrl("nosuch"), "task-1", SECRET));
        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertTrue(e.getMessage().contains("az storage container create"), e.getMessage());
    }

    @Test
    void aTokenForAnotherScopeIsRefusedAsAuthFailedNamingTheRole() {
        Blobs wrongScope = new Blobs(() -> request -> reactor.core.publisher.Mono.just(
                new com.azure.core.credential.AccessToken("fake-token:https://batch.core.windows.net//.default",
                        java.time.OffsetDateTime.now().plusHours(1))), LocalHttps.trustingHttpClient());
        GantryException e = assertThrows(GantryException.class, () -> wrongScope.put(container, "task-1", SECRET));
        assertEquals(ErrorCode.AUTH_FAILED, e.code());
        assertTrue(e.getMessage().contains("InvalidAuthenticationInfo")
                && e.getMessage().contains("Storage Blob Data Contributor"), e.getMessage());
    }

    @Test
    void aContainerUrlMustBeHttpsWithoutASas() {
        IllegalArgumentException plain = assertThrows(IllegalArgumentException.class,
                () -> blobs.put("http://acct.blob.core.windows.net/secrets", "t", SECRET));
        assertTrue(plain.getMessage().contains("https://ACCOUNT.blob.core.windows.net/CONTAINER"), plain.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> blobs.put("https://acct.blob.core.windows.net/secrets?sv=2023&sig=x", "t", SECRET));
    }

    @Test
    void namesAreEncodedSegmentBySegment() {
        assertEquals("https://acct.blob.core.windows.net/secrets/job%201/t%2Bx",
                Blobs.blobUrl("https://acct.blob.core.windows.net/secrets/", "job 1/t+x"));
    }
}
