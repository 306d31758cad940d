package dev.gantry.backend.batch.internal.remote;

import com.microsoft.azure.batch.protocol.models.PoolAddParameter;
import java.util.Map;

/**
 * Pools that carry a user-assigned identity, made through Resource Manager ({@code Microsoft.Batch/batchAccounts/
 * pools}): the data-plane pool add has no identity property. gantry-azure's {@code BatchManagement}, behind
 * {@link AzureModule}.
 */
public interface IdentityPools {
    /**
     * Creates the pool described by {@code body} (the data-plane shape {@code PoolBody} renders) with the identity,
     * or finds it already there (never overwritten); answers the metadata the pool carries, for the caller to adopt
     * it or not.
     *
     * @param accountResourceId the account's Resource Manager id ({@code accounts[*].resourceId})
     * @throws Refused {@code PoolBeingDeleted} when the pool found is being deleted (gc removed it while idle): it is
     *     neither adopted nor made until Batch has removed it, and the caller asks again after a wait
     */
    Map<String, String> createOrFind(String accountResourceId, PoolAddParameter body, String identityResourceId)
            throws Refused;
}
