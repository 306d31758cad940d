package dev.gantry.core.catalog.refresh;

import dev.gantry.api.Architecture;
import dev.gantry.api.CatalogInfo;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.VmSize;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.CatalogEntry;
import dev.gantry.core.catalog.CatalogFormat;
import dev.gantry.core.catalog.CatalogLoader;
import dev.gantry.core.catalog.GpuModel;
import dev.gantry.core.catalog.GpuModels;
import dev.gantry.core.catalog.SizeFacts;
import dev.gantry.core.catalog.SizeName;
import dev.gantry.core.files.AtomicFile;
import dev.gantry.model.Progress;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;

/**
 * Builds a current catalog from Azure: prices from a {@link PriceSource} (the Retail Prices API) and, when
 * credentials are present, sizes, capabilities and restrictions from a {@link SkuSource} (the Resource SKUs API).
 * Without credentials the sizes are the base catalog's (the embedded snapshot) in the requested regions, priced
 * afresh. Facts Azure does not report (GPU model and memory) come from the project's tables and the base catalog, as
 * for the snapshot. The sources are ports: the runs module's {@code AzureSources} implements them with the azure
 * module's clients, and this class decides without I/O of its own but the cache file it writes.
 */
public final class CatalogRefresher {
    private final PriceSource prices;
    private final Optional<SkuSource> skus;
    private final Catalog base;
    private final Clock clock;

    /**
     * @param prices where VM prices come from (the Retail Prices API in production)
     * @param skus where the subscription's sizes come from (the Resource SKUs API), empty without credentials
     * @param base the catalog whose size facts fill what Azure does not report (usually the embedded snapshot)
     * @param clock dates the refreshed catalog
     */
    public CatalogRefresher(PriceSource prices, Optional<SkuSource> skus, Catalog base, Clock clock) {
        this.prices = Objects.requireNonNull(prices, "prices");
        this.skus = Objects.requireNonNull(skus, "skus");
        this.base = Objects.requireNonNull(base, "base");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Refreshes the regions (at least one) into a catalog dated today. */
    public Catalog refresh(Collection<String> regions) {
        return refresh(regions, Progress.NONE);
    }

    /**
     * Refreshes the regions (at least one) into a catalog dated today, telling {@code progress} which API it reads
     * (with the pages of prices read so far) and how many sizes it has priced: the prices of one region are tens of
     * pages, which take a while.
     */
    public Catalog refresh(Collection<String> regions, Progress progress) {
        if (regions.isEmpty()) {
            throw new GantryException(ErrorCode.USAGE, "catalog refresh needs at least one region (--region R);"
                    + " the catalog's regions are " + base.regions());
        }
        Set<String> wanted = new TreeSet<>();
        regions.forEach(region -> wanted.add(region.toLowerCase(Locale.ROOT)));
        String fetching = "fetching prices for " + String.join(" ", wanted) + " (" + prices.name() + ")";
        progress.step(fetching);
        PriceBook book = new PriceBook(prices.vmPrices(wanted,
                pages -> progress.step(fetching, pages + (pages == 1 ? " page" : " pages"))));
        Map<String, VmSize> known = new HashMap<>();
        Map<String, Optional<GpuModel>> knownModels = new HashMap<>();
        for (CatalogEntry entry : base.entries()) {
            known.putIfAbsent(entry.size().name(), entry.size());
            knownModels.putIfAbsent(entry.size().name(), entry.gpuModel());
        }
        List<CatalogEntry> entries = new ArrayList<>();
        List<String> provenance = new ArrayList<>();
        provenance.add("origin: " + prices.name() + " (" + prices.selection() + ")");
        provenance.add("regions: " + String.join(" ", wanted));
        provenance.add("refreshed: " + clock.instant());
        TreeSet<String> skipped = new TreeSet<>();
        if (skus.isPresent()) {
            provenance.add("origin: Azure Compute Resource SKUs API (sizes, capabilities, restrictions, zones)");
            provenance.add(Catalog.ZONES_RECORDED + zonesOrigin(skus.get()));
            progress.step("fetching sizes for " + String.join(" ", wanted) + " (Azure Resource SKUs API)");
            List<SizeOffer> offers = skus.get().vmSkus(wanted);
            int priced = 0;
            for (SizeOffer offer : offers) {
                Optional<CatalogEntry> entry = entry(offer, known.get(offer.name()), book);
                entry.ifPresentOrElse(entries::add, () -> skipped.add(offer.name()));
                priced = reportPriced(progress, ++priced, offers.size());
            }
        } else {
            provenance.add("sizes: from the base catalog (" + base.info().source() + "), without credentials for"
                    + " the Resource SKUs API");
            Set<String> seen = new HashSet<>();
            List<CatalogEntry> sizes = base.entries().stream().filter(entry -> wanted.contains(entry.region())
                    && seen.add(entry.size().name() + "@" + entry.region())).toList();
            int priced = 0;
            for (CatalogEntry entry : sizes) {
                entries.add(new CatalogEntry(entry.size(), entry.region(),
                        book.onDemand(entry.size().name(), entry.region()),
                        book.spot(entry.size().name(), entry.region()), entry.gpuModel(), Optional.empty()));
                priced = reportPriced(progress, ++priced, sizes.size());
            }
        }
        book.conflicts().forEach(conflict -> provenance.add("warning: " + conflict));
        if (!skipped.isEmpty()) {
            provenance.add("skipped: sizes whose facts are incomplete (GPU model unknown to the project, or no vCPU"
                    + " or memory capability): " + String.join(" ", skipped));
        }
        long unpriced = entries.stream().filter(e -> e.onDemandPerHour().isEmpty()).count();
        provenance.add("note: " + unpriced + " of " + entries.size() + " rows have no on-demand price (unknown)");
        return new Catalog(entries, new CatalogInfo("Azure live refresh (" + String.join(" ", wanted) + ")",
                LocalDate.now(clock)), base.gpuModels(), base.retiredSeries(), provenance);
    }

    /** Every 100 sizes and at the last: a step per size would be thousands of calls for nothing to see. */
    private static int reportPriced(Progress progress, int priced, int total) {
        if (priced % 100 == 0 || priced == total) {
            progress.step("pricing sizes", priced + " of " + total + " sizes");
        }
        return priced;
    }

    /** Refreshes and writes the catalog to {@code cacheDir}, replacing the previous one atomically. */
    public Catalog refreshTo(Path cacheDir, Collection<String> regions) {
        return refreshTo(cacheDir, regions, Progress.NONE);
    }

    /** As {@link #refreshTo(Path, Collection)}, telling {@code progress} how far it got. */
    public Catalog refreshTo(Path cacheDir, Collection<String> regions, Progress progress) {
        Catalog catalog = refresh(regions, progress);
        write(catalog, cacheDir);
        return catalog;
    }

    /** Writes a catalog where {@link CatalogLoader#cached(Path)} reads it. */
    public static Path write(Catalog catalog, Path cacheDir) {
        Path target = cacheDir.resolve(CatalogLoader.CACHE_FILE);
        try {
            StringWriter text = new StringWriter();
            CatalogFormat.write(catalog, text);
            AtomicFile.write(target, text.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new GantryException(ErrorCode.CONFIG_INVALID, "cannot write the catalog cache " + target + ": "
                    + e.getMessage() + "; check that the directory is writable", e);
        }
        return target;
    }

    private Optional<CatalogEntry> entry(SizeOffer offer, VmSize known, PriceBook book) {
        Optional<SizeName> name = SizeName.parse(offer.name());
        if (name.isEmpty()) {
            return Optional.empty();
        }
        Optional<SizeFacts> facts = Optional.ofNullable(SizeFacts.standard().get(offer.name()));
        OptionalInt vcpus = offer.usableVcpus();
        if (vcpus.isEmpty() && known != null) {
            vcpus = OptionalInt.of(known.vcpus());
        }
        OptionalDouble memory = offer.memoryGib();
        if (memory.isEmpty() && known != null) {
            memory = OptionalDouble.of(known.memoryGib());
        }
        if (vcpus.isEmpty() || vcpus.getAsInt() < 1 || memory.isEmpty() || !(memory.getAsDouble() > 0)) {
            return Optional.empty();
        }
        Optional<GpuSpec> gpu = Optional.empty();
        Optional<GpuModel> model = Optional.empty();
        int gpuCount = offer.gpus().orElse(known == null ? 0 : known.gpuCount());
        if (gpuCount > 0 || facts.flatMap(SizeFacts::accelerator).isPresent()) {
            Optional<String> accelerator = facts.flatMap(SizeFacts::accelerator)
                    .or(() -> Optional.ofNullable(known).flatMap(VmSize::gpu).map(GpuSpec::model))
                    .or(() -> name.get().accelerator().filter(base.gpuModels()::containsKey));
            if (accelerator.isEmpty()) {
                return Optional.empty();
            }
            String modelName = facts.flatMap(SizeFacts::gpuModel)
                    .orElse(GpuModels.modelName(accelerator.get(), name.get()));
            model = Optional.ofNullable(base.gpuModels().get(modelName));
            if (model.isEmpty()) {
                return Optional.empty();
            }
            // The facts table wins over Azure's count, as over the CSV's: it records documented corrections.
            int count = facts.flatMap(f -> f.gpuCount().isPresent() ? Optional.of(f.gpuCount().getAsInt())
                    : Optional.empty()).orElse(gpuCount);
            double perGpu = facts.flatMap(f -> f.gpuMemoryGib().isPresent()
                            ? Optional.of(f.gpuMemoryGib().getAsDouble()) : Optional.empty())
                    .or(() -> Optional.ofNullable(known).flatMap(VmSize::gpu).map(GpuSpec::memoryGib))
                    .orElse(model.get().memoryGib());
            gpu = Optional.of(new GpuSpec(accelerator.get(), Math.max(1, count), perGpu, model.get().vendor()));
        }
        Set<String> generations = offer.hyperVGenerations().isEmpty() && known != null
                ? known.hyperVGenerations() : offer.hyperVGenerations();
        boolean rdma = offer.rdma().or(() -> facts.flatMap(SizeFacts::rdma)).orElse(name.get().rdma());
        Architecture architecture = offer.architecture()
                .orElse(name.get().arm64() ? Architecture.ARM64 : Architecture.X64);
        VmSize size = new VmSize(offer.name(), name.get().family(), vcpus.getAsInt(), memory.getAsDouble(), gpu,
                rdma, architecture, generations);
        return Optional.of(new CatalogEntry(size, offer.region(), book.onDemand(offer.name(), offer.region()),
                book.spot(offer.name(), offer.region()), model, offer.restriction(), Optional.of(offer.zones())));
    }

    /**
     * Whose zones the catalog records and when they were read, for its provenance and the plans that use them, e.g.
     * {@code subscription 0000..., read 2026-12-01T08:00:00Z (locationInfo zones less Zone restrictions)}.
     */
    private String zonesOrigin(SkuSource source) {
        return source.subscription().map(id -> "subscription " + id + ", ").orElse("")
                + "read " + clock.instant() + " (Resource SKUs: locationInfo zones less Zone restrictions)";
    }
}
