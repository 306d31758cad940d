package dev.gantry.backend.batch.internal.remote;

import com.microsoft.azure.batch.protocol.models.EnvironmentSetting;
import com.microsoft.azure.batch.protocol.models.ImageReference;
import com.microsoft.azure.batch.protocol.models.MetadataItem;
import com.microsoft.azure.batch.protocol.models.PoolAddParameter;
import com.microsoft.azure.batch.protocol.models.StartTask;
import com.microsoft.azure.batch.protocol.models.VirtualMachineConfiguration;
import dev.gantry.azure.batch.BatchAccountId;
import dev.gantry.azure.batch.BatchManagement;
import dev.gantry.azure.batch.BatchPool;
import dev.gantry.azure.batch.BatchPoolSpec;
import dev.gantry.azure.storage.Blobs;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * gantry-azure's seams in this module's terms. Names the module's types: loaded only through
 * {@link AzureModule}'s check, or by tests, which have the module.
 */
public final class AzureAdapters {
    /** Resource Manager's provisioning state of a pool being deleted. */
    static final String DELETING = "Deleting";

    private AzureAdapters() {
    }

    /** gantry-azure's blobs as a {@link BlobStore} (tests hand the blob fake's). */
    public static BlobStore blobStore(Blobs blobs) {
        return new BlobStore() {
            @Override
            public String put(String containerUrl, String name, byte[] content) {
                return blobs.put(containerUrl, name, content);
            }

            @Override
            public boolean delete(String containerUrl, String name) {
                return blobs.delete(containerUrl, name);
            }
        };
    }

    /**
     * gantry-azure's Batch management as {@link IdentityPools} (tests hand one on the Resource Manager fake). A pool
     * found in {@code provisioningState} {@value #DELETING} is refused as Batch's data plane refuses a pool add then
     * ({@code PoolBeingDeleted}): adopting it would give tasks a pool about to vanish.
     */
    public static IdentityPools identityPools(BatchManagement management) {
        return (accountResourceId, body, identity) -> {
            BatchPool pool = management.createPool(BatchAccountId.parse(accountResourceId), body.id(),
                    spec(body, identity));
            if (DELETING.equalsIgnoreCase(pool.provisioningState())) {
                throw new Refused(new BatchRefusal(409, "PoolBeingDeleted", "Resource Manager shows pool "
                        + pool.name() + " in provisioningState " + pool.provisioningState(), "none", Map.of(),
                        Optional.empty()));
            }
            return pool.metadata();
        };
    }

    /** The data-plane body in Resource Manager's terms: the same values, another shape. */
    static BatchPoolSpec spec(PoolAddParameter body, String identity) {
        VirtualMachineConfiguration vm = body.virtualMachineConfiguration();
        ImageReference image = vm.imageReference();
        BatchPoolSpec.Image armImage = image.virtualMachineImageId() != null
                ? new BatchPoolSpec.Gallery(image.virtualMachineImageId())
                : new BatchPoolSpec.Marketplace(image.publisher(), image.offer(), image.sku(), image.version());
        boolean containers = vm.containerConfiguration() != null;
        List<String> prefetch = containers && vm.containerConfiguration().containerImageNames() != null
                ? vm.containerConfiguration().containerImageNames() : List.of();
        Optional<BatchPoolSpec.StartTask> start = Optional.ofNullable(body.startTask()).map(AzureAdapters::startTask);
        Map<String, String> metadata = new LinkedHashMap<>();
        for (MetadataItem item : body.metadata() == null ? List.<MetadataItem>of() : body.metadata()) {
            metadata.put(item.name(), item.value());
        }
        Duration interval = Duration.ofMillis(body.autoScaleEvaluationInterval().toStandardDuration().getMillis());
        return new BatchPoolSpec(body.vmSize(), armImage, vm.nodeAgentSKUId(), containers, prefetch,
                Boolean.TRUE.equals(body.enableInterNodeCommunication()),
                body.taskSlotsPerNode() == null ? 1 : body.taskSlotsPerNode(), body.autoScaleFormula(), interval,
                start, metadata, identity);
    }

    private static BatchPoolSpec.StartTask startTask(StartTask task) {
        Map<String, String> environment = new LinkedHashMap<>();
        for (EnvironmentSetting setting : task.environmentSettings() == null ? List.<EnvironmentSetting>of()
                : task.environmentSettings()) {
            environment.put(setting.name(), setting.value());
        }
        boolean elevated = task.userIdentity() != null && task.userIdentity().autoUser() != null
                && task.userIdentity().autoUser().elevationLevel() != null
                && "admin".equals(task.userIdentity().autoUser().elevationLevel().toString());
        return new BatchPoolSpec.StartTask(task.commandLine(), environment, elevated,
                Boolean.TRUE.equals(task.waitForSuccess()),
                task.maxTaskRetryCount() == null ? 0 : task.maxTaskRetryCount());
    }
}
