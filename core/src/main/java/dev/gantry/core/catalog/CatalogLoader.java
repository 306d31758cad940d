package dev.gantry.core.catalog;

import dev.gantry.api.CatalogInfo;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.UserHome;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/**
 * Where a {@link Catalog} comes from: the snapshot embedded in Gantry, a file the user names
 * ({@code gantry plan --catalog FILE}), or the cache a live refresh wrote ({@code ~/.gantry/catalog/}).
 */
public final class CatalogLoader {
    /** The class-path resource holding the embedded snapshot, in {@link CatalogFormat}. */
    public static final String SNAPSHOT_RESOURCE = "/dev/gantry/catalog/azure-snapshot.csv";
    /**
     * The class-path resource holding the same snapshot in {@link CatalogBinary}'s compact form, made at build time
     * by {@link CompactSnapshot}; not in the source tree.
     */
    static final String COMPACT_SNAPSHOT_RESOURCE = "/dev/gantry/catalog/azure-snapshot.bin";
    /** The file name of the refresh cache inside its directory. */
    public static final String CACHE_FILE = "catalog.csv";

    private static volatile Catalog embedded;

    private CatalogLoader() {
    }

    /** The embedded snapshot; read once, then shared. */
    public static Catalog embedded() {
        Catalog catalog = embedded;
        if (catalog == null) {
            synchronized (CatalogLoader.class) {
                catalog = embedded;
                if (catalog == null) {
                    catalog = loadEmbeddedUncached();
                    embedded = catalog;
                }
            }
        }
        return catalog;
    }

    /**
     * Reads the embedded snapshot afresh, bypassing the shared copy (for load-time benchmarks): its compact form when
     * the build made one, else the CSV.
     */
    public static Catalog loadEmbeddedUncached() {
        return loadEmbedded(COMPACT_SNAPSHOT_RESOURCE, SNAPSHOT_RESOURCE, false);
    }

    /**
     * Reads the compact resource when it exists, else the CSV one. A compact resource that cannot be read ships in
     * the jar, so it means a broken build, not bad input: with {@code strict} false (production) the CSV, which
     * holds the same catalog, is read instead and Gantry keeps working; tests read with {@code strict} true, so
     * that such a build fails them.
     */
    static Catalog loadEmbedded(String compactResource, String csvResource, boolean strict) {
        InputStream compact = CatalogLoader.class.getResourceAsStream(compactResource);
        if (compact != null) {
            try (compact) {
                // concat, not +: see CatalogBinary.index.
                return CatalogBinary.read(compact, "embedded:".concat(resourceName(compactResource)));
            } catch (GantryException | IOException e) {
                if (strict) {
                    throw e instanceof GantryException g ? g : new GantryException(ErrorCode.CATALOG_INVALID,
                            "cannot read embedded:" + resourceName(compactResource) + ": " + e.getMessage(), e);
                }
            }
        }
        return loadCsv(csvResource);
    }

    /** Reads the embedded CSV snapshot, ignoring any compact form (for the load-time comparison). */
    public static Catalog loadEmbeddedCsvUncached() {
        return loadCsv(SNAPSHOT_RESOURCE);
    }

    private static Catalog loadCsv(String resource) {
        InputStream in = CatalogLoader.class.getResourceAsStream(resource);
        if (in == null) {
            throw new GantryException(ErrorCode.INTERNAL, "the embedded catalog " + resource
                    + " is missing from the class path");
        }
        try (Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            return CatalogFormat.read(reader, "embedded:" + resourceName(resource));
        } catch (IOException e) {
            throw new GantryException(ErrorCode.INTERNAL, "cannot read the embedded catalog " + resource + ": "
                    + e.getMessage(), e);
        }
    }

    private static String resourceName(String resource) {
        return resource.substring(resource.lastIndexOf('/') + 1);
    }

    /**
     * Reads a catalog file: SkyPilot's Azure CSV (header {@code InstanceType,AcceleratorName,...}; imported with the
     * same corrections as the snapshot, dated by the file's modification time) or the project's own format (first
     * line {@value CatalogFormat#MAGIC}). Fails with {@link ErrorCode#CATALOG_INVALID} naming file, line and column.
     */
    public static Catalog fromFile(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new GantryException(ErrorCode.CATALOG_INVALID, "catalog file " + file + " does not exist", e);
        } catch (IOException e) {
            throw new GantryException(ErrorCode.CATALOG_INVALID, "cannot read catalog file " + file + ": "
                    + e.getMessage(), e);
        }
        String name = file.toString();
        String first = firstLine(text);
        if (first.startsWith(CatalogFormat.MAGIC)) {
            return CatalogFormat.read(new StringReader(text), name);
        }
        if (first.startsWith("InstanceType,")) {
            LocalDate date;
            try {
                date = LocalDate.ofInstant(Files.getLastModifiedTime(file).toInstant(), ZoneOffset.UTC);
            } catch (IOException e) {
                throw new GantryException(ErrorCode.CATALOG_INVALID, "cannot read catalog file " + file + ": "
                        + e.getMessage(), e);
            }
            return CatalogImporter.standard().importSkyPilot(new StringReader(text), name,
                    CatalogInfo.copied("SkyPilot Azure CSV " + file.getFileName(), date),
                    List.of("origin: " + name + " (SkyPilot Azure catalog format)",
                            "date: the file's modification date; the format carries no price date"));
        }
        throw new GantryException(ErrorCode.CATALOG_INVALID, name + ":1: not a catalog file: expected SkyPilot's"
                + " Azure CSV header '" + String.join(",", CatalogImporter.SKYPILOT_COLUMNS) + "' or the line '"
                + CatalogFormat.MAGIC + "'; got '" + abbreviate(first) + "'");
    }

    /** The default refresh cache directory, {@code ~/.gantry/catalog}. */
    public static Path defaultCacheDir() {
        return UserHome.ofProcess().resolve(".gantry").resolve("catalog");
    }

    /** The catalog a refresh wrote to {@code dir}, or empty when there is none. */
    public static Optional<Catalog> cached(Path dir) {
        Path file = dir.resolve(CACHE_FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return Optional.of(CatalogFormat.read(reader, file.toString()));
        } catch (IOException e) {
            throw new GantryException(ErrorCode.CATALOG_INVALID, "cannot read catalog cache " + file + ": "
                    + e.getMessage(), e);
        }
    }

    /** The refreshed catalog in {@code cacheDir} when there is one, else the embedded snapshot. */
    public static Catalog cachedOrEmbedded(Path cacheDir) {
        return cached(cacheDir).orElseGet(CatalogLoader::embedded);
    }

    private static String firstLine(String text) {
        try (BufferedReader reader = new BufferedReader(new StringReader(text))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (!line.isBlank()) {
                    return line.startsWith("\uFEFF") ? line.substring(1) : line;
                }
            }
            return "";
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String abbreviate(String line) {
        return line.length() > 80 ? line.substring(0, 80) + "..." : line;
    }
}
