package dev.gantry.core.catalog;

import dev.gantry.api.Architecture;
import dev.gantry.api.CatalogInfo;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.VmSize;
import java.io.IOException;
import java.math.BigDecimal;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeSet;

/**
 * The project's own catalog format, used for the embedded snapshot and the refresh cache: a CSV with a comment
 * header that carries the provenance.
 *
 * <pre>
 * # gantry-catalog 1
 * # source: SkyPilot Azure catalog ...
 * # date: 2026-11-29        (the day the data was copied from its source, or fetched live)
 * # price-date: unknown    (the date of the prices: the fetch day, or unknown when the source gives none)
 * # origin: ...            (any further comment lines: provenance statements, corrections first-class)
 * size,region,accelerator,gpuModel,gpuCount,gpuMemoryGib,gpuVendor,vcpus,memoryGib,rdma,arch,generations,onDemand,spot,restriction[,zones]
 * </pre>
 *
 * <p>Prices are USD per VM-hour; an empty, zero, or (for spot) not-below-on-demand price is read as unknown.
 * {@code generations} is space-separated ({@code V1 V2}); {@code arch} is {@code x64} or {@code arm64}.
 *
 * <p>{@code zones}, written only by a catalog that records zones (a refresh with a subscription), is the zones where
 * that subscription could allocate the size in the region, space-separated ({@code 1 2 3}); {@code none} when it
 * had none there (a regional placement only); empty when the row does not record them. A file without the column
 * records no zones, which is not the same as "no zone": readers before the column ignore it, and this reader reads
 * their files unchanged.
 */
public final class CatalogFormat {
    /** The first line of a file in this format. */
    public static final String MAGIC = "# gantry-catalog 1";
    /** The header line that says the date of the prices, or {@value #UNKNOWN} when the source gives none. */
    static final String PRICE_DATE = "price-date: ";
    static final String UNKNOWN = "unknown";
    public static final List<String> COLUMNS = List.of("size", "region", "accelerator", "gpuModel", "gpuCount",
            "gpuMemoryGib", "gpuVendor", "vcpus", "memoryGib", "rdma", "arch", "generations", "onDemand", "spot",
            "restriction");
    /** The optional column of the zones a subscription could allocate the size in, see the class comment. */
    public static final String ZONES = "zones";
    /** A {@value #ZONES} cell saying the size had no zone in the region: a regional placement only. */
    static final String NO_ZONE = "none";

    private CatalogFormat() {
    }

    public static void write(Catalog catalog, Writer out) {
        try {
            out.write(MAGIC + "\n");
            out.write("# source: " + oneLine(catalog.info().source()) + "\n");
            out.write("# date: " + catalog.info().date() + "\n");
            out.write("# " + PRICE_DATE + catalog.info().priceDate().map(LocalDate::toString).orElse(UNKNOWN) + "\n");
            for (String statement : catalog.provenance()) {
                out.write("# " + oneLine(statement) + "\n");
            }
            // The column only when a row records zones, so that catalogs without them keep their bytes.
            boolean zones = catalog.entries().stream().anyMatch(entry -> entry.zones().isPresent());
            out.write(String.join(",", COLUMNS) + (zones ? "," + ZONES : "") + "\n");
            StringBuilder line = new StringBuilder(160);
            for (CatalogEntry entry : catalog.entries()) {
                VmSize size = entry.size();
                Optional<GpuSpec> gpu = size.gpu();
                line.setLength(0);
                line.append(size.name()).append(',').append(entry.region()).append(',')
                        .append(TableText.cell(gpu.map(GpuSpec::model).orElse(""))).append(',')
                        .append(TableText.cell(entry.gpuModel().map(GpuModel::name).orElse(""))).append(',')
                        .append(gpu.map(g -> Integer.toString(g.count())).orElse("")).append(',')
                        .append(gpu.map(g -> number(g.memoryGib())).orElse("")).append(',')
                        .append(gpu.map(g -> g.vendor().name()).orElse("")).append(',')
                        .append(size.vcpus()).append(',')
                        .append(number(size.memoryGib())).append(',')
                        .append(size.rdma()).append(',')
                        .append(size.architecture().name().toLowerCase(Locale.ROOT)).append(',')
                        .append(String.join(" ", new TreeSet<>(size.hyperVGenerations()))).append(',')
                        .append(price(entry.onDemandPerHour())).append(',')
                        .append(price(entry.spotPerHour())).append(',')
                        .append(TableText.cell(entry.restriction().orElse("")));
                if (zones) {
                    line.append(',').append(entry.zones().map(CatalogFormat::zonesCell).orElse(""));
                }
                line.append('\n');
                out.write(line.toString());
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads a catalog in this format; the GPU table and retired list are the project's. */
    public static Catalog read(Reader in, String file) {
        return read(in, file, GpuModels.standard(), RetiredSeries.azureRetirements());
    }

    static Catalog read(Reader in, String file, Map<String, GpuModel> gpuModels, List<RetiredSeries> retired) {
        TableText.Table table = TableText.read(in, file, COLUMNS);
        List<String> comments = table.comments();
        if (comments.isEmpty() || !("# " + comments.get(0)).equals(MAGIC)) {
            throw new GantryException(ErrorCode.CATALOG_INVALID,
                    file + ":1: expected the first line '" + MAGIC + "'");
        }
        String source = null;
        LocalDate date = null;
        String priceDate = null;
        int priceDateLine = 0;
        List<String> provenance = new ArrayList<>();
        for (int i = 1; i < comments.size(); i++) {
            String comment = comments.get(i);
            if (comment.startsWith("source: ") && source == null) {
                source = comment.substring("source: ".length());
            } else if (comment.startsWith("date: ") && date == null) {
                String text = comment.substring("date: ".length()).trim();
                try {
                    date = LocalDate.parse(text);
                } catch (DateTimeParseException e) {
                    throw new GantryException(ErrorCode.CATALOG_INVALID, file + ":"
                            + (i + 1) + ": date '" + text + "' is not an ISO date such as 2026-11-29");
                }
            } else if (comment.startsWith(PRICE_DATE) && priceDate == null) {
                priceDate = comment.substring(PRICE_DATE.length()).trim();
                priceDateLine = i + 1;
            } else {
                provenance.add(comment);
            }
        }
        if (source == null || date == null) {
            throw new GantryException(ErrorCode.CATALOG_INVALID,
                    file + ": the header needs '# source: ...' and '# date: YYYY-MM-DD' lines");
        }
        // A size appears once per region with the same facts: build its VmSize once (this halves a cold load).
        Map<String, SizePart> sizes = new HashMap<>();
        boolean zones = table.header().contains(ZONES);
        List<CatalogEntry> entries = TableText.eachRow(table.rows(), row -> entry(row, gpuModels, sizes, zones));
        return new Catalog(entries, new CatalogInfo(source, date, priceDate(priceDate, date, file, priceDateLine)),
                gpuModels, retired, provenance);
    }

    /**
     * The {@code # price-date:} line's date: {@code unknown} when the source gives none; the {@code # date:} line's
     * date when the line is missing, since files written before the line existed were live refreshes, whose prices
     * are of the fetch day.
     */
    private static Optional<LocalDate> priceDate(String text, LocalDate date, String file, int line) {
        if (text == null) {
            return Optional.of(date);
        }
        if (text.equals(UNKNOWN)) {
            return Optional.empty();
        }
        try {
            return Optional.of(LocalDate.parse(text));
        } catch (DateTimeParseException e) {
            throw new GantryException(ErrorCode.CATALOG_INVALID, file + ":" + line + ": price-date '" + text
                    + "' is neither an ISO date such as 2026-11-29 nor '" + UNKNOWN + "' (the source gives none)");
        }
    }

    /** The region-independent part of a row. */
    private record SizePart(VmSize size, Optional<GpuModel> model) {
    }

    private static CatalogEntry entry(TableText.Row row, Map<String, GpuModel> gpuModels, Map<String, SizePart> sizes,
                                      boolean zones) {
        String key = row.get("size") + ',' + row.get("accelerator") + ',' + row.get("gpuModel") + ','
                + row.get("gpuCount") + ',' + row.get("gpuMemoryGib") + ',' + row.get("gpuVendor") + ','
                + row.get("vcpus") + ',' + row.get("memoryGib") + ',' + row.get("rdma") + ',' + row.get("arch") + ','
                + row.get("generations");
        SizePart part = sizes.get(key);
        if (part == null) {
            part = sizePart(row, gpuModels);
            sizes.put(key, part);
        }
        OptionalDouble onDemand = knownPrice(row.optionalDouble("onDemand"));
        OptionalDouble spot = knownPrice(row.optionalDouble("spot"));
        if (spot.isPresent() && onDemand.isPresent() && spot.getAsDouble() >= onDemand.getAsDouble()) {
            spot = OptionalDouble.empty();
        }
        String restriction = row.get("restriction");
        return new CatalogEntry(part.size(), row.required("region"), onDemand, spot, part.model(),
                restriction.isEmpty() ? Optional.empty() : Optional.of(restriction),
                zones ? zones(row) : Optional.empty());
    }

    /** The zones as a cell: {@code 1 2 3}, or {@value #NO_ZONE} for none. */
    static String zonesCell(List<String> zones) {
        return zones.isEmpty() ? NO_ZONE : String.join(" ", zones);
    }

    /** A {@value #ZONES} cell: empty when the row does not record zones. */
    private static Optional<List<String>> zones(TableText.Row row) {
        String text = row.get(ZONES);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        if (text.equals(NO_ZONE)) {
            return Optional.of(List.of());
        }
        List<String> zones = List.of(text.split(" +"));
        if (zones.contains(NO_ZONE)) {
            throw row.invalid(ZONES, "is '" + text + "'; '" + NO_ZONE + "' (no zone) cannot be listed with zones:"
                    + " write the zones, e.g. '1 2 3', '" + NO_ZONE + "' alone, or leave the cell empty when they are"
                    + " not recorded");
        }
        if (zones.size() != new TreeSet<>(zones).size()) {
            throw row.invalid(ZONES, "is '" + text + "', which repeats a zone; list each zone once, e.g. '1 2 3'");
        }
        return Optional.of(zones);
    }

    private static SizePart sizePart(TableText.Row row, Map<String, GpuModel> gpuModels) {
        String name = row.required("size");
        SizeName sizeName = SizeName.parse(name).orElseThrow(() -> row.invalid("size", "is '" + name
                + "', which does not follow Azure's size naming (e.g. Standard_NC24ads_A100_v4)"));
        Optional<GpuSpec> gpu = Optional.empty();
        Optional<GpuModel> model = Optional.empty();
        String accelerator = row.get("accelerator");
        if (!accelerator.isEmpty()) {
            int count = row.optionalInt("gpuCount").orElseThrow(() -> row.invalid("gpuCount",
                    "is empty but accelerator is '" + accelerator + "'"));
            if (count < 1) {
                throw row.invalid("gpuCount", "is " + count + "; expected at least 1");
            }
            String modelName = row.get("gpuModel").isEmpty() ? accelerator : row.get("gpuModel");
            model = Optional.ofNullable(gpuModels.get(modelName));
            GpuVendor vendor = vendor(row, model);
            double memory = row.optionalDouble("gpuMemoryGib").isPresent()
                    ? row.optionalDouble("gpuMemoryGib").getAsDouble()
                    : model.map(GpuModel::memoryGib).orElseThrow(() -> row.invalid("gpuMemoryGib",
                            "is empty and GPU model '" + modelName + "' is not in the project's GPU table"));
            gpu = Optional.of(new GpuSpec(accelerator, count, memory, vendor));
        }
        int vcpus = row.optionalInt("vcpus").orElseThrow(() -> row.invalid("vcpus", "is empty"));
        if (vcpus < 1) {
            throw row.invalid("vcpus", "is " + vcpus + "; expected at least 1");
        }
        double memory = row.optionalDouble("memoryGib").orElseThrow(() -> row.invalid("memoryGib", "is empty"));
        if (!(memory > 0)) {
            throw row.invalid("memoryGib", "is " + row.get("memoryGib") + "; expected a number > 0");
        }
        String rdma = row.get("rdma");
        if (!rdma.equals("true") && !rdma.equals("false") && !rdma.isEmpty()) {
            throw row.invalid("rdma", "is '" + rdma + "'; expected true or false");
        }
        String arch = row.get("arch");
        Architecture architecture;
        if (arch.isEmpty()) {
            architecture = sizeName.arm64() ? Architecture.ARM64 : Architecture.X64;
        } else if (arch.equals("x64") || arch.equals("arm64")) {
            architecture = Architecture.valueOf(arch.toUpperCase(Locale.ROOT));
        } else {
            throw row.invalid("arch", "is '" + arch + "'; expected x64 or arm64");
        }
        Set<String> generations = new TreeSet<>();
        for (String generation : row.required("generations").split(" +")) {
            if (!generation.equals("V1") && !generation.equals("V2")) {
                throw row.invalid("generations", "is '" + row.get("generations") + "'; expected V1, V2 or 'V1 V2'");
            }
            generations.add(generation);
        }
        VmSize size = new VmSize(name, sizeName.family(), vcpus, memory, gpu,
                rdma.isEmpty() ? sizeName.rdma() : rdma.equals("true"), architecture, generations);
        return new SizePart(size, model);
    }

    private static GpuVendor vendor(TableText.Row row, Optional<GpuModel> model) {
        String text = row.get("gpuVendor");
        if (text.isEmpty()) {
            return model.map(GpuModel::vendor).orElseThrow(() -> row.invalid("gpuVendor",
                    "is empty and the GPU model is not in the project's GPU table; write NVIDIA or AMD"));
        }
        if (text.equals("NVIDIA") || text.equals("AMD")) {
            return GpuVendor.valueOf(text);
        }
        throw row.invalid("gpuVendor", "is '" + text + "'; expected NVIDIA or AMD");
    }

    /** Zero means "no price", never "free". */
    static OptionalDouble knownPrice(OptionalDouble price) {
        return price.isPresent() && price.getAsDouble() > 0 ? price : OptionalDouble.empty();
    }

    private static String price(OptionalDouble price) {
        return price.isPresent() ? number(price.getAsDouble()) : "";
    }

    static String number(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    private static String oneLine(String text) {
        return text.replace('\n', ' ').replace('\r', ' ');
    }
}
