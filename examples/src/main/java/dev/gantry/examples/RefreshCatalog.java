package dev.gantry.examples;

import dev.gantry.Gantry;
import dev.gantry.api.GantryException;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.model.Progress;
import java.util.List;
import java.util.Optional;

/**
 * Gantry as a library, with the Azure add-on: refresh the VM catalog from Azure's Retail Prices API for some regions,
 * so that later plans price sizes with today's prices. Live refresh needs the Azure module: add
 * {@code dev.gantry:gantry-azure} beside {@code gantry-runs} in your build. Without it this program ends with USAGE
 * and a message naming that artifact (this examples module leaves it out on purpose, to stay light).
 *
 * <pre>
 * java -cp "examples/target/classes:$(cat examples/target/examples.classpath)" \
 *     dev.gantry.examples.RefreshCatalog eastus westus2
 * </pre>
 */
public final class RefreshCatalog {
    private RefreshCatalog() {
    }

    public static void main(String[] args) {
        if (args.length == 0) {
            System.err.println("usage: RefreshCatalog REGION...");
            System.exit(2);
        }
        try (Gantry gantry = Gantry.builder().build()) {
            Progress progress = (what, detail) -> System.err.println(what + (detail.isEmpty() ? "" : ": " + detail));
            Catalog catalog = gantry.refreshCatalog(Optional.ofNullable(System.getenv("AZURE_SUBSCRIPTION_ID")),
                    List.of(args), progress);
            System.out.println("refreshed: " + catalog.entries().size() + " rows, written to "
                    + gantry.catalogCacheFile());
        } catch (GantryException e) {
            System.err.println(e.code() + ": " + e.getMessage());
            System.exit(e.code().isUserError() ? 2 : 1);
        }
    }
}
