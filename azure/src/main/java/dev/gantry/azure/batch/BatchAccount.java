package dev.gantry.azure.batch;

import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * A Batch account as Resource Manager describes it ({@code BatchAccount_Get}, API 2024-07-01). The core quotas are
 * the account's own, and Resource Manager returns them for {@link PoolAllocationMode#BATCH_SERVICE} accounts only; a
 * user-subscription account's nodes count against the subscription's vCPU quotas (Compute usages) instead.
 *
 * @param endpoint the data-plane host, e.g. {@code sampleacct.japaneast.batch.azure.com}
 * @param dedicatedCoreQuotaPerVmFamily dedicated cores per VM family (e.g. {@code standardDv5Family}), when given
 * @param perVmFamilyQuotaEnforced whether the per-family quotas bind (else only the total does)
 */
public record BatchAccount(BatchAccountId id, String region, String endpoint, PoolAllocationMode allocationMode,
        OptionalInt dedicatedCoreQuota, OptionalInt lowPriorityCoreQuota,
        Map<String, Integer> dedicatedCoreQuotaPerVmFamily, boolean perVmFamilyQuotaEnforced, OptionalInt poolQuota,
        OptionalInt activeJobAndJobScheduleQuota) {
    public BatchAccount {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(allocationMode, "allocationMode");
        dedicatedCoreQuotaPerVmFamily = Map.copyOf(dedicatedCoreQuotaPerVmFamily);
    }
}
