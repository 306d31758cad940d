package dev.gantry.backend.batch.internal.validate;

import com.microsoft.azure.batch.protocol.models.CloudPool;
import com.microsoft.azure.batch.protocol.models.PoolGetOptions;
import dev.gantry.azure.batch.BatchAccountId;
import dev.gantry.azure.batch.BatchManagement;
import dev.gantry.azure.batch.BatchVmSku;
import dev.gantry.azure.compute.ComputeUsage;
import dev.gantry.backend.batch.internal.BatchAccountSettings;
import dev.gantry.backend.batch.internal.remote.AccountCalls;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The reads {@link PlanCheck} makes of one real account, each made at most once per backend instance (the supported
 * images once a day, through the state directory): validate runs for every step of a workflow, and none of these
 * change between steps.
 */
public final class AccountReads implements PlanCheck.Account {
    private final BatchAccountSettings settings;
    private final AccountCalls calls;
    private final SupportedImages images;
    private final Supplier<AccountFacts> facts;
    private final Supplier<List<BatchVmSku>> skus;
    private final Supplier<Map<String, ComputeUsage>> usages;
    private final Map<String, Boolean> identities = new ConcurrentHashMap<>();

    /**
     * @param calls the account's calls, each through the one retry policy
     * @param management Resource Manager's Batch calls; empty without gantry-azure, which is then never asked for
     *     (an account without {@code resourceId}), or named in the error when it is
     * @param images the account's supported images, cached ({@link SupportedImages#of})
     * @param usagesOfRegion the Compute usages of the account's subscription in a region, by lower-case name
     *     ({@code ResourceSkusClient.of(connector, subscription)::usages})
     */
    public AccountReads(BatchAccountSettings settings, AccountCalls calls, Optional<BatchManagement> management,
            SupportedImages images, Function<String, Map<String, ComputeUsage>> usagesOfRegion) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.calls = Objects.requireNonNull(calls, "calls");
        Objects.requireNonNull(management, "management");
        Objects.requireNonNull(usagesOfRegion, "usagesOfRegion");
        this.images = Objects.requireNonNull(images, "images");
        this.facts = once(() -> AccountFacts.read(settings, management));
        this.skus = once(() -> management.orElseThrow(this::noModule).virtualMachineSkus(subscription(),
                settings.region()));
        this.usages = once(() -> usagesOfRegion.apply(settings.region()));
    }

    @Override
    public AccountFacts facts() {
        return facts.get();
    }

    @Override
    public List<SupportedImage> supportedImages() {
        return images.get();
    }

    @Override
    public boolean poolHasIdentity(String poolId) {
        return identities.computeIfAbsent(poolId, id -> hasIdentity(pool(id)));
    }

    @Override
    public List<BatchVmSku> vmSkus() {
        return skus.get();
    }

    @Override
    public Map<String, ComputeUsage> usages() {
        return usages.get();
    }

    /** {@code Pool_Get} with only the identity selected. */
    private CloudPool pool(String poolId) {
        return calls.call("reading the identity of pool " + poolId, batch -> batch.pools().get(poolId,
                new PoolGetOptions().withSelect("id,identity")));
    }

    private static boolean hasIdentity(CloudPool pool) {
        return pool.identity() != null && pool.identity().userAssignedIdentities() != null
                && !pool.identity().userAssignedIdentities().isEmpty();
    }

    private IllegalStateException noModule() {
        return new IllegalStateException("account " + settings.url().getHost() + " has a resourceId, which is read "
                + "through gantry-azure's BatchManagement; the backend must pass one (add dev.gantry:gantry-azure)");
    }

    private String subscription() {
        return BatchAccountId.parse(settings.resourceId().orElseThrow()).subscriptionId();
    }

    private static <T> Supplier<T> once(Supplier<T> read) {
        return new Supplier<>() {
            private T value;

            @Override
            public synchronized T get() {
                if (value == null) {
                    value = read.get();
                }
                return value;
            }
        };
    }
}
