package dev.gantry.core.catalog;

import dev.gantry.api.Architecture;
import dev.gantry.api.CatalogInfo;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.VmSize;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A compact binary form of a {@link Catalog}, made at build time from the embedded CSV snapshot
 * ({@link CompactSnapshot}) so that a short-lived JVM does not split and parse 6,000 CSV rows on every start. The
 * CSV stays the source of truth; this form holds exactly the {@code Catalog} that {@link CatalogFormat#read} builds
 * from it, GPU table and retired series included, so reading it needs neither {@code gpus.csv} nor
 * {@code retired-series.csv}.
 *
 * <p>Layout, big-endian ({@link DataOutputStream}); a string is an {@code int} byte count and its UTF-8 bytes, a
 * "string index" an {@code int} into the string table, -1 for none:
 *
 * <pre>
 * int magic 0x47434154 ("GCAT"), int version {@value #VERSION}
 * info: string source, long date (epoch day), boolean hasPriceDate [, long priceDate (epoch day)]
 * int n, n × string                        provenance statements
 * int n, n × string                        string table
 * int n, n × GPU model                     name index, byte vendor, double memoryGib, double tensorTflops, int year
 * int n, n × (key index, int model)        the catalog's GPU table by name
 * int n, n × (string × 3)                  retired series: series, size pattern, source
 * int n, n × size                          name index, family index, int vcpus, double memoryGib,
 *                                          boolean hasGpu [, model index, int count, double memoryGib, byte vendor],
 *                                          boolean rdma, byte arch, byte n, n × generation index
 * int n, n × entry                         int size, region index, double onDemand, double spot (NaN = unknown),
 *                                          int GPU model (-1 = none), restriction index, zones index (version 2:
 *                                          the zones space-separated, "" for no zone, -1 = not recorded)
 * int end marker 0x454E4421 ("END!")
 * </pre>
 *
 * <p>A change to the layout must raise {@link #VERSION}: a reader refuses any version it does not know rather than
 * misread it. It reads version 1 (before entries recorded zones) as a catalog whose zones are not recorded.
 */
final class CatalogBinary {
    static final int MAGIC = 0x47434154;
    static final int VERSION = 2;
    /** The layout before entries recorded their zones. */
    static final int VERSION_WITHOUT_ZONES = 1;
    private static final int END = 0x454E4421;
    private static final byte X64 = 0;
    private static final byte ARM64 = 1;
    private static final byte NVIDIA = 0;
    private static final byte AMD = 1;
    private static final int NONE = -1;

    private CatalogBinary() {
    }

    /** Writes {@code catalog}; the stream is flushed, not closed. */
    static void write(Catalog catalog, OutputStream target) {
        try {
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(target, 1 << 16));
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            CatalogInfo info = catalog.info();
            writeString(out, info.source());
            out.writeLong(info.date().toEpochDay());
            out.writeBoolean(info.priceDate().isPresent());
            if (info.priceDate().isPresent()) {
                out.writeLong(info.priceDate().get().toEpochDay());
            }
            out.writeInt(catalog.provenance().size());
            for (String statement : catalog.provenance()) {
                writeString(out, statement);
            }

            Strings strings = new Strings();
            // The GPU models: the catalog's table and any an entry names that the table lacks (catalogs built in code).
            Map<GpuModel, Integer> models = new HashMap<>();
            List<GpuModel> modelList = new ArrayList<>();
            for (GpuModel model : catalog.gpuModels().values()) {
                index(models, modelList, model);
            }
            Map<VmSize, Integer> sizes = new HashMap<>();
            List<VmSize> sizeList = new ArrayList<>();
            for (CatalogEntry entry : catalog.entries()) {
                entry.gpuModel().ifPresent(model -> index(models, modelList, model));
                index(sizes, sizeList, entry.size());
            }
            for (GpuModel model : modelList) {
                strings.index(model.name());
            }
            for (String key : catalog.gpuModels().keySet()) {
                strings.index(key);
            }
            for (VmSize size : sizeList) {
                strings.index(size.name());
                strings.index(size.family());
                size.gpu().ifPresent(gpu -> strings.index(gpu.model()));
                for (String generation : size.hyperVGenerations()) {
                    strings.index(generation);
                }
            }
            for (CatalogEntry entry : catalog.entries()) {
                strings.index(entry.region());
                entry.restriction().ifPresent(strings::index);
                entry.zones().ifPresent(zones -> strings.index(String.join(" ", zones)));
            }

            out.writeInt(strings.list.size());
            for (String text : strings.list) {
                writeString(out, text);
            }
            out.writeInt(modelList.size());
            for (GpuModel model : modelList) {
                out.writeInt(strings.index(model.name()));
                out.writeByte(vendorCode(model.vendor()));
                out.writeDouble(model.memoryGib());
                out.writeDouble(model.tensorTflops());
                out.writeInt(model.releaseYear());
            }
            out.writeInt(catalog.gpuModels().size());
            for (Map.Entry<String, GpuModel> named : catalog.gpuModels().entrySet()) {
                out.writeInt(strings.index(named.getKey()));
                out.writeInt(models.get(named.getValue()));
            }
            out.writeInt(catalog.retiredSeries().size());
            for (RetiredSeries series : catalog.retiredSeries()) {
                writeString(out, series.series());
                writeString(out, series.sizePattern());
                writeString(out, series.source());
            }
            out.writeInt(sizeList.size());
            for (VmSize size : sizeList) {
                out.writeInt(strings.index(size.name()));
                out.writeInt(strings.index(size.family()));
                out.writeInt(size.vcpus());
                out.writeDouble(size.memoryGib());
                out.writeBoolean(size.gpu().isPresent());
                if (size.gpu().isPresent()) {
                    GpuSpec gpu = size.gpu().get();
                    out.writeInt(strings.index(gpu.model()));
                    out.writeInt(gpu.count());
                    out.writeDouble(gpu.memoryGib());
                    out.writeByte(vendorCode(gpu.vendor()));
                }
                out.writeBoolean(size.rdma());
                out.writeByte(size.architecture() == Architecture.ARM64 ? ARM64 : X64);
                // Sorted, so that the same catalog always gives the same bytes.
                TreeSet<String> generations = new TreeSet<>(size.hyperVGenerations());
                out.writeByte(generations.size());
                for (String generation : generations) {
                    out.writeInt(strings.index(generation));
                }
            }
            out.writeInt(catalog.entries().size());
            for (CatalogEntry entry : catalog.entries()) {
                out.writeInt(sizes.get(entry.size()));
                out.writeInt(strings.index(entry.region()));
                out.writeDouble(entry.onDemandPerHour().isPresent() ? entry.onDemandPerHour().getAsDouble() : Double.NaN);
                out.writeDouble(entry.spotPerHour().isPresent() ? entry.spotPerHour().getAsDouble() : Double.NaN);
                out.writeInt(entry.gpuModel().isPresent() ? models.get(entry.gpuModel().get()) : NONE);
                out.writeInt(entry.restriction().isPresent() ? strings.index(entry.restriction().get()) : NONE);
                out.writeInt(entry.zones().isPresent() ? strings.index(String.join(" ", entry.zones().get())) : NONE);
            }
            out.writeInt(END);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads a catalog written by {@link #write}. Fails with {@link ErrorCode#CATALOG_INVALID} naming {@code resource}
     * when the bytes are not this format, another version of it, truncated or inconsistent.
     */
    static Catalog read(InputStream source, String resource) {
        String part = "the header";
        try {
            Input in = new Input(source.readAllBytes());
            int magic = in.readInt();
            if (magic != MAGIC) {
                throw invalid(resource, "is not a compact Gantry catalog: it starts with 0x"
                        + Integer.toHexString(magic) + ", expected 0x" + Integer.toHexString(MAGIC) + " (\"GCAT\")");
            }
            int version = in.readInt();
            if (version != VERSION && version != VERSION_WITHOUT_ZONES) {
                throw invalid(resource, "is compact catalog format version " + version + "; this Gantry reads versions "
                        + VERSION_WITHOUT_ZONES + " and " + VERSION);
            }
            boolean zonesRecorded = version >= VERSION;
            part = "the catalog info";
            String sourceName = readString(in);
            LocalDate date = LocalDate.ofEpochDay(in.readLong());
            Optional<LocalDate> priceDate = in.readBoolean() ? Optional.of(LocalDate.ofEpochDay(in.readLong()))
                    : Optional.empty();
            part = "the provenance";
            String[] provenance = new String[count(in, resource, part)];
            for (int i = 0; i < provenance.length; i++) {
                provenance[i] = readString(in);
            }
            part = "the string table";
            String[] strings = new String[count(in, resource, part)];
            for (int i = 0; i < strings.length; i++) {
                strings[i] = readString(in);
            }
            part = "the GPU models";
            GpuModel[] models = new GpuModel[count(in, resource, part)];
            List<Optional<GpuModel>> someModels = new ArrayList<>(models.length);
            for (int i = 0; i < models.length; i++) {
                models[i] = new GpuModel(string(strings, in.readInt(), resource, part), vendor(in.readByte(), resource),
                        in.readDouble(), in.readDouble(), in.readInt());
                someModels.add(Optional.of(models[i]));
            }
            part = "the GPU table";
            int namedCount = count(in, resource, part);
            Map<String, GpuModel> gpuModels = new TreeMap<>();
            for (int i = 0; i < namedCount; i++) {
                String key = string(strings, in.readInt(), resource, part);
                gpuModels.put(key, models[index(in.readInt(), models.length, resource, part)]);
            }
            part = "the retired series";
            int retiredCount = count(in, resource, part);
            List<RetiredSeries> retired = new ArrayList<>(retiredCount);
            for (int i = 0; i < retiredCount; i++) {
                retired.add(new RetiredSeries(readString(in), readString(in), readString(in)));
            }
            part = "the VM sizes";
            VmSize[] sizes = new VmSize[count(in, resource, part)];
            for (int i = 0; i < sizes.length; i++) {
                sizes[i] = readSize(in, strings, resource);
            }
            part = "the entries";
            int entryCount = count(in, resource, part);
            // One Optional per restriction text, shared by its rows, as the CSV reader shares one per size.
            Map<Integer, Optional<String>> restrictions = new HashMap<>();
            Map<Integer, Optional<List<String>>> zoneLists = new HashMap<>();
            List<CatalogEntry> entries = new ArrayList<>(entryCount);
            for (int i = 0; i < entryCount; i++) {
                VmSize size = sizes[index(in.readInt(), sizes.length, resource, part)];
                String region = string(strings, in.readInt(), resource, part);
                double onDemand = in.readDouble();
                double spot = in.readDouble();
                int model = in.readInt();
                int restriction = in.readInt();
                int zones = zonesRecorded ? in.readInt() : NONE;
                Optional<String> restrictionText = Optional.empty();
                if (restriction != NONE) {
                    restrictionText = restrictions.get(restriction);
                    if (restrictionText == null) {
                        restrictionText = Optional.of(string(strings, restriction, resource, part));
                        restrictions.put(restriction, restrictionText);
                    }
                }
                entries.add(new CatalogEntry(size, region,
                        Double.isNaN(onDemand) ? OptionalDouble.empty() : OptionalDouble.of(onDemand),
                        Double.isNaN(spot) ? OptionalDouble.empty() : OptionalDouble.of(spot),
                        model == NONE ? Optional.empty() : someModels.get(index(model, models.length, resource, part)),
                        restrictionText, zones == NONE ? Optional.empty() : zoneLists.computeIfAbsent(zones,
                                z -> Optional.of(zoneList(string(strings, z, resource, "the entries"))))));
            }
            part = "the end marker";
            if (in.readInt() != END || !in.atEnd()) {
                throw invalid(resource, "does not end where its entries end: the file is damaged");
            }
            return new Catalog(entries, new CatalogInfo(sourceName, date, priceDate), gpuModels, retired,
                    List.of(provenance));
        } catch (EOFException e) {
            throw invalid(resource, "is truncated: it ends inside " + part, e);
        } catch (IOException e) {
            throw invalid(resource, "cannot be read: " + e.getMessage(), e);
        } catch (IllegalArgumentException | java.time.DateTimeException e) {
            // A value a record refuses (a count, a pattern, a date): damaged bytes, not a valid catalog.
            throw invalid(resource, "holds an invalid value in " + part + ": " + e.getMessage(), e);
        }
    }

    /** The zones as written: space-separated, empty for no zone. */
    private static List<String> zoneList(String text) {
        return text.isEmpty() ? List.of() : List.of(text.split(" "));
    }

    private static VmSize readSize(Input in, String[] strings, String resource) throws IOException {
        String part = "the VM sizes";
        String name = string(strings, in.readInt(), resource, part);
        String family = string(strings, in.readInt(), resource, part);
        int vcpus = in.readInt();
        double memory = in.readDouble();
        Optional<GpuSpec> gpu = Optional.empty();
        if (in.readBoolean()) {
            gpu = Optional.of(new GpuSpec(string(strings, in.readInt(), resource, part), in.readInt(), in.readDouble(),
                    vendor(in.readByte(), resource)));
        }
        boolean rdma = in.readBoolean();
        byte arch = in.readByte();
        if (arch != X64 && arch != ARM64) {
            throw invalid(resource, "holds architecture code " + arch + " for size " + name + "; expected 0 or 1");
        }
        int generationCount = in.readUnsignedByte();
        HashSet<String> generations = new HashSet<>(4);
        for (int g = 0; g < generationCount; g++) {
            generations.add(string(strings, in.readInt(), resource, part));
        }
        return new VmSize(name, family, vcpus, memory, gpu, rdma, arch == ARM64 ? Architecture.ARM64 : Architecture.X64,
                generations);
    }

    /**
     * The first way {@code actual} differs from {@code expected} (info, provenance, GPU table, retired series, entry
     * by entry), or empty when they hold the same data. {@code Catalog} has no {@code equals}; its parts are records.
     */
    static Optional<String> firstDifference(Catalog expected, Catalog actual) {
        if (!expected.info().equals(actual.info())) {
            return Optional.of("info: expected " + expected.info() + ", got " + actual.info());
        }
        if (!expected.provenance().equals(actual.provenance())) {
            return Optional.of("provenance: expected " + expected.provenance() + ", got " + actual.provenance());
        }
        if (!expected.gpuModels().equals(actual.gpuModels())) {
            return Optional.of("GPU table: expected " + expected.gpuModels() + ", got " + actual.gpuModels());
        }
        if (!expected.retiredSeries().equals(actual.retiredSeries())) {
            return Optional.of("retired series: expected " + expected.retiredSeries() + ", got "
                    + actual.retiredSeries());
        }
        List<CatalogEntry> want = expected.entries();
        List<CatalogEntry> got = actual.entries();
        for (int i = 0; i < Math.min(want.size(), got.size()); i++) {
            if (!want.get(i).equals(got.get(i))) {
                return Optional.of("entry " + i + ": expected " + want.get(i) + ", got " + got.get(i));
            }
        }
        if (want.size() != got.size()) {
            return Optional.of("entries: expected " + want.size() + ", got " + got.size());
        }
        return Optional.empty();
    }

    private static <T> void index(Map<T, Integer> indices, List<T> list, T value) {
        if (!indices.containsKey(value)) {
            indices.put(value, list.size());
            list.add(value);
        }
    }

    /**
     * The bytes {@link DataOutputStream} wrote, decoded from one array read in one call. In a cold JVM the reader
     * runs interpreted or C1-compiled, where every call counts: {@code DataInputStream} over a buffered stream makes
     * four synchronized {@code read()} calls per {@code int} (about 100 calls per entry), this one call.
     */
    private static final class Input {
        private final byte[] bytes;
        private int position;

        Input(byte[] bytes) {
            this.bytes = bytes;
        }

        private int take(int length) throws EOFException {
            int at = position;
            if (length > bytes.length - at) {
                throw new EOFException();
            }
            position = at + length;
            return at;
        }

        int readInt() throws EOFException {
            int at = take(4);
            byte[] b = bytes;
            return (b[at] & 0xff) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8 | (b[at + 3] & 0xff);
        }

        long readLong() throws EOFException {
            return (long) readInt() << 32 | (readInt() & 0xffffffffL);
        }

        double readDouble() throws EOFException {
            return Double.longBitsToDouble(readLong());
        }

        byte readByte() throws EOFException {
            return bytes[take(1)];
        }

        int readUnsignedByte() throws EOFException {
            return readByte() & 0xff;
        }

        boolean readBoolean() throws EOFException {
            return readByte() != 0;
        }

        String readString() throws IOException {
            int length = readInt();
            if (length < 0) {
                throw new IOException("a string of " + length + " bytes");
            }
            int at = take(length);
            return new String(bytes, at, length, StandardCharsets.UTF_8);
        }

        boolean atEnd() {
            return position == bytes.length;
        }
    }

    /** The string table: each distinct text once, in first-use order. */
    private static final class Strings {
        final Map<String, Integer> indices = new HashMap<>();
        final List<String> list = new ArrayList<>();

        int index(String text) {
            Objects.requireNonNull(text, "text");
            Integer index = indices.get(text);
            if (index == null) {
                index = list.size();
                indices.put(text, index);
                list.add(text);
            }
            return index;
        }
    }

    private static void writeString(DataOutputStream out, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static String readString(Input in) throws IOException {
        return in.readString();
    }

    private static int count(Input in, String resource, String part) throws IOException {
        int count = in.readInt();
        if (count < 0 || count > 1 << 24) {
            throw invalid(resource, "gives " + count + " as the length of " + part + ": the file is damaged");
        }
        return count;
    }

    // Callers pass constant texts and messages are built only on failure: a string concatenation on the
    // success path would cost the cold JVM its invokedynamic bootstrap (tens of milliseconds) and allocate per row.
    private static int index(int index, int size, String resource, String part) {
        if (index < 0 || index >= size) {
            throw invalid(resource, "refers to item " + index + " of " + size + " in " + part + ": the file is damaged");
        }
        return index;
    }

    private static String string(String[] strings, int index, String resource, String part) {
        if (index < 0 || index >= strings.length) {
            throw invalid(resource, "refers to string " + index + " of " + strings.length + " in " + part
                    + ": the file is damaged");
        }
        return strings[index];
    }

    private static byte vendorCode(GpuVendor vendor) {
        return switch (vendor) {
            case NVIDIA -> NVIDIA;
            case AMD -> AMD;
            case ANY -> throw new IllegalArgumentException("a GPU's vendor must be NVIDIA or AMD, got ANY");
        };
    }

    private static GpuVendor vendor(byte code, String resource) {
        if (code == NVIDIA) {
            return GpuVendor.NVIDIA;
        }
        if (code == AMD) {
            return GpuVendor.AMD;
        }
        throw invalid(resource, "holds GPU vendor code " + code + "; expected 0 (NVIDIA) or 1 (AMD)");
    }

    private static GantryException invalid(String resource, String problem) {
        return invalid(resource, problem, null);
    }

    private static GantryException invalid(String resource, String problem, Throwable cause) {
        return new GantryException(ErrorCode.CATALOG_INVALID, resource + " " + problem + ". It is made at build time"
                + " from the CSV snapshot by dev.gantry.core.catalog.CompactSnapshot: rebuild core"
                + " (./mvnw -pl core package) or delete it to read the CSV", cause);
    }
}
