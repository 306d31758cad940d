package dev.gantry.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.model.CatalogSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "catalog", description = "Show or refresh the VM catalog that plans are made from.",
        subcommands = {CatalogCommand.Show.class, CatalogCommand.Refresh.class})
final class CatalogCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "show", description = "Which catalog plans use, when it was copied or fetched, what is known of "
            + "its prices' date, regions, sizes and zones.")
    static final class Show extends Verb {
        @Override
        public Integer call() {
            print(this, root.gantry().catalogSummary());
            return Main.OK;
        }
    }

    @Command(name = "refresh", description = {"Fetch current prices (Azure Retail Prices API) and, with a "
            + "subscription, sizes, restrictions and zones (Resource SKUs API) into the user's catalog cache.",
            "Plans use the cache from then on; every plan says which catalog it used and how old it is."})
    static final class Refresh extends Verb {
        @Option(names = "--region", paramLabel = "REGION", required = true,
                description = "Region to refresh (repeatable).")
        List<String> regions = new ArrayList<>();

        @Option(names = "--subscription", paramLabel = "ID",
                description = "Subscription for the Resource SKUs API (default: $AZURE_SUBSCRIPTION_ID); without one, "
                        + "only prices are refreshed.")
        String subscription;

        @Override
        public Integer call() {
            Optional<String> id = Optional.ofNullable(subscription)
                    .or(() -> Optional.ofNullable(env().environment().get("AZURE_SUBSCRIPTION_ID")));
            CatalogSummary catalog;
            try (ProgressLine progress = ProgressLine.of(this).ticking()) {
                catalog = root.gantry().refreshCatalogSummary(id, regions, progress);
            }
            env().err().println("gantry: wrote " + root.gantry().catalogCacheFile());
            print(this, catalog);
            return Main.OK;
        }
    }

    static void print(Verb verb, CatalogSummary catalog) {
        long sizes = catalog.sizes();
        if (verb.output.json()) {
            ObjectNode node = Json.object();
            node.put("source", catalog.info().source());
            node.put("date", catalog.info().date().toString());
            if (catalog.info().priceDate().isPresent()) {
                node.put("priceDate", catalog.info().priceDate().get().toString());
            } else {
                node.putNull("priceDate");
            }
            node.put("priceDateNote", catalog.priceDateNote());
            node.put("ageDays", catalog.ageDays());
            node.put("entries", catalog.entries());
            node.put("sizes", sizes);
            ArrayNode regions = node.putArray("regions");
            catalog.regions().forEach(regions::add);
            node.put("zones", catalog.zones());
            ArrayNode provenance = node.putArray("provenance");
            catalog.provenance().forEach(provenance::add);
            Json.print(verb.env().out(), node);
        } else {
            verb.env().out().println(catalog.text());
            verb.env().out().println("sizes: " + sizes + ", rows: " + catalog.entries() + ", regions: "
                    + String.join(" ", catalog.regions()));
            verb.env().out().println("zones: " + catalog.zones());
        }
    }
}
