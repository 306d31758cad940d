package dev.gantry.core.catalog;

import dev.gantry.api.CatalogInfo;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDate;
import java.util.HexFormat;
import java.util.List;

/**
 * Builds the embedded snapshot from SkyPilot's public Azure catalog CSV. Deterministic: the same input and
 * arguments give the same bytes, so a test can check that the committed snapshot is what this program writes.
 *
 * <pre>
 * java -cp core/target/classes:... dev.gantry.core.catalog.SnapshotImporter \
 *     vms.csv core/src/main/resources/dev/gantry/catalog/azure-snapshot.csv SOURCE_COMMIT RETRIEVED_DATE
 * </pre>
 */
public final class SnapshotImporter {
    static final String SOURCE_PATH = "skypilot-org/skypilot-catalog catalogs/v6/azure/vms.csv";

    private SnapshotImporter() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            System.err.println("usage: SnapshotImporter VMS_CSV OUTPUT SOURCE_COMMIT RETRIEVED_DATE(YYYY-MM-DD)");
            System.exit(2);
        }
        Path input = Path.of(args[0]);
        Path output = Path.of(args[1]);
        Catalog catalog = importSnapshot(input, args[2], LocalDate.parse(args[3]));
        try (Writer writer = Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
            CatalogFormat.write(catalog, writer);
        }
        System.out.println("wrote " + catalog.entries().size() + " rows to " + output);
    }

    /** Imports the CSV with the provenance the snapshot records. */
    public static Catalog importSnapshot(Path input, String sourceCommit, LocalDate retrieved) throws IOException {
        byte[] bytes = Files.readAllBytes(input);
        String sha256;
        try {
            sha256 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        CatalogInfo info = CatalogInfo.copied("SkyPilot Azure catalog (" + SOURCE_PATH + " @ "
                + sourceCommit.substring(0, Math.min(12, sourceCommit.length())) + ")", retrieved);
        List<String> provenance = List.of(
                "origin: https://github.com/" + SOURCE_PATH.replace(" ", "/blob/" + sourceCommit + "/"),
                "origin-commit: " + sourceCommit,
                "origin-sha256: " + sha256,
                "origin-license: published by the SkyPilot project (Apache License 2.0); see NOTICE",
                "retrieved: " + retrieved + " (the source gives no price date; prices may be older than this)",
                "prices: Azure Retail Prices API, Linux pay-as-you-go consumption, USD per VM-hour",
                "imported-by: dev.gantry.core.catalog.SnapshotImporter with the project's gpus.csv, size-facts.csv"
                        + " and retired-series.csv");
        try (Reader reader = Files.newBufferedReader(input, StandardCharsets.UTF_8)) {
            return CatalogImporter.standard().importSkyPilot(reader, input.getFileName().toString(), info,
                    provenance);
        }
    }
}
