package dev.gantry.core.quota;

import dev.gantry.core.catalog.refresh.SizeOffer;
import dev.gantry.core.catalog.refresh.SkuSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One subscription's capacity, as the advisor checks it inside its search: per region, the sizes it is offered (the
 * Resource SKUs API through a {@link SkuSource}) and its vCPU quotas and usage (the Compute usages API through a
 * {@link QuotaSource}). Made once per invocation (a {@code gantry plan}, a run) and shared by its plans: the size list
 * of a region is read once and kept, since offers change rarely; its usages are kept for {@link #USAGES_KEPT}, since
 * they change as VMs start and stop, and read again after. A plan asks each region once (the advisor keeps what it
 * asked for the plan), so that usages are read at most once per region and plan. Thread-safe.
 */
public final class SubscriptionCapacity {
    /**
     * How long a region's usages are reused across plans: long enough for one invocation's plans (a workflow of many
     * steps, a plan of several specs) to read each region once, short enough that a run planning again minutes later
     * sees VMs started or deleted since.
     */
    public static final Duration USAGES_KEPT = Duration.ofSeconds(60);

    private final String subscription;
    private final SkuSource skus;
    private final QuotaSource quotas;
    private final Clock clock;
    private final Map<String, List<SizeOffer>> offers = new ConcurrentHashMap<>();
    private final Map<String, RegionCapacity> regions = new ConcurrentHashMap<>();

    /**
     * @param subscription the subscription id, for the plan's reasons
     * @param skus where the sizes offered come from
     * @param quotas where the quotas and usages come from
     * @param clock decides when kept usages are too old
     */
    public SubscriptionCapacity(String subscription, SkuSource skus, QuotaSource quotas, Clock clock) {
        this.subscription = Objects.requireNonNull(subscription, "subscription");
        this.skus = Objects.requireNonNull(skus, "skus");
        this.quotas = Objects.requireNonNull(quotas, "quotas");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public String subscription() {
        return subscription;
    }

    /**
     * The region's capacity: its sizes as read once, its usages as read within {@link #USAGES_KEPT} or read now.
     *
     * @throws dev.gantry.api.GantryException as the sources do when Azure cannot be read (AUTH_FAILED,
     *     REMOTE_ERROR)
     */
    public RegionCapacity region(String region) {
        String key = region.toLowerCase(Locale.ROOT);
        Instant now = clock.instant();
        RegionCapacity kept = regions.get(key);
        if (kept != null && now.isBefore(kept.usagesReadAt().plus(USAGES_KEPT))) {
            return kept;
        }
        // Two plans may read a region at the same moment; each gets a consistent answer and the last one is kept.
        List<SizeOffer> offered = offers.computeIfAbsent(key, r -> List.copyOf(skus.vmSkus(List.of(r))));
        RegionCapacity fresh = new RegionCapacity(key, offered, quotas.usages(key), now);
        regions.put(key, fresh);
        return fresh;
    }
}
