package dev.gantry.runs.azure;

import dev.gantry.azure.prices.RetailPrice;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * On-demand and spot price per VM size and region, chosen from the Retail Prices API's items. One size and region
 * can have several meters (a new price with a later effective date, a secondary meter region); the one used is
 * chosen by a comparator: latest {@code effectiveStartDate}, then the primary meter region, then the lower price.
 * Only Linux hourly USD prices count ({@link RetailPrice#linuxVmHourly()}); a zero price is unknown.
 *
 * <p>Two different products pricing one size, region and capacity is not a newer price but an ambiguity the
 * comparator cannot settle on its merits (a product Azure added that the filter does not know yet), so it is
 * {@linkplain #conflicts() reported} with both products, not settled silently.
 */
public final class PriceBook {
    /** Prefers the later effective date, then the primary meter region, then the lower price. */
    static final Comparator<RetailPrice> PREFERRED = Comparator
            .comparing(RetailPrice::effectiveStartDate).reversed()
            .thenComparing(RetailPrice::primaryMeterRegion, Comparator.reverseOrder())
            .thenComparingDouble(RetailPrice::retailPrice);

    private final Map<String, RetailPrice> onDemand = new HashMap<>();
    private final Map<String, RetailPrice> spot = new HashMap<>();
    /** Per size, region and capacity, the preferred row of each product that prices it. */
    private final Map<String, Map<String, RetailPrice>> products = new TreeMap<>();

    public PriceBook(List<RetailPrice> prices) {
        for (RetailPrice price : prices) {
            if (!price.linuxVmHourly() || !(price.retailPrice() > 0)) {
                continue;
            }
            String key = key(price.armSkuName(), price.armRegionName());
            Map<String, RetailPrice> book = price.spot() ? spot : onDemand;
            book.merge(key, price, PriceBook::preferred);
            products.computeIfAbsent(key + " " + price.capacity(), k -> new LinkedHashMap<>())
                    .merge(price.productName(), price, PriceBook::preferred);
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

    /**
     * One line per size, region and capacity that more than one product prices, naming every product with its
     * price and the one used, e.g. {@code Standard_D2s_v5 in eastus (on-demand): 2 products price it: 'Virtual
     * Machines Dsv5 Series' at 0.096 USD/h, 'Virtual Machines Dsv5 Series Linux' at 0.1 USD/h; used 'Virtual
     * Machines Dsv5 Series' (latest effective date, then primary meter region, then lower price)}. Sorted by size.
     */
    public List<String> conflicts() {
        List<String> lines = new ArrayList<>();
        products.forEach((key, byProduct) -> {
            if (byProduct.size() < 2) {
                return;
            }
            List<RetailPrice> rows = byProduct.values().stream().sorted(PREFERRED).toList();
            RetailPrice used = rows.get(0);
            StringBuilder line = new StringBuilder(used.armSkuName()).append(" in ").append(used.armRegionName())
                    .append(" (").append(used.capacity()).append("): ").append(rows.size())
                    .append(" products price it: ");
            for (int i = 0; i < rows.size(); i++) {
                line.append(i == 0 ? "" : ", ").append('\'').append(rows.get(i).productName()).append("' at ")
                        .append(rows.get(i).retailPrice()).append(" USD/h");
            }
            line.append("; used '").append(used.productName())
                    .append("' (latest effective date, then primary meter region, then lower price)");
            lines.add(line.toString());
        });
        return lines;
    }

    private static RetailPrice preferred(RetailPrice a, RetailPrice b) {
        return PREFERRED.compare(a, b) <= 0 ? a : b;
    }

    private static String key(String size, String region) {
        return size.toLowerCase(Locale.ROOT) + "@" + region.toLowerCase(Locale.ROOT);
    }
}
