package dev.gantry.core.catalog.refresh;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the refresh and the quota check read the VM sizes offered to a subscription: the Azure Resource SKUs API in
 * production (the runs module's adapter over the azure module's client).
 */
@FunctionalInterface
public interface SkuSource {
    /** Every VM size offered to the subscription in the regions, one offer per size and region. */
    List<SizeOffer> vmSkus(Collection<String> regions);

    /**
     * The subscription whose offers these are, which a refreshed catalog records with the zones it read; empty when
     * the source does not say.
     */
    default Optional<String> subscription() {
        return Optional.empty();
    }

    /** {@code source}'s offers, said to be those of {@code subscription}. */
    static SkuSource of(String subscription, SkuSource source) {
        Objects.requireNonNull(subscription, "subscription");
        Objects.requireNonNull(source, "source");
        return new SkuSource() {
            @Override
            public List<SizeOffer> vmSkus(Collection<String> regions) {
                return source.vmSkus(regions);
            }

            @Override
            public Optional<String> subscription() {
                return Optional.of(subscription);
            }
        };
    }
}
