package dev.gantry.backend.batch.internal.pools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.azure.batch.protocol.BatchServiceClient;
import com.microsoft.azure.batch.protocol.models.JobAddParameter;
import com.microsoft.azure.batch.protocol.models.PoolInformation;
import com.microsoft.azure.batch.protocol.models.TaskAddParameter;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.IdleResource;
import dev.gantry.azure.fakes.BlobFake;
import dev.gantry.azure.storage.Blobs;
import dev.gantry.backend.batch.fake.BatchFake;
import dev.gantry.backend.batch.fake.BatchFakeOptions;
import dev.gantry.backend.batch.internal.BatchAccountSettings;
import dev.gantry.backend.batch.internal.BatchAuth;
import dev.gantry.backend.batch.internal.BatchSettings;
import dev.gantry.backend.batch.internal.FakeAccounts;
import dev.gantry.backend.batch.internal.rest.BatchConnection;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Orphaned secrets blobs, against the Batch fake and gantry-azure's blob fake. */
class OrphanedSecretsTest {
    private static final byte[] SECRET = "export HF_TOKEN='x'\n".getBytes(StandardCharsets.UTF_8);

    private final BatchFake fake = new BatchFake(new BatchFakeOptions().auth(true, false));
    private final BatchConnection connection = FakeAccounts.sharedKey(fake);
    private final BatchServiceClient batch = connection.protocol();
    private final BlobFake storage = new BlobFake();
    private final Blobs blobs = storage.blobs();
    private final String container = storage.createContainer("secrets");

    OrphanedSecretsTest() throws Exception {
    }

    @AfterEach
    void close() {
        connection.close();
        fake.close();
        storage.close();
    }

    private OrphanedSecrets secretBlobs(Clock clock) {
        BatchAccountSettings account = FakeAccounts.account(fake, BatchAuth.SHARED_KEY, Optional.empty());
        BatchSettings settings = FakeAccounts.settings(List.of(account), List.of(), Optional.empty(),
                Optional.of(container), Duration.ofHours(1), Duration.ofDays(7));
        return new OrphanedSecrets(fake.accountName(), settings, FakeAccounts.calls(connection), blobs, clock);
    }

    private static Clock daysLater(int days) {
        return Clock.offset(Clock.systemUTC(), Duration.ofDays(days));
    }

    @Test
    void aBlobOlderThanTheRetentionWhoseTaskIsGoneIsAnOrphan() {
        FakeAccounts.addPool(batch, "gantry-d2-pool", true);
        batch.jobs().add(new JobAddParameter().withId("gantry-d2-pool")
                .withPoolInfo(new PoolInformation().withPoolId("gantry-d2-pool")));
        batch.tasks().add("gantry-d2-pool", new TaskAddParameter().withId("alive").withCommandLine("true"));
        blobs.put(container, OrphanedSecrets.name(fake.accountName(), "gantry-d2-pool", "alive"), SECRET);
        blobs.put(container, OrphanedSecrets.name(fake.accountName(), "gantry-d2-pool", "gone"), SECRET);
        blobs.put(container, OrphanedSecrets.name(fake.accountName(), "gantry-old-job", "t1"), SECRET);
        blobs.put(container, OrphanedSecrets.name("otheraccount", "gantry-old-job", "t2"), SECRET);
        blobs.put(container, "gantry-secrets/notes.txt", SECRET);

        assertEquals(List.of(), secretBlobs(Clock.systemUTC()).idleResources(), "younger than taskRetention");
        OrphanedSecrets later = secretBlobs(daysLater(8));
        List<IdleResource> orphans = later.idleResources();
        String mine = OrphanedSecrets.PREFIX + fake.accountName() + "/";
        assertEquals(List.of(mine + "gantry-d2-pool/gone", mine + "gantry-old-job/t1"), orphans.stream()
                .map(IdleResource::id).sorted().toList(), "a live task's blob, another account's and a blob not "
                + "named PREFIX/ACCOUNT/JOB/TASK are left alone");
        assertEquals(OrphanedSecrets.KIND, orphans.get(0).kind());
        assertEquals(Optional.of(container), orphans.get(0).location());

        orphans.forEach(orphan -> assertTrue(later.release(orphan)));
        assertEquals(List.of(mine + "gantry-d2-pool/alive", "gantry-secrets/notes.txt",
                "gantry-secrets/otheraccount/gantry-old-job/t2"), storage.names("secrets").stream().sorted().toList());
    }

    @Test
    void releaseKeepsTheBlobOfATaskThatIsBack() {
        blobs.put(container, OrphanedSecrets.name(fake.accountName(), "gantry-d2-pool", "t1"), SECRET);
        OrphanedSecrets later = secretBlobs(daysLater(8));
        IdleResource orphan = later.idleResources().get(0);

        FakeAccounts.addPool(batch, "gantry-d2-pool", true);
        batch.jobs().add(new JobAddParameter().withId("gantry-d2-pool")
                .withPoolInfo(new PoolInformation().withPoolId("gantry-d2-pool")));
        batch.tasks().add("gantry-d2-pool", new TaskAddParameter().withId("t1").withCommandLine("true"));
        assertFalse(later.release(orphan));
        assertEquals(List.of(OrphanedSecrets.name(fake.accountName(), "gantry-d2-pool", "t1")),
                storage.names("secrets"));
    }

    @Test
    void noContainerMeansNoneAndAForeignResourceIsRefused() {
        BatchAccountSettings account = FakeAccounts.account(fake, BatchAuth.SHARED_KEY, Optional.empty());
        OrphanedSecrets none = new OrphanedSecrets(fake.accountName(), FakeAccounts.settings(List.of(account), List.of(),
                Optional.empty(), Optional.empty(), Duration.ofHours(1), Duration.ofDays(7)), FakeAccounts.calls(connection), blobs,
                Clock.systemUTC());
        assertEquals(List.of(), none.idleResources());
        assertThrows(GantryException.class, () -> secretBlobs(Clock.systemUTC())
                .release(IdleResource.of(OrphanedSecrets.KIND, "gantry-secrets/notes.txt", "x").withLocation(container)));
    }
}
