package dev.gantry.core.catalog.refresh;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * On-demand and spot price per VM size and region, chosen from the Retail Prices API's items. One size and region
 * can have several meters (a new price with a later effective date, a secondary meter region); the one used is
 * chosen by a comparator: latest {@code effectiveStartDate}, then the primary meter region, then the lower price.
 * Only USD prices per hour count; a zero price is unknown.
 */
public final class PriceBook {
    /** Prefers the later effective date, then the primary meter region, then the lower price. */
    static final Comparator<RetailPrice> PREFERRED = Comparator
            .comparing(RetailPrice::effectiveStartDate).reversed()
            .thenComparing(RetailPrice::primaryMeterRegion, Comparator.reverseOrder())
            .thenComparingDouble(RetailPrice::retailPrice);

    private final Map<String, RetailPrice> onDemand = new HashMap<>();
    private final Map<String, RetailPrice> spot = new HashMap<>();

    public PriceBook(List<RetailPrice> prices) {
        for (RetailPrice price : prices) {
            if (price.windows() || price.lowPriority() || !price.unitOfMeasure().equals("1 Hour")
                    || !price.currencyCode().equals("USD") || !price.type().equals("Consumption")
                    || !(price.retailPrice() > 0)) {
                continue;
            }
            Map<String, RetailPrice> book = price.spot() ? spot : onDemand;
            book.merge(key(price.armSkuName(), price.armRegionName()), price,
                    (a, b) -> PREFERRED.compare(a, b) <= 0 ? a : b);
        }
    }

    public OptionalDouble onDemand(String size, String region) {
        RetailPrice price = onDemand.get(key(size, region));
        return price == null ? OptionalDouble.empty() : OptionalDouble.of(price.retailPrice());
    }

    /** The spot price, unknown when there is none or when it is not below the on-demand price. */
    public OptionalDouble spot(String size, String region) {
        RetailPrice price = spot.get(key(size, region));
        if (price == null) {
            return OptionalDouble.empty();
        }
        OptionalDouble regular = onDemand(size, region);
        if (regular.isPresent() && price.retailPrice() >= regular.getAsDouble()) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(price.retailPrice());
    }

    private static String key(String size, String region) {
        return size.toLowerCase(Locale.ROOT) + "@" + region.toLowerCase(Locale.ROOT);
    }
}
