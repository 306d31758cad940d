package dev.gantry.backend.batch.internal.validate;

import dev.gantry.azure.batch.BatchAccount;
import dev.gantry.azure.batch.BatchAccountId;
import dev.gantry.azure.batch.BatchManagement;
import dev.gantry.backend.batch.internal.BatchAccountSettings;
import dev.gantry.backend.batch.internal.BatchAuth;
import java.util.Objects;
import java.util.Optional;

/**
 * What Gantry knows of one account beyond its settings: how its pools are allocated, and its quotas when Resource
 * Manager was asked. gantry-azure is an optional dependency: a shared-key account without {@code resourceId} is
 * answered without loading any of its classes.
 *
 * @param settings the account as configured
 * @param allocationMode where its nodes live; empty when it could not be known (Entra ID without {@code resourceId})
 * @param account the account as Resource Manager describes it, when {@code resourceId} is set
 */
public record AccountFacts(BatchAccountSettings settings, Optional<Allocation> allocationMode,
                           Optional<BatchAccount> account) {
    /** Where an account's nodes live (Resource Manager's {@code poolAllocationMode}). */
    public enum Allocation {
        /** {@code BatchService}: in Batch's subscriptions, against the account's own core quotas; no Spot. */
        BATCH_MANAGED,
        /** {@code UserSubscription}: in the owner's subscription, against its vCPU quotas; Spot possible. */
        USER_SUBSCRIPTION
    }

    public AccountFacts {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(allocationMode, "allocationMode");
        Objects.requireNonNull(account, "account");
    }

    /**
     * The account's facts: read from Resource Manager ({@link BatchManagement#account}, one GET) when its
     * {@code resourceId} is set (its mode and core quotas); without it, a shared-key account is Batch-managed
     * (user-subscription accounts take no shared key) and an Entra ID account's mode is unknown. Errors of that read are gantry-azure's
     * (AUTH_FAILED, REMOTE_ERROR), so a capability is never turned off because Resource Manager could not be reached.
     */
    public static AccountFacts read(BatchAccountSettings settings, Optional<BatchManagement> management) {
        if (settings.resourceId().isEmpty()) {
            return new AccountFacts(settings, settings.auth() == BatchAuth.SHARED_KEY
                    ? Optional.of(Allocation.BATCH_MANAGED) : Optional.empty(), Optional.empty());
        }
        BatchAccount account = management.orElseThrow(() -> new IllegalStateException("account "
                + settings.url().getHost() + " has a resourceId, which is read through gantry-azure's "
                + "BatchManagement; the backend must pass one (add dev.gantry:gantry-azure)"))
                .account(BatchAccountId.parse(settings.resourceId().get()));
        Allocation allocation = account.allocationMode() == dev.gantry.azure.batch.PoolAllocationMode.USER_SUBSCRIPTION
                ? Allocation.USER_SUBSCRIPTION : Allocation.BATCH_MANAGED;
        return new AccountFacts(settings, Optional.of(allocation), Optional.of(account));
    }

    /**
     * Whether plans on Spot can run here: Entra ID and user-subscription allocation. Low-priority nodes of
     * Batch-managed accounts were retired on 30 September 2025, and a shared-key account is always Batch-managed.
     */
    public boolean canHaveSpot() {
        return settings.auth() == BatchAuth.ENTRA
                && allocationMode.filter(mode -> mode == Allocation.USER_SUBSCRIPTION).isPresent();
    }

    /** Why this account cannot have Spot, with the fix; empty when it can. */
    public Optional<String> whyNoSpot() {
        String at = "account " + settings.url().getHost() + " (" + settings.region() + ")";
        if (settings.auth() == BatchAuth.SHARED_KEY) {
            return Optional.of(at + " signs in with a shared key (" + BatchAccountSettings.ACCOUNTS + "[*]."
                    + BatchAccountSettings.AUTH + ": " + BatchAuth.SHARED_KEY.configName() + "), so it is "
                    + "Batch-managed, and Batch-managed accounts have had no Spot (low-priority) nodes since 30 "
                    + "September 2025; use an account in UserSubscription pool allocation mode with auth: "
                    + BatchAuth.ENTRA.configName() + " and its resourceId, or plan without Spot (spot: never)");
        }
        if (allocationMode.isEmpty()) {
            return Optional.of(at + " has no resourceId, so its pool allocation mode cannot be read and Spot cannot "
                    + "be confirmed; set " + BatchAccountSettings.ACCOUNTS + "[*]." + BatchAccountSettings.RESOURCE_ID
                    + " to the account's Resource Manager id, or plan without Spot (spot: never)");
        }
        if (!canHaveSpot()) {
            return Optional.of(at + " is in BatchService pool allocation mode, which has had no Spot (low-priority) "
                    + "nodes since 30 September 2025; use an account in UserSubscription mode, or plan without Spot "
                    + "(spot: never)");
        }
        return Optional.empty();
    }
}
