package dev.gantry.core.catalog;

import dev.gantry.model.CatalogAge;
import dev.gantry.model.CatalogSummary;
import dev.gantry.api.CatalogInfo;
import java.time.Clock;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The VM catalog the advisor chooses from: every size × region row with prices, the GPU model facts, and the retired
 * series that are never recommended. Immutable and safe to share between threads; loaders build it.
 */
public final class Catalog {
    /**
     * How the provenance statement that says whose zones the catalog records begins, e.g. {@code zones: subscription
     * 0000..., read 2026-12-01T08:00:00Z (Resource SKUs: ...)}; a refresh with a subscription writes it.
     */
    public static final String ZONES_RECORDED = "zones: ";

    private final List<CatalogEntry> entries;
    private final CatalogInfo info;
    private final Map<String, GpuModel> gpuModels;
    private final List<RetiredSeries> retired;
    private final Set<String> regions;
    private final List<String> provenance;

    public Catalog(List<CatalogEntry> entries, CatalogInfo info, Map<String, GpuModel> gpuModels,
                   List<RetiredSeries> retired) {
        this(entries, info, gpuModels, retired, List.of());
    }

    /**
     * @param provenance where the data came from and every correction applied to it, one statement per element
     */
    public Catalog(List<CatalogEntry> entries, CatalogInfo info, Map<String, GpuModel> gpuModels,
                   List<RetiredSeries> retired, List<String> provenance) {
        this.provenance = List.copyOf(provenance);
        this.entries = List.copyOf(entries);
        this.info = Objects.requireNonNull(info, "info");
        this.gpuModels = Collections.unmodifiableMap(new TreeMap<>(gpuModels));
        this.retired = List.copyOf(retired);
        TreeSet<String> names = new TreeSet<>();
        for (CatalogEntry entry : this.entries) {
            names.add(entry.region());
        }
        this.regions = Collections.unmodifiableSet(names);
    }

    /** Every size × region row. */
    public List<CatalogEntry> entries() {
        return entries;
    }

    /** Where the catalog came from, the day it was copied or fetched, and the date of its prices when known. */
    public CatalogInfo info() {
        return info;
    }

    /** How many whole days ago the catalog was copied or fetched, on the clock's date (never negative). */
    public long ageDays(Clock clock) {
        long days = ChronoUnit.DAYS.between(info.date(), LocalDate.now(clock));
        return Math.max(0, days);
    }

    /**
     * One line for {@code gantry catalog show}: which catalog and what is known of its prices' age, e.g.
     * {@code catalog: SOURCE, copied 2026-11-29, 2 days ago; price date unknown (the source gives none); refresh
     * with 'gantry catalog refresh --region REGION'}.
     */
    public String summary(Clock clock) {
        return "catalog: " + info.source() + ", " + CatalogAge.describe(info, LocalDate.now(clock));
    }

    /** What {@code gantry catalog show} prints of this catalog, its age on the clock's date. */
    public CatalogSummary summarize(Clock clock) {
        long sizes = entries.stream().map(e -> e.size().name()).distinct().count();
        return new CatalogSummary(info, CatalogAge.provenance(info), ageDays(clock), entries.size(), sizes,
                List.copyOf(regions), provenance, summary(clock), zonesNote());
    }

    /** What {@link CatalogSummary#zones()} says of this catalog's zones. */
    private String zonesNote() {
        long recorded = entries.stream().filter(entry -> entry.zones().isPresent()).count();
        if (recorded == 0) {
            return "not recorded (they come from a refresh with a subscription: gantry catalog refresh --region R"
                    + " --subscription ID); plans without a subscription to ask do not check zones";
        }
        return "recorded for " + recorded + " of " + entries.size() + " rows" + zonesOrigin().map(o -> " (" + o + ")")
                .orElse("") + "; plans without a subscription to ask keep to them";
    }

    /**
     * Where the data came from (source, source commit, import date) and every correction the importer applied, one
     * statement per element; empty for catalogs built in code.
     */
    public List<String> provenance() {
        return provenance;
    }

    /** The provenance as text, one statement per line. */
    public String provenanceText() {
        return String.join("\n", provenance);
    }

    /** Whether any row records its zones (a refresh with a subscription), see {@link CatalogEntry#zones()}. */
    public boolean recordsZones() {
        for (CatalogEntry entry : entries) {
            if (entry.zones().isPresent()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whose zones the catalog records and when they were read, as its provenance says (the {@value #ZONES_RECORDED}
     * statement without that prefix); empty when it does not say.
     */
    public Optional<String> zonesOrigin() {
        for (String statement : provenance) {
            if (statement.startsWith(ZONES_RECORDED)) {
                return Optional.of(statement.substring(ZONES_RECORDED.length()));
            }
        }
        return Optional.empty();
    }

    /** The regions that appear in the catalog, sorted. */
    public Set<String> regions() {
        return regions;
    }

    /** GPU model facts by the catalog's accelerator name ({@code H100}, {@code A100-80GB}, ...). */
    public Optional<GpuModel> gpuModel(String name) {
        return Optional.ofNullable(gpuModels.get(name));
    }

    public Map<String, GpuModel> gpuModels() {
        return gpuModels;
    }

    public List<RetiredSeries> retiredSeries() {
        return retired;
    }

    /** The retired series a size belongs to, if any. */
    public Optional<RetiredSeries> retirement(String sizeName) {
        // A loop, not a stream: the advisor's index asks this of every size (844 in the embedded catalog) on each
        // start, before the JIT has compiled anything, where a stream pipeline per call costs more than the matching.
        for (RetiredSeries series : retired) {
            if (series.matches(sizeName)) {
                return Optional.of(series);
            }
        }
        return Optional.empty();
    }
}
