package dev.gantry.backend.batch.internal;

import dev.gantry.azure.batch.BatchAccountId;
import dev.gantry.azure.batch.BatchManagement;
import dev.gantry.azure.compute.ComputeUsage;
import dev.gantry.azure.storage.Blobs;
import dev.gantry.backend.batch.internal.remote.AzureModule;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What the backend reaches through gantry-azure besides the submit path's seams: Resource Manager's Batch calls for an
 * account with a {@code resourceId}, the blob calls for gc's orphaned secrets, the subscription's usages for validate.
 * Asked only where configured, so a shared-key setup without secrets never needs the module; tests pass fakes.
 *
 * @param management an account's Resource Manager calls; empty without a {@code resourceId}
 * @param blobCalls the blob calls; empty without {@code secrets.containerUrl}
 * @param usages the usages of an account's subscription in a region, by lower-case name
 */
public record AzureReach(Function<BatchAccountSettings, Optional<BatchManagement>> management,
                         Supplier<Optional<Blobs>> blobCalls,
                         Function<BatchAccountSettings, Function<String, Map<String, ComputeUsage>>> usages) {
    public AzureReach {
        Objects.requireNonNull(management, "management");
        Objects.requireNonNull(blobCalls, "blobCalls");
        Objects.requireNonNull(usages, "usages");
    }

    /** The module's default credential chain, asked on first use only. */
    public static AzureReach production(BatchSettings settings) {
        String resourceId = "backends.batch." + BatchAccountSettings.ACCOUNTS + "[*]." + BatchAccountSettings.RESOURCE_ID;
        // No lambda here returns a gantry-azure type: linking one loads that type, which a shared-key setup without
        // the module does not have (statuses failed with NoClassDefFoundError: BatchManagement). Each such call is
        // made only on the branch that needs it.
        return new AzureReach(
                account -> account.resourceId().isEmpty() ? Optional.empty()
                        : Optional.of(AzureModule.management(resourceId)),
                () -> settings.secretsContainer().isEmpty() ? Optional.empty()
                        : Optional.of(AzureModule.blobCalls("backends.batch." + BatchSettings.SECRETS_CONTAINER_URL)),
                account -> AzureModule.usages(resourceId, BatchAccountId.parse(account.resourceId().orElseThrow())
                        .subscriptionId()));
    }
}
