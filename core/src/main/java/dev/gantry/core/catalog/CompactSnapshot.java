package dev.gantry.core.catalog;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * Build step (core's pom, phase {@code process-classes}): writes the compact form ({@link CatalogBinary}) of the
 * embedded CSV snapshot next to it, so that {@link CatalogLoader#embedded()} need not parse the CSV at run time.
 * It reads the file back and fails the build when that does not give the catalog the CSV gives.
 *
 * <pre>
 * java -cp core/target/classes:... dev.gantry.core.catalog.CompactSnapshot SNAPSHOT_CSV OUTPUT_BIN
 * </pre>
 */
public final class CompactSnapshot {
    private CompactSnapshot() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            // Run by exec:java inside Maven: an exception fails the build, System.exit would end Maven itself.
            throw new IllegalArgumentException("usage: CompactSnapshot SNAPSHOT_CSV OUTPUT_BIN");
        }
        Path csv = Path.of(args[0]);
        Path bin = Path.of(args[1]);
        Catalog catalog;
        try (Reader reader = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
            catalog = CatalogFormat.read(reader, csv.toString());
        }
        // Written beside the target and moved into place, so that a build stopped half-way leaves no partial file;
        // a failed check deletes it, or the jar would ship it.
        Path partial = bin.resolveSibling(bin.getFileName() + ".partial");
        try {
            try (OutputStream out = Files.newOutputStream(partial)) {
                CatalogBinary.write(catalog, out);
            }
            Catalog back;
            try (InputStream in = Files.newInputStream(partial)) {
                back = CatalogBinary.read(in, partial.toString());
            }
            Optional<String> difference = CatalogBinary.firstDifference(catalog, back);
            if (difference.isPresent()) {
                throw new IllegalStateException(partial + " does not read back as the catalog of " + csv + ": "
                        + difference.get() + "; CatalogBinary's writer and reader disagree");
            }
            // Silent on success: it runs in every build, and a quiet build (mvn -q) should stay quiet.
            Files.move(partial, bin, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(partial);
        }
    }
}
