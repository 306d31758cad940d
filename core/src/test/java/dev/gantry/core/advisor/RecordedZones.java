package dev.gantry.core.advisor;

import dev.gantry.api.Workload;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.CatalogEntry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * A catalog whose refresh recorded zones at random: about 15% of rows record none, the others each of zones 1-3 with
 * a 70% chance (so some record no zone at all, a regional placement only). {@link #allows} and {@link #zones} are the
 * documented rule for planning without a subscription to ask, written here for the brute force, sharing no code with
 * the advisor's.
 */
final class RecordedZones {
    final Catalog catalog;
    /** Per {@code size@region}, the zones recorded; absent where the row records none. */
    private final Map<String, List<String>> recorded;

    private RecordedZones(Catalog catalog, Map<String, List<String>> recorded) {
        this.catalog = catalog;
        this.recorded = recorded;
    }

    static RecordedZones random(Random random, Catalog base) {
        Map<String, List<String>> recorded = new HashMap<>();
        List<CatalogEntry> entries = new ArrayList<>();
        for (CatalogEntry entry : base.entries()) {
            Optional<List<String>> zones = Optional.empty();
            if (random.nextInt(100) >= 15) {
                List<String> some = new ArrayList<>();
                for (String zone : List.of("1", "2", "3")) {
                    if (random.nextInt(100) < 70) {
                        some.add(zone);
                    }
                }
                zones = Optional.of(some);
                recorded.put(key(entry), some);
            }
            entries.add(new CatalogEntry(entry.size(), entry.region(), entry.onDemandPerHour(), entry.spotPerHour(),
                    entry.gpuModel(), entry.restriction(), zones));
        }
        return new RecordedZones(new Catalog(entries, base.info(), base.gpuModels(), base.retiredSeries(),
                List.of(Catalog.ZONES_RECORDED + "subscription sub-random, read 2026-12-01T00:00:00Z")), recorded);
    }

    private static String key(CatalogEntry entry) {
        return entry.size().name() + "@" + entry.region();
    }

    /** Whether the row may be planned: no zones asked in its region, none recorded for it, or one of them recorded. */
    boolean allows(Workload workload, CatalogEntry entry) {
        List<String> asked = workload.zones().get(entry.region());
        List<String> zones = recorded.get(key(entry));
        return asked == null || zones == null || zones.stream().anyMatch(asked::contains);
    }

    /** The zones a plan on the row names: those recorded within those asked; where none are recorded, those asked. */
    List<String> zones(Workload workload, CatalogEntry entry) {
        List<String> asked = workload.zones().get(entry.region());
        List<String> zones = recorded.get(key(entry));
        if (zones == null) {
            return asked == null ? List.of() : asked;
        }
        return zones.stream().filter(zone -> asked == null || asked.contains(zone)).toList();
    }
}
