package dev.gantry.core.catalog.refresh;

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
 * On-demand and spot price per VM size and region, chosen from a {@link PriceSource}'s rows. One size and region can
 * have several meters (a new price with a later effective date, a secondary meter region); the one used is chosen by
 * a comparator: latest {@code effectiveStartDate}, then the primary meter region, then the lower price. The source
 * passes Linux VM hourly prices only; a zero price is unknown.
 *
 * <p>Two different products pricing one size, region and capacity is not a newer price but an ambiguity the
 * comparator cannot settle on its merits (a product Azure added that the source's filter does not know yet), so it is
 * {@linkplain #conflicts() reported} with both products, not settled silently.
 */
public final class PriceBook {
    /** Prefers the later effective date, then the primary meter region, then the lower price. */
    static final Comparator<VmPrice> PREFERRED = Comparator
            .comparing(VmPrice::effectiveStartDate).reversed()
            .thenComparing(VmPrice::primaryMeterRegion, Comparator.reverseOrder())
            .thenComparingDouble(VmPrice::perHour);

    private final Map<String, VmPrice> onDemand = new HashMap<>();
    private final Map<String, VmPrice> spot = new HashMap<>();
    /** Per size, region and capacity, the preferred row of each product that prices it. */
    private final Map<String, Map<String, VmPrice>> products = new TreeMap<>();

    public PriceBook(List<VmPrice> prices) {
        for (VmPrice price : prices) {
            if (!(price.perHour() > 0)) {
                continue;
            }
            String key = key(price.size(), price.region());
            Map<String, VmPrice> book = price.spot() ? spot : onDemand;
            book.merge(key, price, PriceBook::preferred);
            products.computeIfAbsent(key + " " + price.capacity(), k -> new LinkedHashMap<>())
                    .merge(price.productName(), price, PriceBook::preferred);
        }
    }

    public OptionalDouble onDemand(String size, String region) {
        VmPrice price = onDemand.get(key(size, region));
        return price == null ? OptionalDouble.empty() : OptionalDouble.of(price.perHour());
    }

    /** The spot price, unknown when there is none or when it is not below the on-demand price. */
    public OptionalDouble spot(String size, String region) {
        VmPrice price = spot.get(key(size, region));
        if (price == null) {
            return OptionalDouble.empty();
        }
        OptionalDouble regular = onDemand(size, region);
        if (regular.isPresent() && price.perHour() >= regular.getAsDouble()) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(price.perHour());
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
            List<VmPrice> rows = byProduct.values().stream().sorted(PREFERRED).toList();
            VmPrice used = rows.get(0);
            StringBuilder line = new StringBuilder(used.size()).append(" in ").append(used.region())
                    .append(" (").append(used.capacity()).append("): ").append(rows.size())
                    .append(" products price it: ");
            for (int i = 0; i < rows.size(); i++) {
                line.append(i == 0 ? "" : ", ").append('\'').append(rows.get(i).productName()).append("' at ")
                        .append(rows.get(i).perHour()).append(" USD/h");
            }
            line.append("; used '").append(used.productName())
                    .append("' (latest effective date, then primary meter region, then lower price)");
            lines.add(line.toString());
        });
        return lines;
    }

    private static VmPrice preferred(VmPrice a, VmPrice b) {
        return PREFERRED.compare(a, b) <= 0 ? a : b;
    }

    private static String key(String size, String region) {
        return size.toLowerCase(Locale.ROOT) + "@" + region.toLowerCase(Locale.ROOT);
    }
}
